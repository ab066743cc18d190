"""The permit's term: renewal (prorrogação) as the law allows it, and the automatic expiry the
calendar decides, which the nightly job records."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from lotacao.billing.selectors import clearance
from lotacao.core.formats import br_date
from lotacao.councils import gates
from lotacao.councils.models import Resolution
from lotacao.law.packs import Entry
from lotacao.permits import rules
from lotacao.permits.models import Permit
from lotacao.permits.services.common import end_agents, fresh, require_reason, today, transition
from lotacao.permits.services.lifecycle import permit_ended
from lotacao.permits.states import refusal, require

S = Permit.Status


# ---------------------------------------------------------------- renewal


@transaction.atomic
def renew_permit(
    *,
    actor: Any,
    permit: Permit,
    reason: str,
    requested_on: dt.date,
    on: dt.date | None = None,
    approval_reference: str = "",
    users_heard: bool = False,
    valid_until: dt.date | None = None,
    resolution: Resolution | None = None,
) -> Permit:
    """Extend the permit's term, as the law allows (limits, approvals, request deadlines).

    Where the law submits the renewal to a council (councils.gates "permit.renew": Recife art.
    2º, "mediante aprovação do CMTT/Recife"), the council's `resolution` is required; its citation
    is the approval reference and goes into the audit record."""
    require_reason(reason)
    day = today(on)
    permit = fresh(permit)
    require(permit, "renew", day)
    assert permit.valid_until is not None
    if requested_on > day:
        raise ValidationError("A data do pedido não pode ser futura.")
    if permit.kind == Permit.Kind.PROVISIONAL:
        new_until, cite = _provisional_renewal(permit, day, valid_until)
    else:
        new_until, cite = _regular_renewal(
            permit,
            day,
            requested_on=requested_on,
            approval_reference=approval_reference,
            users_heard=users_heard,
            valid_until=valid_until,
            resolution=resolution,
        )
        approval_reference = _with_resolution(permit, day, approval_reference, resolution)
    if new_until <= permit.valid_until:
        raise ValidationError("A nova validade deve ser posterior à atual.")
    ref = f" Ato: {approval_reference.strip()}." if approval_reference.strip() else ""
    return transition(
        actor=actor,
        permit=permit,
        changes={"valid_until": new_until, "renewals": permit.renewals + 1, "term_citation": cite},
        reason=f"{reason}{ref}",
        action="permit.renewed",
    )


def _provisional_renewal(permit: Permit, day: dt.date, valid_until: dt.date | None) -> tuple[dt.date, str]:
    """A provisional permit is extended up to its maximum duration from the grant, no further."""
    maximum = rules.entry(permit.jurisdiction_id, "permit.provisional_max_term", day)
    assert maximum is not None and maximum.status == "value" and permit.granted_on is not None
    limit = rules.add(permit.granted_on, maximum.value)
    if valid_until is None or valid_until > limit:
        raise ValidationError(
            f"Permissão provisória tem duração de até {rules.describe(maximum.value)}: "
            f"no máximo até {br_date(limit)} ({maximum.citation})."
        )
    return valid_until, str(maximum.citation)


def _regular_renewal(
    permit: Permit,
    day: dt.date,
    *,
    requested_on: dt.date,
    approval_reference: str,
    users_heard: bool,
    valid_until: dt.date | None,
    resolution: Resolution | None = None,
) -> tuple[dt.date, str]:
    """The law's conditions in order: renewable at all, within the limit, approved (by the council
    where councils.gates says so), asked in time, fines and fees paid; then the new validity."""
    renewable = _renewable(permit.jurisdiction_id, day)
    _within_renewal_limit(permit, day)
    approval_reference = _with_resolution(permit, day, approval_reference, resolution)
    _renewal_approved(permit.jurisdiction_id, day, approval_reference, users_heard)
    _requested_in_time(permit, day, requested_on)
    clear = clearance(holder=permit.holder, on=day, procedure="renewal")
    if not clear.clear:
        raise ValidationError(" ".join(clear.reasons))
    return _renewed_until(permit, day, renewable, valid_until)


def _with_resolution(permit: Permit, day: dt.date, reference: str, resolution: Resolution | None) -> str:
    """The approval reference with the council's resolution cited (refused without it where the
    law has the gate "permit.renew")."""
    cited = gates.require(
        permit.jurisdiction_id,
        "permit.renew",
        day,
        resolution,
        otherwise=f"A permissão nº {permit.number} continua com a validade atual.",
    )
    if not cited or cited in reference:
        return reference
    return f"{reference.strip()} ({cited})" if reference.strip() else cited


def _renewable(code: str, day: dt.date) -> Entry:
    renewable = rules.entry(code, "permit.renewable", day)
    if renewable is None or not renewable.value:
        raise ValidationError(f"A {rules.law_name(code)} não prevê a prorrogação da permissão.")
    return renewable


def _times(n: int) -> str:
    return "uma única prorrogação" if n == 1 else f"{n} prorrogações"


def _within_renewal_limit(permit: Permit, day: dt.date) -> None:
    max_renewals = rules.entry(permit.jurisdiction_id, "permit.max_renewals", day)
    if (
        max_renewals is not None
        and max_renewals.status == "value"
        and permit.renewals >= int(max_renewals.value)
    ):
        raise ValidationError(
            f"A permissão já foi prorrogada {permit.renewals} vez(es); a lei admite "
            f"{_times(int(max_renewals.value))} "
            f"({max_renewals.citation})."
        )


def _renewal_approved(code: str, day: dt.date, approval_reference: str, users_heard: bool) -> None:
    approval = rules.entry(code, "permit.renewal_approval", day)
    if (approval is not None and approval.status == "value") and (
        not approval_reference.strip() or not users_heard
    ):
        raise ValidationError(
            f"A prorrogação depende de aprovação do {approval.value}, com base na avaliação de "
            f"desempenho operacional, ouvidos os usuários ({approval.citation}): informe o ato de "
            "aprovação e confirme a consulta aos usuários."
        )


def _requested_in_time(permit: Permit, day: dt.date, requested_on: dt.date) -> None:
    assert permit.valid_until is not None
    deadline = rules.entry(permit.jurisdiction_id, "permit.renewal_request_deadline", day)
    if deadline is None or deadline.status != "value":
        return
    last_day = rules.subtract(permit.valid_until, deadline.value)
    if requested_on > last_day:
        raise ValidationError(
            f"O pedido justificado de prorrogação devia ser feito até {br_date(last_day)}, "
            f"{rules.describe(deadline.value)} antes do vencimento em {br_date(permit.valid_until)} "
            f"({deadline.citation}); pedido em {br_date(requested_on)}."
        )


def _renewed_until(
    permit: Permit, day: dt.date, renewable: Entry, valid_until: dt.date | None
) -> tuple[dt.date, str]:
    """One more term where the law fixes it; else the validity the agency's act gives."""
    assert permit.valid_until is not None
    term = rules.entry(permit.jurisdiction_id, "permit.term", day)
    assert term is not None
    if term.status == "value":
        return rules.add(permit.valid_until, term.value), f"{term.citation}; {renewable.citation}"
    if valid_until is None:
        raise ValidationError(
            f"A lei não fixa o prazo da prorrogação ({renewable.citation}): informe a nova validade."
        )
    return valid_until, str(renewable.citation)


