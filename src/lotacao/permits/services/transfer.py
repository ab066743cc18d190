"""The holder leaves the permit: a transfer to a successor or a third party where the law allows
one, or a withdrawal (desistência) with the notice the law requires."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing.selectors import clearance
from lotacao.core.formats import br_date
from lotacao.law.packs import Entry
from lotacao.permits import rules
from lotacao.permits.eligibility import Eligibility, check_eligibility
from lotacao.permits.models import Permit
from lotacao.permits.services.common import end_agents, fresh, require_reason, today, transition
from lotacao.permits.services.lifecycle import permit_ended, permit_started
from lotacao.permits.states import require
from lotacao.registry.models import Holder

S = Permit.Status
TRANSFER_CAUSES = {
    "death": "falecimento do titular",
    "disability": "invalidez ou incapacidade do titular",
    "third_party": "transferência a terceiro",
    "consent": "transferência a terceiro com anuência do Poder Público",
}


# ---------------------------------------------------------------- transfer


@transaction.atomic
def transfer_permit(
    *,
    actor: Any,
    permit: Permit,
    to_holder: Holder,
    cause: str,
    reason: str,
    consent_reference: str,
    on: dt.date | None = None,
    event_on: dt.date | None = None,
) -> Permit:
    """Transfer the permit where the law allows it; returns the receiver's new permit."""
    require_reason(reason)
    day = today(on)
    code = permit.jurisdiction_id
    permit = fresh(permit)
    require(permit, "transfer", day)
    causes = _cause_admitted(code, cause, day)
    if not consent_reference.strip():
        raise ValidationError(
            f"A transferência depende da anuência do órgão gestor: informe o ato ({causes.citation})."
        )
    if to_holder.pk == permit.holder_id or to_holder.jurisdiction_id != code:
        raise ValidationError("Informe outro permissionário, da mesma jurisdição.")
    if cause in ("death", "disability"):
        _successors_in_time(code, day, event_on)
    if cause == "third_party":
        _third_party_allowed(permit, day, causes)
    if cause in ("third_party", "consent"):
        clear = clearance(holder=permit.holder, on=day, procedure="transfer")
        if not clear.clear:
            raise ValidationError(" ".join(clear.reasons))
    receiver = check_eligibility(holder=to_holder, on=day, procedure="transfer")
    if not receiver.eligible:
        raise ValidationError("O novo titular não preenche os requisitos: " + receiver.summary())
    cited = str(causes.citation)
    _hand_over(
        actor=actor,
        permit=permit,
        to_holder=to_holder,
        day=day,
        cause=cause,
        reason=f"{reason} — {TRANSFER_CAUSES[cause]}; anuência: {consent_reference.strip()} ({cited}).",
    )
    return _receive(
        actor=actor,
        permit=permit,
        to_holder=to_holder,
        day=day,
        receiver=receiver,
        reason=f"{reason} — recebida por transferência ({TRANSFER_CAUSES[cause]}; {cited}).",
        act=consent_reference.strip(),
    )


def _cause_admitted(code: str, cause: str, day: dt.date) -> Entry:
    """The law's causes of transfer, when it admits `cause` among them."""
    causes = rules.entry(code, "permit.transfer_causes", day)
    if causes is None or causes.status != "value":
        why = causes.reason if causes is not None else "a lei não trata da transferência"
        raise ValidationError(f"Transferência indisponível: {why}.")
    if not causes.value:
        raise ValidationError(f"A permissão é pessoal e intransferível ({causes.citation}).")
    if cause not in TRANSFER_CAUSES:
        raise ValidationError(f"Causa de transferência desconhecida: {cause}.")
    if cause not in causes.value:
        allowed = [TRANSFER_CAUSES[c] for c in causes.value]
        raise ValidationError(
            f"A lei não admite transferência por {TRANSFER_CAUSES[cause]}; só por: {', '.join(allowed)} "
            f"({causes.citation})."
        )
    return causes


def _successors_in_time(code: str, day: dt.date, event_on: dt.date | None) -> None:
    """Death or disability: the successors apply within the law's window from the event."""
    if event_on is None:
        raise ValidationError("Informe a data do falecimento ou da invalidez.")
    window = rules.entry(code, "permit.succession_window", day)
    if window is not None and window.status == "value" and day > rules.add(event_on, window.value):
        raise ValidationError(
            f"Os sucessores tinham {rules.describe(window.value)} desde {br_date(event_on)} para se "
            f"habilitar (prazo improrrogável, {window.citation}); o prazo terminou em "
            f"{br_date(rules.add(event_on, window.value))}."
        )


