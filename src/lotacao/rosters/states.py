"""The roster's state table: every status change goes through `require(...)`, and the screens'
buttons read the same table.

    draft --submit--> submitted (through the line's representative: Recife art. 6º, § 3º;
                                 the coordinator or an auxiliary: Cabo arts. 19 e 20)
    submitted --approve--> approved (the agency; an approved roster it overlaps from a later
                                     start is superseded from the day before)
    submitted --refuse---> refused (the agency, with reasons)
    approved --supersede--> superseded (by the approval of the next roster, never by hand)
"""

from __future__ import annotations

from lotacao.core.states import StateTable, Transition
from lotacao.rosters.models import Roster

S = Roster.Status
CLERKS = ("gestor", "atendente")
DECIDERS = ("gestor",)
SYSTEM: tuple[str, ...] = ()


TRANSITIONS: tuple[Transition, ...] = (
    Transition("submit", "Submeter ao órgão", "submeter a escala", CLERKS, (S.DRAFT,), S.SUBMITTED),
    Transition("approve", "Aprovar", "aprovar a escala", DECIDERS, (S.SUBMITTED,), S.APPROVED),
    Transition("refuse", "Recusar", "recusar a escala", DECIDERS, (S.SUBMITTED,), S.REFUSED),
    Transition(
        "supersede", "Substituir", "substituir a escala", SYSTEM, (S.APPROVED,), S.SUPERSEDED, button=False
    ),
)
BY_NAME = {t.name: t for t in TRANSITIONS}
EDITABLE = (S.DRAFT,)

STATUS_PHRASES = {
    S.DRAFT: "ainda está em elaboração",
    S.SUBMITTED: "já foi submetida e aguarda a decisão do órgão",
    S.APPROVED: "já foi aprovada",
    S.REFUSED: "foi recusada",
    S.SUPERSEDED: "foi substituída por outra escala",
}


TABLE = StateTable(TRANSITIONS, STATUS_PHRASES, "a escala")


def refusal(roster: Roster, action: str) -> str:
    """Why `action` cannot start from the roster's status ("" when it can)."""
    return TABLE.refusal(roster.status, action)


def require(roster: Roster, action: str) -> Transition:
    return TABLE.require(roster.status, action)


def actions(roster: Roster, roles: set[str]) -> list[Transition]:
    """The transitions a user with `roles` may take now (the page's buttons)."""
    return TABLE.actions(roster.status, roles)
