"""The delegation's state tables: one declared table per procedure, read by the services
(`require`) and by the screens (the buttons staff see).

The contract (Esteio art. 42):

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

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from lotacao.delegation.models import Consortium, Contract, Inquiry

C = Contract.Status
I = Inquiry.Status  # noqa: E741
CLERKS = ("gestor", "atendente")
DECIDERS = ("gestor",)


@dataclass(frozen=True)
class Transition:
    name: str
    label: str  # the button
    doing: str  # "Não é possível {doing}: …"
    roles: tuple[str, ...]
    sources: tuple[str, ...]
    target: str  # "" where the status stays


CONTRACT: tuple[Transition, ...] = (
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


def contract_refusal(contract: Contract, action: str) -> str | None:
    if contract.status in CONTRACT_BY_NAME[action].sources:
        return None
    return CONTRACT_PHRASES[C(contract.status)]


def inquiry_refusal(inquiry: Inquiry, action: str) -> str | None:
    if inquiry.status in INQUIRY_BY_NAME[action].sources:
        return None
    return INQUIRY_PHRASES[I(inquiry.status)]


def require_contract(contract: Contract, action: str) -> None:
    why = contract_refusal(contract, action)
    if why is not None:
        raise ValidationError(f"Não é possível {CONTRACT_BY_NAME[action].doing}: {why}.")


def require_inquiry(inquiry: Inquiry, action: str) -> None:
    why = inquiry_refusal(inquiry, action)
    if why is not None:
        raise ValidationError(f"Não é possível {INQUIRY_BY_NAME[action].doing}: {why}.")


def contract_actions(contract: Contract, roles: set[str]) -> list[Transition]:
    return [t for t in CONTRACT if set(t.roles) & roles and contract_refusal(contract, t.name) is None]


def inquiry_actions(inquiry: Inquiry, roles: set[str]) -> list[Transition]:
    return [t for t in INQUIRY if set(t.roles) & roles and inquiry_refusal(inquiry, t.name) is None]


def consortium_refusal(consortium: Consortium, action: str) -> str | None:
    if consortium.status in CONSORTIUM_BY_NAME[action].sources:
        return None
    return CONSORTIUM_PHRASES[K(consortium.status)]


def require_consortium(consortium: Consortium, action: str) -> None:
    why = consortium_refusal(consortium, action)
    if why is not None:
        raise ValidationError(f"Não é possível {CONSORTIUM_BY_NAME[action].doing}: {why}.")


def consortium_actions(consortium: Consortium, roles: set[str]) -> list[Transition]:
    return [t for t in CONSORTIUM if set(t.roles) & roles and consortium_refusal(consortium, t.name) is None]
