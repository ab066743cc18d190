"""The manifestation's state table (Lei 13.460/2017, arts. 12 and 16): every status change is here
once, with the button's label, the statuses it may start from and the status it leads to.

received → (triage) analysis → (forward) forwarded → (answer) answered → (close) closed.
The extension of the 30-day clock (art. 16) does not change the status: it is allowed once, from
any open status, with its reasons (`services.extend`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from lotacao.core.formats import lower_first
from lotacao.ombudsman.models import Status

OPEN = (Status.RECEIVED, Status.ANALYSIS, Status.FORWARDED)


@dataclass(frozen=True)
class Transition:
    action: str
    label: str
    sources: tuple[str, ...]
    target: str | None  # None: the status stays


TRANSITIONS: dict[str, Transition] = {
    t.action: t
    for t in (
        Transition("triage", "Iniciar a análise", (Status.RECEIVED,), Status.ANALYSIS),
        Transition("forward", "Encaminhar a um setor", OPEN, Status.FORWARDED),
        Transition("extend", "Prorrogar o prazo (uma única vez)", OPEN, None),
        Transition("answer", "Responder", OPEN, Status.ANSWERED),
        Transition("close", "Encerrar", (Status.ANSWERED,), Status.CLOSED),
    )
}

STATUS_PHRASES = {
    Status.RECEIVED: "recebida, aguardando análise da ouvidoria",
    Status.ANALYSIS: "em análise pela ouvidoria",
    Status.FORWARDED: "encaminhada ao setor responsável, em apuração",
    Status.ANSWERED: "respondida",
    Status.CLOSED: "respondida e encerrada",
}


def refusal(status: str, action: str) -> str | None:
    """Why `action` may not be taken from `status` (None: it may)."""
    transition = TRANSITIONS[action]
    if status in transition.sources:
        return None
    return (
        f"A manifestação está {STATUS_PHRASES[Status(status)]}: não é possível "
        f"“{lower_first(transition.label)}” nesta situação."
    )


def require(status: str, action: str) -> Transition:
    reason = refusal(status, action)
    if reason is not None:
        raise ValidationError(reason)
    return TRANSITIONS[action]


def available(status: str) -> list[Transition]:
    return [t for t in TRANSITIONS.values() if status in t.sources]
