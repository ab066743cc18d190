"""The authorization's state table (Esteio art. 17), read by the services (`require`) and by the
screens (the buttons staff see):

    requested --grant--> granted           (the agency's act, number, start and validity)
    requested --refuse--> refused
    granted --suspend--> suspended          (the act and the reasons; until a date, or until lifted)
    suspended --reinstate--> granted
    granted | suspended --revoke--> revoked (cassação)
    requested | granted | suspended --withdraw--> withdrawn  (the holder gives it up)
    granted | suspended --expire--> expired (the validity ended; no button: the date decides)
    granted | suspended --replace--> replaced (the vehicle was replaced: a new authorization
                                               for the new vehicle was granted; no button)

What the law adds on top (the kind turned on, the vehicle free of another permit or authorization,
four doors for a taxi at replacement: art. 52) stays with each service.
"""

from __future__ import annotations

from lotacao.authorizations.models import Authorization
from lotacao.core.states import StateTable, Transition

S = Authorization.Status
CLERKS = ("gestor", "atendente")
DECIDERS = ("gestor",)

TRANSITIONS: tuple[Transition, ...] = (
    Transition(
        "grant", "Conceder a autorização", "conceder a autorização", DECIDERS, (S.REQUESTED,), S.GRANTED
    ),
    Transition("refuse", "Indeferir o pedido", "indeferir o pedido", DECIDERS, (S.REQUESTED,), S.REFUSED),
    Transition("suspend", "Suspender", "suspender a autorização", DECIDERS, (S.GRANTED,), S.SUSPENDED),
    Transition(
        "reinstate", "Encerrar a suspensão", "encerrar a suspensão", DECIDERS, (S.SUSPENDED,), S.GRANTED
    ),
    Transition("revoke", "Cassar", "cassar a autorização", DECIDERS, (S.GRANTED, S.SUSPENDED), S.REVOKED),
    Transition(
        "withdraw",
        "Registrar desistência",
        "registrar a desistência",
        CLERKS,
        (S.REQUESTED, S.GRANTED, S.SUSPENDED),
        S.WITHDRAWN,
    ),
    Transition(
        "expire",
        "Registrar vencimento",
        "registrar o vencimento",
        DECIDERS,
        (S.GRANTED, S.SUSPENDED),
        S.EXPIRED,
        False,
    ),
    Transition(
        "replace",
        "Encerrar pela substituição do veículo",
        "substituir o veículo",
        DECIDERS,
        (S.GRANTED, S.SUSPENDED),
        S.REPLACED,
        False,
    ),
)

PHRASES = {
    S.REQUESTED: "o pedido ainda não foi decidido",
    S.GRANTED: "a autorização está em vigor",
    S.SUSPENDED: "a autorização está suspensa",
    S.REVOKED: "a autorização foi cassada",
    S.EXPIRED: "a autorização venceu",
    S.WITHDRAWN: "o autorizatário desistiu da autorização",
    S.REFUSED: "o pedido foi indeferido",
    S.REPLACED: "a autorização foi encerrada pela substituição do veículo",
}

TABLE = StateTable(TRANSITIONS, PHRASES)
BY_NAME = TABLE.by_name


def require(authorization: Authorization, action: str) -> Transition:
    return TABLE.require(authorization.status, action)


def actions(authorization: Authorization, roles: set[str]) -> list[Transition]:
    return TABLE.actions(authorization.status, roles)