# ---------------------------------------------------------------- expiry


@transaction.atomic
def expire_permit(*, actor: Any, permit: Permit, on: dt.date | None = None) -> Permit | None:
    """Record what the calendar already decided: a term that ended, or a withdrawal that took effect."""
    day = today(on)
    permit = fresh(permit)
    status = permit.effective_status(day)
    if status == permit.status or refusal(permit, "expire", day) is not None:
        return None  # nothing the calendar decided is left to record
    if status == S.EXPIRED:
        reason = f"Prazo da permissão encerrado em {br_date(permit.valid_until)} ({permit.term_citation})."
        changes: dict[str, Any] = {"status": S.EXPIRED, "ends_on": permit.valid_until}
        action = "permit.expired"
    else:
        reason = f"Desistência efetivada em {br_date(permit.ends_on)}."
        changes = {"status": S.WITHDRAWN}
        action = "permit.withdrawn"
    transition(actor=actor, permit=permit, changes=changes, reason=reason, action=action)
    end_agents(actor=actor, permit=permit, day=permit.ends_on or day, reason=reason)
    permit_ended(actor=actor, permit=permit, on=permit.ends_on or day, reason=reason)
    return permit


@transaction.atomic
def end_provisional_permit(*, actor: Any, permit: Permit, on: dt.date, reason: str, citation: str) -> Permit:
    """Cancel a provisional permit on `on` because the tender of its line was concluded (Maricá
    art. 76, § 1º): its term ends that day, its agents leave and its place on the line ends."""
    require_reason(reason)
    permit = fresh(permit)
    require(permit, "end_provisional", on)
    if permit.kind != Permit.Kind.PROVISIONAL:
        raise ValidationError(
            f"A {permit} não é provisória: só a permissão provisória se encerra com a licitação."
        )
    changes: dict[str, Any] = {
        "status": S.EXPIRED,
        "valid_until": on,
        "ends_on": on,
        "term_citation": citation[:300],
    }
    transition(actor=actor, permit=permit, changes=changes, reason=reason, action="permit.provisional_ended")
    end_agents(actor=actor, permit=permit, day=on, reason=reason)
    permit_ended(actor=actor, permit=permit, on=on, reason=reason)
    return permit


@transaction.atomic
def extinguish_permit(*, actor: Any, permit: Permit, cause: str, reason: str, on: dt.date) -> Permit:
    """The permit ends on `on` because its delegation was extinguished by a cause of the law that
    is no penalty (the term, encampação, rescisão, the company's bankruptcy or end, the holder's
    death: Esteio art. 46): its agents leave and its place on the line ends, the cause (with its
    article) is kept on the permit, and — unlike a cassação — no re-entry ban is recorded."""
    require_reason(reason)
    cause = (cause or "").strip()
    if not cause:
        raise ValidationError("Informe a causa da extinção, com o seu fundamento.")
    permit = fresh(permit)
    require(permit, "extinguish", on)
    changes: dict[str, Any] = {
        "status": S.EXTINCT,
        "ends_on": on,
        "suspended_until": None,
        "extinction_cause": cause[:300],
    }
    transition(actor=actor, permit=permit, changes=changes, reason=reason, action="permit.extinct")
    end_agents(actor=actor, permit=permit, day=on, reason=reason)
    permit_ended(actor=actor, permit=permit, on=on, reason=reason)
    return permit


def expire_due(*, on: dt.date | None = None, actor: Any = None) -> int:
    """The nightly job: records every automatic expiry (and effective withdrawal) due on `on`."""
    day = today(on)
    due = Permit.unscoped.filter(status__in=Permit.LIVE).filter(
        Q(valid_until__lt=day) | Q(withdrawal_notice_on__isnull=False, ends_on__lte=day)
    )
    count = 0
    for pk in due.values_list("pk", flat=True).iterator():
        if expire_permit(actor=actor, permit=Permit(pk=pk), on=day) is not None:
            count += 1
    return count
