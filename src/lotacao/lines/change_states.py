"""The state table of a request to change a line (lotacao.lines.models.ChangeRequest).

    filed --open_hearing--> hearing          (the operators are heard, until a date the agency sets)
    filed | hearing --to_study--> study      (the feasibility study; from filed only where the law
                                              does not require the hearing: Recife, Maricá)
    filed | hearing | study --refuse--> refused
    study --approve--> approved              (the hearing, where required, closed and answered)

What the law adds on top (the hearing's period over, the operators' answers, Cabo's agreement of
the holders' entities, the study, the council's act) stays with lotacao.lines.life, which calls
`require(request, action)` before anything else it checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from lotacao.core.formats import lower_first
from lotacao.lines.models import ChangeRequest

S = ChangeRequest.Status


@dataclass(frozen=True)
class Transition:
    name: str
    label: str  # the screen's button
    doing: str  # "Não é possível {doing}: …"
    sources: tuple[str, ...]
    target: str


TRANSITIONS: tuple[Transition, ...] = (
    Transition("open_hearing", "Abrir oitiva dos operadores", "abrir a oitiva", (S.FILED,), S.HEARING),
    Transition("to_study", "Passar ao estudo", "passar o pedido ao estudo", (S.FILED, S.HEARING), S.STUDY),
    Transition("approve", "Aprovar", "aprovar o pedido", (S.STUDY,), S.APPROVED),
    Transition("refuse", "Indeferir", "indeferir o pedido", (S.FILED, S.HEARING, S.STUDY), S.REFUSED),
)
BY_NAME = {t.name: t for t in TRANSITIONS}
FINAL = (S.APPROVED, S.REFUSED)


def refusal(request: ChangeRequest, action: str) -> str | None:
    """Why `action` cannot start from the request's status (None when it can)."""
    if request.status in BY_NAME[action].sources:
        return None
    return f"o pedido está {lower_first(ChangeRequest.Status(request.status).label)}"


def require(request: ChangeRequest, action: str) -> None:
    why = refusal(request, action)
    if why:
        raise ValidationError(f"Não é possível {BY_NAME[action].doing}: {why}.")
