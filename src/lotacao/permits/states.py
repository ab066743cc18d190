"""The permit's state machine: one declared table that the services and the screens both read.

A permit is born an application (`apply_for_permit`), or active when the agency records one
granted before this system (`import_existing_permit`) or when a transfer hands it to the new
holder (`transfer_permit`). From then on each transition below starts only from the statuses it
lists and leads to the status it names:

    application | eligible | ineligible --assess--> eligible | ineligible
    application | eligible | ineligible --grant---> active
    active --suspend--> suspended --reinstate--> active
    active | suspended --revoke--> revoked (the holder's re-entry ban is recorded)
    active | suspended --extinguish--> extinct (the delegation ended by a cause that is no
                                                penalty: no re-entry ban)
    revoked --restore--> active (a revocation undone on appeal; its ban lifted)
    active | suspended --withdraw--> withdrawn (on the day the holder stops)
    active | suspended --transfer--> transferred (and a new active permit for the receiver)
    active | suspended --renew | agent--> (the status stays)
    active | suspended, past the term or the withdrawal --expire--> expired | withdrawn
    active | suspended (provisional) --end_provisional--> expired (the tender of its line awarded)

Statuses are *effective* (`Permit.effective_status`): a live permit past its term already reads as
expired, one whose withdrawal took effect as withdrawn, before the nightly job records it
(`expire`, the one transition nobody takes by hand).

The services call `require(permit, action, on)` before anything else they check; the screens
show each button with `refusal()` as the reason it is not available. What the law adds on top
(a personal permit cannot be transferred, a renewal limit reached…) stays with each service, and
the screens' hints for it with `lotacao.permits.actions`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from lotacao.core.formats import br_date, lower_first
from lotacao.permits.models import Permit

S = Permit.Status
CLERKS = ("gestor", "atendente")
DECIDERS = ("gestor", "comissao")
SYSTEM: tuple[str, ...] = ()  # the nightly job: no role takes it by hand


@dataclass(frozen=True)
class Transition:
    name: str
    label: str  # the screen's button
    doing: str  # the refusal's verb: "Não é possível {doing}: …"
    roles: tuple[str, ...]  # who may take it (SYSTEM: nobody by hand)
    sources: tuple[str, ...]  # the (effective) statuses it may start from
    targets: tuple[str, ...] = ()  # the status it leads to; () where the status stays
    button: bool = True  # a button on the permit's page (assess runs with the application form)


OPEN, LIVE = Permit.OPEN, Permit.LIVE

TRANSITIONS: tuple[Transition, ...] = (
    Transition(
        "assess",
        "Analisar requerimento",
        "analisar o requerimento",
        CLERKS,
        OPEN,
        (S.ELIGIBLE, S.INELIGIBLE),
        button=False,
    ),
    Transition("grant", "Analisar e outorgar", "outorgar", CLERKS, OPEN, (S.ACTIVE,)),
    Transition("renew", "Prorrogar", "prorrogar", CLERKS, LIVE),
    Transition("agent", "Cadastrar preposto", "cadastrar preposto", CLERKS, LIVE),
    Transition("transfer", "Transferir", "transferir", CLERKS, LIVE, (S.TRANSFERRED,)),
    Transition("withdraw", "Registrar desistência", "registrar a desistência", CLERKS, LIVE, (S.WITHDRAWN,)),
    Transition("suspend", "Suspender", "suspender", DECIDERS, (S.ACTIVE,), (S.SUSPENDED,)),
    Transition("reinstate", "Reativar", "reativar", DECIDERS, (S.SUSPENDED,), (S.ACTIVE,)),
    Transition("revoke", "Cassar", "cassar", DECIDERS, LIVE, (S.REVOKED,)),
    # The delegation extinct by a cause of the law that is no penalty — the term, encampação,
    # rescisão, the company's bankruptcy or end, the holder's death (Esteio art. 46): recorded by
    # the delegation's extinction, never by hand. Cassação and caducidade stay with "revoke".
    Transition(
        "extinguish",
        "Registrar extinção da delegação",
        "registrar a extinção da delegação",
        SYSTEM,
        LIVE,
        (S.EXTINCT,),
        button=False,
    ),
    # A revocation in force before the appeal was judged, undone when the appeal annuls or
    # reduces it (Recife art. 43, parágrafo único): recorded by the due process, never by hand.
    Transition("restore", "Restabelecer", "restabelecer", SYSTEM, (S.REVOKED,), (S.ACTIVE,), button=False),
    # A provisional permit cancelled when the tender of its line is concluded (Maricá art. 76,
    # § 1º): recorded by the tender's award, never by hand.
    Transition(
        "end_provisional",
        "Encerrar permissão provisória",
        "encerrar a permissão provisória",
        SYSTEM,
        LIVE,
        (S.EXPIRED,),
        button=False,
    ),
    # The calendar's own transition, recorded by the nightly job (`expire_due`).
    Transition(
        "expire",
        "Registrar extinção",
        "registrar a extinção",
        SYSTEM,
        (S.EXPIRED, S.WITHDRAWN),
        (S.EXPIRED, S.WITHDRAWN),
        button=False,
    ),
)
BY_NAME = {t.name: t for t in TRANSITIONS}


# Each status as a sentence says it, with its verb and gender ("a permissão está ativa", "a
# permissão ainda é um requerimento em análise"), not the label glued after "está".
STATUS_PHRASES = {
    S.APPLICATION: "a permissão ainda é um requerimento em análise",
    S.ELIGIBLE: "a permissão ainda é um requerimento (requerente apto, sem outorga)",
    S.INELIGIBLE: "o requerimento foi indeferido (requerente inapto)",
    S.ACTIVE: "a permissão está ativa",
    S.SUSPENDED: "a permissão está suspensa",
    S.REVOKED: "a permissão foi cassada",
    S.WITHDRAWN: "a permissão foi extinta por desistência",
    S.EXPIRED: "a permissão está vencida",
    S.TRANSFERRED: "a permissão foi transferida",
    S.EXTINCT: "a permissão foi extinta",
}


def status_in_words(permit: Permit, status: str) -> str:
    """The status as the refusal says it, with the law's ground where the record holds it."""
    words = STATUS_PHRASES.get(S(status), f"a permissão está {lower_first(S(status).label)}")
    if status == S.EXPIRED and permit.valid_until is not None:
        ground = f"; {permit.term_citation}" if permit.term_citation else ""
        words += f" (prazo encerrado em {br_date(permit.valid_until)}{ground})"
    return words


def refusal(permit: Permit, action: str, on: dt.date) -> str | None:
    """Why `action` cannot start from the permit's status on `on` (Portuguese), or None."""
    status = permit.effective_status(on)
    if status in BY_NAME[action].sources:
        return None
    return status_in_words(permit, status)


def require(permit: Permit, action: str, on: dt.date) -> str:
    """The permit's effective status, when `action` may start from it; else a Portuguese refusal."""
    why = refusal(permit, action, on)
    if why is not None:
        raise ValidationError(f"Não é possível {BY_NAME[action].doing}: {why}.")
    return permit.effective_status(on)
