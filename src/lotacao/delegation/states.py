"""The delegation's state tables: one declared table per procedure, read by the services
(`require`) and by the screens (the buttons staff see).

The contract (Esteio art. 42):

    signed --start--> in_force          (a successor after the tender: once the staff take-over
                                         of art. 49 is met; other contracts are born in force)
    signed | in_force --hire | decline--> (the status stays: a former employee hired or refusing)
    extinct --employee--> extinct       (an employee of the extinct operator recorded, art. 49)
    in_force --interrupt--> in_force   (immediate suspension of the permit, art. 27)
    in_force --open_inquiry--> in_force (a caducidade inquiry opened, art. 37)
    in_force --extinguish--> extinct    (a cause of art. 46; the permit ended)
    in_force --consortium--> in_force   (proposed in an operating consortium, art. 19, § 5º)

The operating consortium (art. 19, § 5º): proposed --approve | refuse--> approved | refused.

The caducidade inquiry (art. 37; art. 46, § 3º):

    opened --notify--> notified         (the defense deadline starts)
    notified --defend--> defended       (until the deadline)
    notified | defended --declare--> declared  (CMTT's recommendation and the decree; the
                                                 contract extinct and the permit ended)
    opened | notified | defended --archive--> archived

What the law adds on top (no decision before the defense deadline ends without a defense, a
defense after the deadline…) stays with each service.
"""

from __future__ import annotations

from lotacao.core.states import StateTable, Transition
from lotacao.delegation.models import Consortium, Contract, Inquiry

C = Contract.Status
I = Inquiry.Status  # noqa: E741
CLERKS = ("gestor", "atendente")
DECIDERS = ("gestor",)


CONTRACT: tuple[Transition, ...] = (
    Transition(
        "start",
        "Iniciar a operação",
        "iniciar a operação do contrato",
        DECIDERS,
        (C.SIGNED,),
        C.IN_FORCE,
    ),
    Transition(
        "hire",
        "Registrar contratação",
        "registrar a contratação do empregado",
        CLERKS,
        (C.SIGNED, C.IN_FORCE),
        "",
    ),
    Transition(
        "decline",
        "Registrar recusa da oferta",
        "registrar a recusa da oferta",
        CLERKS,
        (C.SIGNED, C.IN_FORCE),
        "",
    ),
    Transition(
        "employee",
        "Registrar empregado da operadora",
        "registrar empregado da operadora",
        CLERKS,
        (C.EXTINCT,),
        "",
    ),
    Transition(
        "interrupt",
        "Registrar interrupção e suspender",
        "registrar a interrupção do serviço",
        DECIDERS,
        (C.IN_FORCE,),
        "",
    ),
    Transition(
        "open_inquiry",
        "Instaurar inquérito de caducidade",
        "instaurar o inquérito",
        DECIDERS,
        (C.IN_FORCE,),
        "",
    ),
    Transition(
        "extinguish", "Registrar extinção", "registrar a extinção", DECIDERS, (C.IN_FORCE,), C.EXTINCT
    ),
    Transition(
        "asset", "Registrar bem reversível", "registrar o bem reversível", CLERKS, (C.IN_FORCE, C.EXTINCT), ""
    ),
    Transition(
        "consortium", "Propor consórcio", "incluir o contrato em consórcio", CLERKS, (C.IN_FORCE,), ""
    ),
)
INQUIRY: tuple[Transition, ...] = (
    Transition("notify", "Registrar notificação", "registrar a notificação", CLERKS, (I.OPENED,), I.NOTIFIED),
    Transition("defend", "Registrar defesa", "registrar a defesa", CLERKS, (I.NOTIFIED,), I.DEFENDED),
    Transition(
        "declare",
        "Declarar a caducidade",
        "declarar a caducidade",
        DECIDERS,
        (I.NOTIFIED, I.DEFENDED),
        I.DECLARED,
    ),
    Transition(
        "archive",
        "Arquivar o inquérito",
        "arquivar o inquérito",
        DECIDERS,
        (I.OPENED, I.NOTIFIED, I.DEFENDED),
        I.ARCHIVED,
    ),
)
# The operating consortium (art. 19, § 5º): proposed --approve | refuse--> approved | refused.
K = Consortium.Status
CONSORTIUM: tuple[Transition, ...] = (
    Transition("approve", "Aprovar o consórcio", "aprovar o consórcio", DECIDERS, (K.PROPOSED,), K.APPROVED),
    Transition("refuse", "Não aprovar", "recusar o consórcio", DECIDERS, (K.PROPOSED,), K.REFUSED),
)
CONSORTIUM_BY_NAME = {t.name: t for t in CONSORTIUM}
CONSORTIUM_PHRASES = {
    K.PROPOSED: "o consórcio aguarda aprovação",
    K.APPROVED: "o consórcio já foi aprovado",
    K.REFUSED: "o consórcio não foi aprovado",
}
CONTRACT_BY_NAME = {t.name: t for t in CONTRACT}
INQUIRY_BY_NAME = {t.name: t for t in INQUIRY}

CONTRACT_PHRASES = {
    C.SIGNED: "o contrato foi assinado e a operação ainda não começou",
    C.IN_FORCE: "o contrato está em vigor",
    C.EXTINCT: "o contrato já foi extinto",
}
INQUIRY_PHRASES = {
    I.OPENED: "o inquérito foi instaurado e ainda não houve notificação",
    I.NOTIFIED: "a permissionária já foi notificada",
    I.DEFENDED: "a defesa já foi apresentada",
    I.DECLARED: "a caducidade já foi declarada",
    I.ARCHIVED: "o inquérito foi arquivado",
}


CONTRACT_TABLE = StateTable(CONTRACT, CONTRACT_PHRASES)
INQUIRY_TABLE = StateTable(INQUIRY, INQUIRY_PHRASES)
CONSORTIUM_TABLE = StateTable(CONSORTIUM, CONSORTIUM_PHRASES)


def require_contract(contract: Contract, action: str) -> None:
    CONTRACT_TABLE.require(contract.status, action)


def require_inquiry(inquiry: Inquiry, action: str) -> None:
    INQUIRY_TABLE.require(inquiry.status, action)


def require_consortium(consortium: Consortium, action: str) -> None:
    CONSORTIUM_TABLE.require(consortium.status, action)


def contract_actions(contract: Contract, roles: set[str]) -> list[Transition]:
    return CONTRACT_TABLE.actions(contract.status, roles)


def inquiry_actions(inquiry: Inquiry, roles: set[str]) -> list[Transition]:
    return INQUIRY_TABLE.actions(inquiry.status, roles)


def consortium_actions(consortium: Consortium, roles: set[str]) -> list[Transition]:
    return CONSORTIUM_TABLE.actions(consortium.status, roles)