def _third_party_allowed(permit: Permit, day: dt.date, causes: Entry) -> None:
    """To a third party: only who already operated with a licence, and no more often than the law allows."""
    maximum = rules.entry(permit.jurisdiction_id, "permit.third_party_transfers_max", day)
    if maximum is None or maximum.status != "value":
        raise ValidationError(f"A lei não admite transferência a terceiro ({causes.citation}).")
    if not permit.existing_operator:
        raise ValidationError(
            "A transferência a terceiro só é permitida a quem já operava com alvará quando recebeu "
            f"o título (critério da alínea a, {maximum.citation})."
        )
    if permit.transfers >= int(maximum.value):
        raise ValidationError(
            f"A permissão já foi transferida {permit.transfers} vez(es): a lei permite "
            f"{maximum.value} transferência a terceiro ({maximum.citation})."
        )


def _hand_over(
    *, actor: Any, permit: Permit, to_holder: Holder, day: dt.date, cause: str, reason: str
) -> None:
    """The vehicle goes to the receiver; the transferor's permit ends and its agents leave."""
    if permit.vehicle is not None and permit.vehicle.holder_id not in (None, to_holder.pk):
        update_audited(
            actor=actor,
            instance=permit.vehicle,
            changes={"holder_id": to_holder.pk},
            reason=f"Transferência da {permit} ({TRANSFER_CAUSES[cause]}).",
        )
    transition(
        actor=actor,
        permit=permit,
        changes={"status": S.TRANSFERRED, "ends_on": day},
        reason=reason,
        action="permit.transferred",
    )
    end_agents(actor=actor, permit=permit, day=day, reason=f"Transferência da {permit}.")
    permit_ended(actor=actor, permit=permit, on=day, reason=f"Transferência da {permit}: {reason}")


def _receive(
    *,
    actor: Any,
    permit: Permit,
    to_holder: Holder,
    day: dt.date,
    receiver: Eligibility,
    reason: str,
    act: str,
) -> Permit:
    """The receiver's permit: same number, line, vehicle and term; one more transfer counted."""
    new = Permit(
        jurisdiction_id=permit.jurisdiction_id,
        number=permit.number,
        holder=to_holder,
        line=permit.line,
        vehicle=permit.vehicle,
        status=S.ACTIVE,
        kind=permit.kind,
        applied_on=day,
        granted_on=day,
        valid_until=permit.valid_until,
        term_citation=permit.term_citation,
        renewals=permit.renewals,
        transfers=permit.transfers + 1,
        transferred_from=permit,
        existing_operator=False,
        eligibility=receiver.as_dict(),
    )
    new = create_audited(actor=actor, instance=new, reason=reason, action="permit.received")
    permit_started(actor=actor, permit=new, on=day, act=act, reason=reason, what="A transferência")
    return new


# ---------------------------------------------------------------- withdrawal


@transaction.atomic
def withdraw_permit(
    *,
    actor: Any,
    permit: Permit,
    notice_on: dt.date,
    ceases_on: dt.date,
    reason: str,
    on: dt.date | None = None,
) -> Permit:
    """The holder gives up the permit (desistência), with the notice the law requires."""
    require_reason(reason)
    day = today(on)
    permit = fresh(permit)
    require(permit, "withdraw", day)
    _notice_given(permit.jurisdiction_id, day, notice_on, ceases_on)
    if notice_on > day:
        raise ValidationError("A data da comunicação não pode ser futura.")
    changes: dict[str, Any] = {"withdrawal_notice_on": notice_on, "ends_on": ceases_on}
    if ceases_on <= day:
        changes["status"] = S.WITHDRAWN
    transition(actor=actor, permit=permit, changes=changes, reason=reason, action="permit.withdrawn")
    if ceases_on <= day:
        end_agents(actor=actor, permit=permit, day=ceases_on, reason=f"Desistência da {permit}.")
        permit_ended(actor=actor, permit=permit, on=ceases_on, reason=f"Desistência da {permit}: {reason}")
    return permit


def _notice_given(code: str, day: dt.date, notice_on: dt.date, ceases_on: dt.date) -> None:
    # Where the law sets no notice period (all but Maricá, art. 13), the holder may still give up a
    # delegated service at any time (the permission is personal and precarious): no minimum notice.
    notice = rules.entry(code, "deadline.withdrawal_notice", day)
    if notice is None or notice.status != "value":
        return
    days = int(notice.value["days"])
    if (ceases_on - notice_on).days < days:
        raise ValidationError(
            f"A desistência deve ser comunicada com antecedência mínima de {days} dias da cessação "
            f"prevista ({notice.citation}): comunicada em {br_date(notice_on)}, cessação em "
            f"{br_date(ceases_on)} — cessação possível a partir de "
            f"{br_date(notice_on + dt.timedelta(days=days))}."
        )
