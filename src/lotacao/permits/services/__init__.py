"""Write services of the permits app: each transition of the permit's state machine.

Keyword-only, atomic, validated (Portuguese messages naming the article), audited. What differs
per law is read from the pack (lotacao.permits.rules); nothing here knows a jurisdiction's name.

Each transition starts with `require(permit, action, on)`: the statuses it may start from are
declared once, in `lotacao.permits.states`, which the screens read too.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, update_audited
from lotacao.billing.selectors import clearance
from lotacao.core.formats import br_date
from lotacao.core.law import evaluate_case
from lotacao.core.models import Jurisdiction
from lotacao.permits import rules
from lotacao.permits.eligibility import (
    Eligibility,
    _documents_module,
    active_bans,
    ban_reason,
    check_eligibility,
)
from lotacao.permits.models import Ban, Permit, PermitAgent, PermitCounter
from lotacao.permits.states import refusal, require
from lotacao.registry.models import Company, Holder, Line, Person, Vehicle

S = Permit.Status
TRANSFER_CAUSES = {
    "death": "falecimento do titular",
    "disability": "invalidez ou incapacidade do titular",
    "third_party": "transferência a terceiro",
    "consent": "transferência a terceiro com anuência do Poder Público",
}


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _require_reason(reason: str) -> None:
    if not reason or not reason.strip():
        raise ValidationError("Informe o motivo.")


def _law_has_permits(code: str, on: dt.date) -> None:
    if rules.entry(code, "permit.term", on) is None:
        raise ValidationError(f"A {rules.law_name(code)} não regula permissões deste serviço.")


def _fresh(permit: Permit) -> Permit:
    """Re-read and lock the permit row (the caller's copy may be stale)."""
    return Permit.unscoped.select_for_update().get(pk=permit.pk)


def _times(n: int) -> str:
    return "uma única prorrogação" if n == 1 else f"{n} prorrogações"


def _transition(*, actor: Any, permit: Permit, changes: dict[str, Any], reason: str, action: str) -> Permit:
    return update_audited(actor=actor, instance=permit, changes=changes, reason=reason, action=action)


# ---------------------------------------------------------------- application and eligibility


@transaction.atomic
def apply_for_permit(
    *,
    actor: Any,
    holder: Holder,
    reason: str,
    applied_on: dt.date | None = None,
    kind: str = Permit.Kind.REGULAR,
    line: Line | None = None,
    vehicle: Vehicle | None = None,
    existing_operator: bool = False,
    association_member: bool = False,
    service_months: int = 0,
    infraction_count: int = 0,
    residence_since: dt.date | None = None,
    other_service: str = "",
) -> Permit:
    """File an application (requerimento) for a permit."""
    _require_reason(reason)
    day = _today(applied_on)
    code = holder.jurisdiction_id
    _law_has_permits(code, day)
    if kind not in Permit.Kind.values:
        raise ValidationError(f"Espécie de permissão desconhecida: {kind}.")
    if kind == Permit.Kind.PROVISIONAL and rules.entry(code, "permit.provisional_max_term", day) is None:
        raise ValidationError(f"A {rules.law_name(code)} não prevê permissão provisória.")
    for obj, label in ((line, "linha"), (vehicle, "veículo")):
        if obj is not None and obj.jurisdiction_id != code:
            raise ValidationError(f"A {label} pertence a outra jurisdição.")
    permit = Permit(
        jurisdiction_id=code,
        holder=holder,
        kind=kind,
        line=line,
        vehicle=vehicle,
        applied_on=day,
        existing_operator=existing_operator,
        association_member=association_member,
        service_months=service_months,
        infraction_count=infraction_count,
        residence_since=residence_since,
        other_service=other_service.strip(),
        status=S.APPLICATION,
    )
    return create_audited(actor=actor, instance=permit, reason=reason, action="permit.applied")


@transaction.atomic
def assess_application(*, actor: Any, permit: Permit, reason: str, on: dt.date | None = None) -> Eligibility:
    """Check the application's eligibility; it becomes eligible or ineligible (with every reason)."""
    day = _today(on)
    permit = _fresh(permit)
    require(permit, "assess", day)
    result = check_eligibility(holder=permit.holder, on=day, application=permit)
    _transition(
        actor=actor,
        permit=permit,
        changes={"status": S.ELIGIBLE if result.eligible else S.INELIGIBLE, "eligibility": result.as_dict()},
        reason=reason if result.eligible else f"{reason} — {result.summary()}",
        action="permit.assessed",
    )
    return result


# ---------------------------------------------------------------- grant (quotas, atomically)


def _counter(code: str) -> PermitCounter:
    """The jurisdiction's counter row, locked until the end of the transaction."""
    try:
        with transaction.atomic():
            PermitCounter.unscoped.get_or_create(jurisdiction_id=code)
    except IntegrityError:  # a concurrent grant created it first
        pass
    return PermitCounter.unscoped.select_for_update().get(jurisdiction_id=code)


def _check_quotas(*, permit: Permit, vehicle: Vehicle, line: Line, day: dt.date) -> list[str]:
    """Refuse when a quota is reached; return the citations of the quotas applied."""
    code = permit.jurisdiction_id
    citations: list[str] = []
    live = (
        Permit.unscoped.filter(jurisdiction_id=code, status__in=Permit.LIVE)
        .exclude(valid_until__lt=day)
        .exclude(pk=permit.pk)
    )
    if vehicle.deregistered_on is not None and vehicle.deregistered_on <= day:
        raise ValidationError(
            f"O veículo {vehicle.plate_display} foi baixado do serviço em {br_date(vehicle.deregistered_on)}."
        )
    if vehicle.holder_id is not None and vehicle.holder_id != permit.holder_id:
        raise ValidationError(f"O veículo {vehicle.plate_display} está cadastrado para outro permissionário.")
    if live.filter(vehicle=vehicle).exists():
        raise ValidationError(
            f"O veículo {vehicle.plate_display} já está vinculado a outra permissão vigente."
        )
    one_line = rules.entry(code, "permit.one_line_per_holder", day)
    if one_line is not None and one_line.value:
        other = live.filter(holder_id=permit.holder_id).exclude(line=line).select_related("line").first()
        if other is not None and other.line is not None:
            raise ValidationError(
                f"O permissionário já opera a linha {other.line.code}: cada permissionário opera "
                f"apenas uma linha ({one_line.citation})."
            )
        citations.append(str(one_line.citation))
    per_permit = rules.entry(code, "quota.max_vehicles_per_permit", day)
    if per_permit is not None and per_permit.status == "value":
        citations.append(str(per_permit.citation))  # one vehicle per permit: the model holds one
    case: dict[str, Any] = {"jurisdiction": code, "kind": "quota", "date": day.isoformat()}
    per_block = rules.entry(code, "quota.vehicles_per_block", day)
    if per_block is not None and per_block.status == "value":
        population = Jurisdiction.objects.values_list("population", flat=True).get(pk=code)
        if not population:
            raise ValidationError(
                "Informe a população do município (IBGE) para calcular a cota de veículos "
                f"({per_block.citation})."
            )
        case["population"] = population
    per_holder = rules.entry(code, "quota.max_permits_per_holder", day)
    if per_holder is not None:
        case["permits"] = live.filter(holder_id=permit.holder_id).count() + 1
    if len(case) > 3:
        outcome = evaluate_case(case)
        if "error" in outcome:
            raise ValidationError(outcome["error"].get("message", "Erro ao calcular a cota."))
        citations += [c for c in outcome.get("citations", []) if c not in citations]
        for violation in outcome.get("violations", []):
            raise ValidationError(f"Cota atingida: {violation['message']} ({violation['citation']}).")
        if per_holder is not None and "quota.max_permits_per_holder" in outcome.get("missing_parameters", []):
            raise ValidationError(
                "O limite de permissões por permissionário não está definido nesta data "
                f"({per_holder.citation}); "
                "o órgão gestor deve informá-lo."
            )
        maximum = outcome.get("max_vehicles")
        if "population" in case:
            used = live.exclude(vehicle__isnull=True).count()
            if maximum is not None and used >= maximum:
                raise ValidationError(
                    f"Cota de veículos atingida: {used} de no máximo {maximum} para "
                    f"{case['population']} habitantes ({per_block.citation if per_block else ''})."
                )
    return citations


def _term(*, permit: Permit, day: dt.date, valid_until: dt.date | None) -> tuple[dt.date, str]:
    code = permit.jurisdiction_id
    if permit.kind == Permit.Kind.PROVISIONAL:
        maximum = rules.entry(code, "permit.provisional_max_term", day)
        assert maximum is not None and maximum.status == "value"
        limit = rules.add(day, maximum.value)
        until = valid_until or limit
        if until > limit:
            raise ValidationError(
                f"Permissão provisória de no máximo {rules.describe(maximum.value)}: "
                f"validade até {br_date(limit)} ({maximum.citation})."
            )
        return until, str(maximum.citation)
    term = rules.entry(code, "permit.term", day)
    assert term is not None
    if term.status == "value":
        computed = rules.add(day, term.value) - dt.timedelta(days=1)
        if valid_until is not None and valid_until > computed:
            raise ValidationError(
                f"O prazo da permissão é de {rules.describe(term.value)}: validade até {br_date(computed)} "
                f"({term.citation})."
            )
        return valid_until or computed, str(term.citation)
    if valid_until is None:
        raise ValidationError(
            f"A lei não fixa o prazo da permissão ({term.citation}): informe a validade fixada no "
            "edital ou no ato de outorga."
        )
    return valid_until, f"{term.citation} (prazo do ato de outorga)"


@transaction.atomic
def grant_permit(
    *,
    actor: Any,
    permit: Permit,
    line: Line,
    vehicle: Vehicle,
    reason: str,
    on: dt.date | None = None,
    number: str = "",
    valid_until: dt.date | None = None,
) -> Permit:
    """Grant the permit: number, line, vehicle, term; quotas enforced under the jurisdiction's lock."""
    _require_reason(reason)
    day = _today(on)
    code = permit.jurisdiction_id
    counter = _counter(code)  # serializes grants of this jurisdiction: quotas cannot be overrun
    permit = _fresh(permit)
    require(permit, "grant", day)
    for obj, label in ((line, "linha"), (vehicle, "veículo")):
        if obj.jurisdiction_id != code:
            raise ValidationError(f"A {label} pertence a outra jurisdição.")
    if not line.active:
        raise ValidationError(f"A linha {line.code} não está ativa.")
    result = check_eligibility(holder=permit.holder, on=day, application=permit)
    if not result.eligible:
        permit.eligibility = result.as_dict()
        raise ValidationError("Requerente inapto: " + result.summary())
    citations = _check_quotas(permit=permit, vehicle=vehicle, line=line, day=day)
    until, term_citation = _term(permit=permit, day=day, valid_until=valid_until)
    number = number.strip()
    if not number:
        counter.last_number += 1
        number = f"{counter.last_number:04d}/{day.year}"
        while Permit.unscoped.filter(jurisdiction_id=code, number=number).exists():
            counter.last_number += 1
            number = f"{counter.last_number:04d}/{day.year}"
        counter.save(update_fields=["last_number"])
    elif Permit.unscoped.filter(jurisdiction_id=code, number=number).exclude(status=S.TRANSFERRED).exists():
        raise ValidationError(f"Já existe a permissão nº {number}.")
    if vehicle.holder_id is None:
        update_audited(
            actor=actor,
            instance=vehicle,
            changes={"holder_id": permit.holder_id},
            reason=f"Veículo vinculado à permissão nº {number}.",
        )
    _transition(
        actor=actor,
        permit=permit,
        changes={
            "status": S.ACTIVE,
            "number": number,
            "line": line,
            "vehicle": vehicle,
            "granted_on": day,
            "valid_until": until,
            "term_citation": term_citation,
            "eligibility": {**result.as_dict(), "quota_citations": citations},
        },
        reason=reason,
        action="permit.granted",
    )
    return permit


# ---------------------------------------------------------------- suspension, revocation, withdrawal


@transaction.atomic
def suspend_permit(
    *, actor: Any, permit: Permit, until: dt.date, reason: str, on: dt.date | None = None
) -> Permit:
    _require_reason(reason)
    day = _today(on)
    permit = _fresh(permit)
    require(permit, "suspend", day)
    if until <= day:
        raise ValidationError("A suspensão precisa de uma data final posterior a hoje.")
    if permit.valid_until is not None and until > permit.valid_until:
        raise ValidationError(
            f"A suspensão não pode passar do vencimento da permissão ({br_date(permit.valid_until)})."
        )
    return _transition(
        actor=actor,
        permit=permit,
        changes={"status": S.SUSPENDED, "suspended_until": until},
        reason=reason,
        action="permit.suspended",
    )


@transaction.atomic
def reinstate_permit(*, actor: Any, permit: Permit, reason: str, on: dt.date | None = None) -> Permit:
    _require_reason(reason)
    day = _today(on)
    permit = _fresh(permit)
    require(permit, "reinstate", day)
    if permit.suspended_until is not None and permit.suspended_until >= day:
        raise ValidationError(
            f"A suspensão vai até {br_date(permit.suspended_until)}: reative a partir do dia seguinte."
        )
    return _transition(
        actor=actor,
        permit=permit,
        changes={"status": S.ACTIVE, "suspended_until": None},
        reason=reason,
        action="permit.reinstated",
    )


def _end_agents(*, actor: Any, permit: Permit, day: dt.date, reason: str) -> None:
    for agent in PermitAgent.unscoped.filter(permit=permit, ends_on__isnull=True):
        update_audited(
            actor=actor, instance=agent, changes={"ends_on": day}, reason=reason, action="agent.ended"
        )
    for agent in PermitAgent.unscoped.filter(permit=permit, ends_on__gt=day):
        update_audited(
            actor=actor, instance=agent, changes={"ends_on": day}, reason=reason, action="agent.ended"
        )


def _ban(
    *,
    actor: Any,
    code: str,
    parameter: str,
    cause: str,
    day: dt.date,
    reason: str,
    person: Person | None = None,
    company: Company | None = None,
    permit: Permit | None = None,
) -> Ban | None:
    duration = rules.entry(code, parameter, day)
    if duration is None or duration.status != "value":
        return None
    ban = Ban(
        jurisdiction_id=code,
        person=person,
        company=company,
        permit=permit,
        cause=cause,
        starts_on=day,
        ends_on=rules.add(day, duration.value),
        citation=str(duration.citation),
    )
    return create_audited(actor=actor, instance=ban, reason=reason, action="ban.recorded")


@transaction.atomic
def revoke_permit(*, actor: Any, permit: Permit, reason: str, on: dt.date | None = None) -> Permit:
    """Revoke (cassação): the permit ends, its agents leave, and the holder's re-entry ban is recorded."""
    _require_reason(reason)
    day = _today(on)
    permit = _fresh(permit)
    require(permit, "revoke", day)
    _transition(
        actor=actor,
        permit=permit,
        changes={"status": S.REVOKED, "ends_on": day, "suspended_until": None},
        reason=reason,
        action="permit.revoked",
    )
    _end_agents(actor=actor, permit=permit, day=day, reason=f"Cassação da {permit}.")
    holder = permit.holder
    _ban(
        actor=actor,
        code=permit.jurisdiction_id,
        parameter="permit.ban_after_revocation",
        cause=Ban.Cause.REVOCATION,
        day=day,
        reason=f"Cassação da {permit}: {reason}",
        person=holder.person,
        company=holder.company,
        permit=permit,
    )
    return permit


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
    _require_reason(reason)
    day = _today(on)
    code = permit.jurisdiction_id
    permit = _fresh(permit)
    require(permit, "withdraw", day)
    # Where the law sets no notice period (all but Maricá, art. 13), the holder may still give up a
    # delegated service at any time (the permission is personal and precarious): no minimum notice.
    notice = rules.entry(code, "deadline.withdrawal_notice", day)
    if notice is not None and notice.status == "value":
        days = int(notice.value["days"])
        if (ceases_on - notice_on).days < days:
            raise ValidationError(
                f"A desistência deve ser comunicada com antecedência mínima de {days} dias da cessação "
                f"prevista ({notice.citation}): comunicada em {br_date(notice_on)}, cessação em "
                f"{br_date(ceases_on)} — cessação possível a partir de "
                f"{br_date(notice_on + dt.timedelta(days=days))}."
            )
    if notice_on > day:
        raise ValidationError("A data da comunicação não pode ser futura.")
    changes: dict[str, Any] = {"withdrawal_notice_on": notice_on, "ends_on": ceases_on}
    if ceases_on <= day:
        changes["status"] = S.WITHDRAWN
    _transition(actor=actor, permit=permit, changes=changes, reason=reason, action="permit.withdrawn")
    if ceases_on <= day:
        _end_agents(actor=actor, permit=permit, day=ceases_on, reason=f"Desistência da {permit}.")
    return permit


@transaction.atomic
def expire_permit(*, actor: Any, permit: Permit, on: dt.date | None = None) -> Permit | None:
    """Record what the calendar already decided: a term that ended, or a withdrawal that took effect."""
    day = _today(on)
    permit = _fresh(permit)
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
    _transition(actor=actor, permit=permit, changes=changes, reason=reason, action=action)
    _end_agents(actor=actor, permit=permit, day=permit.ends_on or day, reason=reason)
    return permit


def expire_due(*, on: dt.date | None = None, actor: Any = None) -> int:
    """The nightly job: records every automatic expiry (and effective withdrawal) due on `on`."""
    day = _today(on)
    from django.db.models import Q

    due = Permit.unscoped.filter(status__in=Permit.LIVE).filter(
        Q(valid_until__lt=day) | Q(withdrawal_notice_on__isnull=False, ends_on__lte=day)
    )
    count = 0
    for pk in due.values_list("pk", flat=True).iterator():
        if expire_permit(actor=actor, permit=Permit(pk=pk), on=day) is not None:
            count += 1
    return count


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
) -> Permit:
    """Extend the permit's term, as the law allows (limits, approvals, request deadlines)."""
    _require_reason(reason)
    day = _today(on)
    code = permit.jurisdiction_id
    permit = _fresh(permit)
    require(permit, "renew", day)
    assert permit.valid_until is not None
    if requested_on > day:
        raise ValidationError("A data do pedido não pode ser futura.")
    if permit.kind == Permit.Kind.PROVISIONAL:
        maximum = rules.entry(code, "permit.provisional_max_term", day)
        assert maximum is not None and maximum.status == "value" and permit.granted_on is not None
        limit = rules.add(permit.granted_on, maximum.value)
        if valid_until is None or valid_until > limit:
            raise ValidationError(
                f"Permissão provisória tem duração de até {rules.describe(maximum.value)}: "
                f"no máximo até {br_date(limit)} ({maximum.citation})."
            )
        new_until, cite = valid_until, str(maximum.citation)
    else:
        renewable = rules.entry(code, "permit.renewable", day)
        if renewable is None or not renewable.value:
            raise ValidationError(f"A {rules.law_name(code)} não prevê a prorrogação da permissão.")
        max_renewals = rules.entry(code, "permit.max_renewals", day)
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
        approval = rules.entry(code, "permit.renewal_approval", day)
        if (approval is not None and approval.status == "value") and (
            not approval_reference.strip() or not users_heard
        ):
            raise ValidationError(
                f"A prorrogação depende de aprovação do {approval.value}, com base na avaliação de "
                f"desempenho operacional, ouvidos os usuários ({approval.citation}): informe o ato de "
                "aprovação e confirme a consulta aos usuários."
            )
        deadline = rules.entry(code, "permit.renewal_request_deadline", day)
        if deadline is not None and deadline.status == "value":
            last_day = rules.subtract(permit.valid_until, deadline.value)
            if requested_on > last_day:
                raise ValidationError(
                    f"O pedido justificado de prorrogação devia ser feito até {br_date(last_day)}, "
                    f"{rules.describe(deadline.value)} antes do vencimento em {br_date(permit.valid_until)} "
                    f"({deadline.citation}); pedido em {br_date(requested_on)}."
                )
        clear = clearance(holder=permit.holder, on=day, procedure="renewal")
        if not clear.clear:
            raise ValidationError(" ".join(clear.reasons))
        term = rules.entry(code, "permit.term", day)
        assert term is not None
        if term.status == "value":
            new_until = rules.add(permit.valid_until, term.value)
            cite = f"{term.citation}; {renewable.citation}"
        elif valid_until is None:
            raise ValidationError(
                f"A lei não fixa o prazo da prorrogação ({renewable.citation}): informe a nova validade."
            )
        else:
            new_until, cite = valid_until, str(renewable.citation)
    if new_until <= permit.valid_until:
        raise ValidationError("A nova validade deve ser posterior à atual.")
    ref = f" Ato: {approval_reference.strip()}." if approval_reference.strip() else ""
    return _transition(
        actor=actor,
        permit=permit,
        changes={"valid_until": new_until, "renewals": permit.renewals + 1, "term_citation": cite},
        reason=f"{reason}{ref}",
        action="permit.renewed",
    )


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
    _require_reason(reason)
    day = _today(on)
    code = permit.jurisdiction_id
    permit = _fresh(permit)
    require(permit, "transfer", day)
    causes = rules.entry(code, "permit.transfer_causes", day)
    if causes is None or causes.status != "value":
        why = causes.reason if causes is not None else "a lei não trata da transferência"
        raise ValidationError(f"Transferência indisponível: {why}.")
    if not causes.value:
        raise ValidationError(f"A permissão é pessoal e intransferível ({causes.citation}).")
    if cause not in TRANSFER_CAUSES:
        raise ValidationError(f"Causa de transferência desconhecida: {cause}.")
    allowed = [TRANSFER_CAUSES[c] for c in causes.value]
    if cause not in causes.value:
        raise ValidationError(
            f"A lei não admite transferência por {TRANSFER_CAUSES[cause]}; só por: {', '.join(allowed)} "
            f"({causes.citation})."
        )
    if not consent_reference.strip():
        raise ValidationError(
            f"A transferência depende da anuência do órgão gestor: informe o ato ({causes.citation})."
        )
    if to_holder.pk == permit.holder_id or to_holder.jurisdiction_id != code:
        raise ValidationError("Informe outro permissionário, da mesma jurisdição.")
    if cause in ("death", "disability"):
        if event_on is None:
            raise ValidationError("Informe a data do falecimento ou da invalidez.")
        window = rules.entry(code, "permit.succession_window", day)
        if window is not None and window.status == "value" and day > rules.add(event_on, window.value):
            raise ValidationError(
                f"Os sucessores tinham {rules.describe(window.value)} desde {br_date(event_on)} para se "
                f"habilitar (prazo improrrogável, {window.citation}); o prazo terminou em "
                f"{br_date(rules.add(event_on, window.value))}."
            )
    if cause == "third_party":
        maximum = rules.entry(code, "permit.third_party_transfers_max", day)
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
    if cause in ("third_party", "consent"):
        clear = clearance(holder=permit.holder, on=day, procedure="transfer")
        if not clear.clear:
            raise ValidationError(" ".join(clear.reasons))
    receiver = check_eligibility(holder=to_holder, on=day, procedure="transfer")
    if not receiver.eligible:
        raise ValidationError("O novo titular não preenche os requisitos: " + receiver.summary())
    if permit.vehicle is not None and permit.vehicle.holder_id not in (None, to_holder.pk):
        update_audited(
            actor=actor,
            instance=permit.vehicle,
            changes={"holder_id": to_holder.pk},
            reason=f"Transferência da {permit} ({TRANSFER_CAUSES[cause]}).",
        )
    _transition(
        actor=actor,
        permit=permit,
        changes={"status": S.TRANSFERRED, "ends_on": day},
        reason=(
            f"{reason} — {TRANSFER_CAUSES[cause]}; anuência: {consent_reference.strip()} ({causes.citation})."
        ),
        action="permit.transferred",
    )
    _end_agents(actor=actor, permit=permit, day=day, reason=f"Transferência da {permit}.")
    new = Permit(
        jurisdiction_id=code,
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
    return create_audited(
        actor=actor,
        instance=new,
        reason=f"{reason} — recebida por transferência ({TRANSFER_CAUSES[cause]}; {causes.citation}).",
        action="permit.received",
    )


# ---------------------------------------------------------------- agents and bans


@transaction.atomic
def add_agent(
    *, actor: Any, permit: Permit, person: Person, role: str, reason: str, starts_on: dt.date | None = None
) -> PermitAgent:
    """Register an agent (condutor auxiliar, eventual, cobrador) within the limits the law sets."""
    _require_reason(reason)
    day = _today(starts_on)
    code = permit.jurisdiction_id
    permit = _fresh(permit)
    require(permit, "agent", day)
    if role not in PermitAgent.Role.values:
        raise ValidationError(f"Função desconhecida: {role}.")
    label = PermitAgent.Role(role).label.lower()
    if person.jurisdiction_id != code:
        raise ValidationError("A pessoa pertence a outra jurisdição.")
    if permit.holder.person_id == person.pk:
        raise ValidationError("O próprio permissionário não é preposto da sua permissão.")
    limits = rules.entry(code, "agents.limits", day)
    if limits is None:
        raise ValidationError(f"A {rules.law_name(code)} não prevê prepostos do permissionário.")
    if limits.status != "value":
        raise ValidationError(f"Número de prepostos não definido: {limits.reason} ({limits.citation}).")
    limit = int(limits.value.get(role, 0))
    if limit == 0:
        raise ValidationError(f"A lei não prevê {label} nesta permissão ({limits.citation}).")
    current = [a for a in PermitAgent.unscoped.filter(permit=permit, role=role) if a.is_current(day)]
    if any(a.person_id == person.pk for a in current):
        raise ValidationError(f"{person} já é {label} desta permissão.")
    if len(current) >= limit:
        raise ValidationError(f"Limite de {limit} {label}(es) por permissão já atingido ({limits.citation}).")
    min_age = rules.entry(code, "agents.min_age", day)
    if min_age is not None and min_age.status == "value":
        if person.birth_date is None:
            raise ValidationError("Informe a data de nascimento do preposto.")
        if rules.age_on(person.birth_date, day) < int(min_age.value):
            raise ValidationError(f"O {label} deve ter ao menos {min_age.value} anos ({min_age.citation}).")
    for ban in active_bans(person=person, on=day):
        reason_ = ban_reason(ban, "CPF")
        raise ValidationError(f"{reason_.message}, {reason_.citation}.")
    suspended = PermitAgent.unscoped.filter(
        jurisdiction_id=code, person=person, suspended_until__gte=day
    ).order_by("-suspended_until")
    if suspended.exists():
        until = suspended[0].suspended_until
        assert until is not None
        raise ValidationError(
            f"O cadastro de {person} como preposto está suspenso até {br_date(until)} por decisão definitiva."
        )
    check = _documents_module().document_check(jurisdiction_code=code, role=role, person=person, on=day)
    if not check.complete:
        detail = " ".join(getattr(check, "explanation", []) or []) or "documentos incompletos"
        raise ValidationError(f"Cadastro do {label} incompleto: {detail}")
    clear = clearance(holder=permit.holder, on=day, procedure="agent")
    if not clear.clear:
        raise ValidationError(" ".join(clear.reasons))
    agent = PermitAgent(jurisdiction_id=code, permit=permit, person=person, role=role, starts_on=day)
    return create_audited(actor=actor, instance=agent, reason=reason, action="agent.added")


@transaction.atomic
def end_agent(*, actor: Any, agent: PermitAgent, reason: str, ends_on: dt.date | None = None) -> PermitAgent:
    _require_reason(reason)
    day = _today(ends_on)
    agent = PermitAgent.unscoped.select_for_update().get(pk=agent.pk)
    if agent.ends_on is not None and agent.ends_on <= day:
        raise ValidationError("O vínculo deste preposto já terminou.")
    if day < agent.starts_on:
        raise ValidationError("O fim do vínculo não pode ser anterior ao início.")
    return update_audited(
        actor=actor, instance=agent, changes={"ends_on": day}, reason=reason, action="agent.ended"
    )


@transaction.atomic
def suspend_agent(
    *, actor: Any, agent: PermitAgent, until: dt.date, reason: str, on: dt.date | None = None
) -> PermitAgent:
    """Suspend an agent's registration until a date (a final decision's penalty)."""
    _require_reason(reason)
    day = _today(on)
    agent = PermitAgent.unscoped.select_for_update().get(pk=agent.pk)
    if not agent.is_current(day):
        raise ValidationError("O vínculo deste preposto não está em vigor nesta data.")
    if until < day:
        raise ValidationError("A suspensão precisa terminar depois do seu início.")
    if agent.suspended_until is not None and agent.suspended_until >= until:
        raise ValidationError(f"O cadastro já está suspenso até {br_date(agent.suspended_until)}.")
    return update_audited(
        actor=actor,
        instance=agent,
        changes={"suspended_until": until},
        reason=reason,
        action="agent.suspended",
    )


@transaction.atomic
def revoke_agent(*, actor: Any, agent: PermitAgent, reason: str, on: dt.date | None = None) -> Ban | None:
    """Revoke an agent's registration (cassação do cadastro); records the ban where the law sets one."""
    day = _today(on)
    agent = end_agent(actor=actor, agent=agent, reason=f"Cassação do cadastro: {reason}", ends_on=day)
    return _ban(
        actor=actor,
        code=agent.jurisdiction_id,
        parameter="agents.ban_after_revocation",
        cause=Ban.Cause.AGENT_REVOCATION,
        day=day,
        reason=f"Cassação do cadastro de {agent}: {reason}",
        person=agent.person,
        permit=agent.permit,
    )


@transaction.atomic
def record_lost_service_ban(
    *, actor: Any, person: Person | None = None, company: Company | None = None, lost_on: dt.date, reason: str
) -> Ban:
    """Record that a person or company lost a service of the municipal system (entry ban, where the law
    has one)."""
    _require_reason(reason)
    party = person or company
    if party is None:
        raise ValidationError("Informe a pessoa ou a empresa.")
    ban = _ban(
        actor=actor,
        code=party.jurisdiction_id,
        parameter="permit.ban_after_lost_service",
        cause=Ban.Cause.LOST_SERVICE,
        day=lost_on,
        reason=reason,
        person=person,
        company=company,
    )
    if ban is None:
        raise ValidationError(f"A {rules.law_name(party.jurisdiction_id)} não prevê esse impedimento.")
    return ban


__all__ = [
    "add_agent",
    "apply_for_permit",
    "assess_application",
    "check_eligibility",
    "end_agent",
    "expire_due",
    "expire_permit",
    "grant_permit",
    "record",
    "record_lost_service_ban",
    "reinstate_permit",
    "renew_permit",
    "revoke_agent",
    "revoke_permit",
    "suspend_permit",
    "transfer_permit",
    "withdraw_permit",
]


# ---------------------------------------------------------------- permits granted before the system


@transaction.atomic
def import_existing_permit(
    *,
    actor: Any,
    holder: Holder,
    line: Line,
    vehicle: Vehicle,
    number: str,
    granted_on: dt.date,
    valid_until: dt.date,
    reason: str,
    kind: str = Permit.Kind.REGULAR,
    existing_operator: bool = False,
) -> Permit:
    """Record a permit the agency granted before this system (its current register): no eligibility
    check — the grant already happened — but the register's own invariants (number, vehicle) hold."""
    _require_reason(reason)
    code = holder.jurisdiction_id
    _law_has_permits(code, granted_on)
    _counter(code)
    if valid_until <= granted_on:
        raise ValidationError("A validade deve ser posterior à outorga.")
    if Permit.unscoped.filter(jurisdiction_id=code, number=number).exclude(status=S.TRANSFERRED).exists():
        raise ValidationError(f"Já existe a permissão nº {number}.")
    for obj, label in ((line, "linha"), (vehicle, "veículo")):
        if obj.jurisdiction_id != code:
            raise ValidationError(f"A {label} pertence a outra jurisdição.")
    if Permit.unscoped.filter(vehicle=vehicle, status__in=Permit.LIVE).exists():
        raise ValidationError(
            f"O veículo {vehicle.plate_display} já está vinculado a outra permissão vigente."
        )
    permit = Permit(
        jurisdiction_id=code,
        number=number,
        holder=holder,
        line=line,
        vehicle=vehicle,
        status=S.ACTIVE,
        kind=kind,
        applied_on=granted_on,
        granted_on=granted_on,
        valid_until=valid_until,
        term_citation=rules.cite(code, "permit.term", granted_on),
        existing_operator=existing_operator,
    )
    return create_audited(actor=actor, instance=permit, reason=reason, action="permit.imported")


@transaction.atomic
def import_existing_agent(
    *, actor: Any, permit: Permit, person: Person, role: str, starts_on: dt.date, reason: str
) -> PermitAgent:
    """Record an agent registered before this system (limits, age and bans still apply)."""
    _require_reason(reason)
    code = permit.jurisdiction_id
    limits = rules.value(code, "agents.limits", starts_on) or {}
    current = [a for a in PermitAgent.unscoped.filter(permit=permit, role=role) if a.is_current(starts_on)]
    if len(current) >= int(limits.get(role, 0)):
        raise ValidationError(
            f"A lei não admite mais um(a) {PermitAgent.Role(role).label.lower()} nesta permissão."
        )
    min_age = rules.value(code, "agents.min_age", starts_on)
    if min_age is not None and (
        person.birth_date is None or rules.age_on(person.birth_date, starts_on) < min_age
    ):
        raise ValidationError(f"O preposto deve ter ao menos {min_age} anos.")
    if active_bans(person=person, on=starts_on):
        raise ValidationError(f"{person} está em período de impedimento.")
    agent = PermitAgent(jurisdiction_id=code, permit=permit, person=person, role=role, starts_on=starts_on)
    return create_audited(actor=actor, instance=agent, reason=reason, action="agent.imported")
