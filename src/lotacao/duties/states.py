"""The state tables of the duties: every status change of an authorization or an incident report
goes through `require(...)`, and the screens' buttons read the same table.

    authorization: requested --grant--> granted --revoke--> revoked
                   requested --deny---> denied
                   requested --withdraw--> withdrawn (the holder gives up the request)
    incident report: received --review--> reviewed
"""

from __future__ import annotations

from lotacao.core.states import StateTable, Transition
from lotacao.duties.models import Authorization

A = Authorization.Status
DECIDERS = ("gestor",)
CLERKS = ("gestor", "atendente")
HOLDER = "permissionario"  # the holder's own account (not a staff role)


AUTHORIZATION: tuple[Transition, ...] = (
    Transition("grant", "Autorizar", "autorizar", DECIDERS, (A.REQUESTED,), A.GRANTED),
    Transition("deny", "Indeferir", "indeferir", DECIDERS, (A.REQUESTED,), A.DENIED),
    Transition("revoke", "Revogar", "revogar a autorização", DECIDERS, (A.GRANTED,), A.REVOKED),
    Transition(
        "withdraw", "Desistir do pedido", "desistir do pedido", (*CLERKS, HOLDER), (A.REQUESTED,), A.WITHDRAWN
    ),
)
BY_NAME = {t.name: t for t in AUTHORIZATION}

STATUS_PHRASES = {
    A.REQUESTED: "está pedida e aguarda a decisão do órgão gestor",
    A.GRANTED: "já foi autorizada",
    A.DENIED: "foi indeferida",
    A.REVOKED: "foi revogada",
    A.WITHDRAWN: "teve o pedido retirado pelo permissionário",
}


TABLE = StateTable(AUTHORIZATION, STATUS_PHRASES, "a autorização")


def refusal(authorization: Authorization, action: str) -> str:
    """Why `action` cannot start from the authorization's status ("" when it can)."""
    return TABLE.refusal(authorization.status, action)


def require(authorization: Authorization, action: str) -> Transition:
    return TABLE.require(authorization.status, action)


def actions(authorization: Authorization, roles: set[str]) -> list[Transition]:
    """The transitions a user with `roles` may take now (the page's buttons)."""
    return TABLE.actions(authorization.status, roles)
