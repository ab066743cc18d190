"""The state tables of the duties: every status change of an authorization or an incident report
goes through `require(...)`, and the screens' buttons read the same table.

    authorization: requested --grant--> granted --revoke--> revoked
                   requested --deny---> denied
                   requested --withdraw--> withdrawn (the holder gives up the request)
    incident report: received --review--> reviewed
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from lotacao.duties.models import Authorization

A = Authorization.Status
DECIDERS = ("gestor",)
CLERKS = ("gestor", "atendente")
HOLDER = "permissionario"  # the holder's own account (not a staff role)


@dataclass(frozen=True)
class Transition:
    name: str
    label: str  # the button
    doing: str  # "Não é possível {doing}: …"
    roles: tuple[str, ...]
    sources: tuple[str, ...]
    target: str


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


def refusal(authorization: Authorization, action: str) -> str:
    """Why `action` cannot start from the authorization's status ("" when it can)."""
    transition = BY_NAME[action]
    if authorization.status in transition.sources:
        return ""
    return f"Não é possível {transition.doing}: a autorização {STATUS_PHRASES[A(authorization.status)]}."


def require(authorization: Authorization, action: str) -> Transition:
    if action not in BY_NAME:
        raise ValidationError("Ação desconhecida.")
    why = refusal(authorization, action)
    if why:
        raise ValidationError(why)
    return BY_NAME[action]


def actions(authorization: Authorization, roles: set[str]) -> list[Transition]:
    """The transitions a user with `roles` may take now (the page's buttons)."""
    return [t for t in AUTHORIZATION if authorization.status in t.sources and set(t.roles) & roles]
