"""The state table of each procedure a holder files online: one declared table per kind, read by
the services (`require`) and by the screens (the buttons a clerk or the holder sees).

    filed --approve--> approved   (the clerk; the effect runs in the owning app)
    filed --refuse---> refused    (the clerk, with reasons and citation)
    filed --withdraw-> withdrawn  (the holder, before the decision)

Each procedure names its transitions in its own words (a booking is "confirmed", a document
"accepted"); a status a table does not list cannot be left.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from lotacao.holder_requests.models import Request

S = Request.Status
K = Request.Kind
CLERKS = ("gestor", "atendente")
HOLDER = ("holder",)


@dataclass(frozen=True)
class Transition:
    name: str
    label: str  # the button
    doing: str  # "Não é possível {doing}: …"
    roles: tuple[str, ...]
    sources: tuple[str, ...]
    target: str


def _decisions(approve: str, approving: str, refuse: str, refusing: str) -> tuple[Transition, ...]:
    return (
        Transition("approve", approve, approving, CLERKS, (S.FILED,), S.APPROVED),
        Transition("refuse", refuse, refusing, CLERKS, (S.FILED,), S.REFUSED),
        Transition(
            "withdraw",
            "Desistir do requerimento",
            "desistir do requerimento",
            HOLDER,
            (S.FILED,),
            S.WITHDRAWN,
        ),
    )


TABLES: dict[str, tuple[Transition, ...]] = {
    K.APPLICATION: _decisions(
        "Deferir e registrar o requerimento de permissão",
        "deferir o requerimento",
        "Indeferir",
        "indeferir o requerimento",
    ),
    K.RENEWAL: _decisions(
        "Deferir e prorrogar a permissão", "prorrogar a permissão", "Indeferir", "indeferir a renovação"
    ),
    K.DOCUMENT: _decisions(
        "Aceitar o documento", "aceitar o documento", "Recusar o documento", "recusar o documento"
    ),
    K.SUBSTITUTION: _decisions(
        "Deferir e substituir o veículo", "substituir o veículo", "Indeferir", "indeferir a substituição"
    ),
    K.INSPECTION: _decisions(
        "Confirmar o agendamento", "confirmar o agendamento", "Recusar o agendamento", "recusar o agendamento"
    ),
}

STATUS_PHRASES = {
    S.FILED: "o requerimento está em análise",
    S.APPROVED: "o requerimento já foi deferido",
    S.REFUSED: "o requerimento já foi indeferido",
    S.WITHDRAWN: "o requerente desistiu do requerimento",
}


def transition(kind: str, action: str) -> Transition:
    for t in TABLES[kind]:
        if t.name == action:
            return t
    raise ValidationError(f"Ação desconhecida para este requerimento: {action}.")


def refusal(request: Request, action: str) -> str | None:
    """Why `action` cannot start from the request's status (Portuguese), or None."""
    t = transition(request.kind, action)
    if request.status in t.sources:
        return None
    return STATUS_PHRASES[S(request.status)]


def require(request: Request, action: str) -> Transition:
    t = transition(request.kind, action)
    why = refusal(request, action)
    if why is not None:
        raise ValidationError(f"Não é possível {t.doing}: {why}.")
    return t


def available(request: Request, role: str) -> list[Transition]:
    """The transitions `role` ("holder" or a staff role) may take now, for the page's buttons."""
    return [t for t in TABLES[request.kind] if role in t.roles and request.status in t.sources]
