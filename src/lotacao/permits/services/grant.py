"""The grant (outorga): eligibility again, the quotas under the jurisdiction's lock, the term, the
number, and the vehicle tied to the holder.

Grants of one jurisdiction are serialized by locking its `PermitCounter` row first, so that two
clerks granting at once cannot both take the last place of a quota.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from lotacao.audit.services import update_audited
from lotacao.core.formats import br_date
from lotacao.core.law import evaluate_case
from lotacao.core.models import Jurisdiction
from lotacao.law.packs import Entry
from lotacao.permits import rules
from lotacao.permits.eligibility import check_eligibility
from lotacao.permits.models import Permit, PermitCounter
from lotacao.permits.services.common import (
    fresh,
    lock_counter,
    require_reason,
    same_jurisdiction,
    today,
    transition,
)
from lotacao.permits.services.lifecycle import permit_started
from lotacao.permits.states import require
from lotacao.registry.models import Line, Vehicle

S = Permit.Status


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
    act: str = "",
) -> Permit:
    """Grant the permit: number, line, vehicle, term; quotas enforced under the jurisdiction's lock.
    The holder is enrolled for billing and the permit takes its place on the line (`act`: the act
    of the grant; by default the grant itself, by number and date)."""
    require_reason(reason)
    day = today(on)
    code = permit.jurisdiction_id
    counter = lock_counter(code)  # serializes grants of this jurisdiction: quotas cannot be overrun
    permit = fresh(permit)
    require(permit, "grant", day)
    same_jurisdiction(code, line, vehicle)
    if not line.active:
        raise ValidationError(f"A linha {line.code} não está ativa.")
    result = check_eligibility(holder=permit.holder, on=day, application=permit)
    if not result.eligible:
        permit.eligibility = result.as_dict()
        raise ValidationError("Requerente inapto: " + result.summary())
    citations = _check_quotas(permit=permit, vehicle=vehicle, line=line, day=day)
    until, term_citation = _term(permit=permit, day=day, valid_until=valid_until)
    number = _number(counter, code, day, number.strip())
    _tie_vehicle(actor=actor, vehicle=vehicle, permit=permit, number=number)
    transition(
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
    permit_started(
        actor=actor,
        permit=permit,
        on=day,
        act=act.strip() or f"Outorga da permissão nº {number} em {br_date(day)}",
        reason=reason,
        what="A outorga",
    )
    return permit


def _number(counter: PermitCounter, code: str, day: dt.date, number: str) -> str:
    """The number the clerk gave (unique), or the next free one of the year (NNNN/YYYY)."""
    if number:
        if Permit.unscoped.filter(jurisdiction_id=code, number=number).exclude(status=S.TRANSFERRED).exists():
            raise ValidationError(f"Já existe a permissão nº {number}.")
        return number
    counter.last_number += 1
    number = f"{counter.last_number:04d}/{day.year}"
    while Permit.unscoped.filter(jurisdiction_id=code, number=number).exists():
        counter.last_number += 1
        number = f"{counter.last_number:04d}/{day.year}"
    counter.save(update_fields=["last_number"])
    return number


def _tie_vehicle(*, actor: Any, vehicle: Vehicle, permit: Permit, number: str) -> None:
    if vehicle.holder_id is None:
        update_audited(
            actor=actor,
            instance=vehicle,
            changes={"holder_id": permit.holder_id},
            reason=f"Veículo vinculado à permissão nº {number}.",
        )


# ---------------------------------------------------------------- quotas


def _check_quotas(*, permit: Permit, vehicle: Vehicle, line: Line, day: dt.date) -> list[str]:
    """Refuse when a quota is reached; return the citations of the quotas applied."""
    code = permit.jurisdiction_id
    live = (
        Permit.unscoped.filter(jurisdiction_id=code, status__in=Permit.LIVE)
        .exclude(valid_until__lt=day)
        .exclude(pk=permit.pk)
    )
    _vehicle_is_free(permit=permit, vehicle=vehicle, live=live, day=day)
    citations = _one_line_per_holder(permit=permit, line=line, live=live, day=day)
    per_permit = rules.entry(code, "quota.max_vehicles_per_permit", day)
    if per_permit is not None and per_permit.status == "value":
        citations.append(str(per_permit.citation))  # one vehicle per permit: the model holds one
    return _engine_quotas(permit=permit, live=live, day=day, citations=citations)


def _vehicle_is_free(*, permit: Permit, vehicle: Vehicle, live: QuerySet[Permit], day: dt.date) -> None:
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


def _one_line_per_holder(*, permit: Permit, line: Line, live: QuerySet[Permit], day: dt.date) -> list[str]:
    one_line = rules.entry(permit.jurisdiction_id, "permit.one_line_per_holder", day)
    if one_line is None or not one_line.value:
        return []
    other = live.filter(holder_id=permit.holder_id).exclude(line=line).select_related("line").first()
    if other is not None and other.line is not None:
        raise ValidationError(
            f"O permissionário já opera a linha {other.line.code}: cada permissionário opera "
            f"apenas uma linha ({one_line.citation})."
        )
    return [str(one_line.citation)]


def _engine_quotas(
    *, permit: Permit, live: QuerySet[Permit], day: dt.date, citations: list[str]
) -> list[str]:
    """The quotas the engine computes: vehicles per block of inhabitants, permits per holder."""
    return check_engine_quotas(
        permit.jurisdiction_id,
        day,
        holder_permits=lambda: live.filter(holder_id=permit.holder_id).count() + 1,
        used_vehicles=lambda: live.exclude(vehicle__isnull=True).count(),
        citations=citations,
    )


def check_engine_quotas(
    code: str,
    day: dt.date,
    *,
    holder_permits: Callable[[], int],
    used_vehicles: Callable[[], int],
    citations: list[str] | None = None,
    evaluate: Callable[[dict[str, Any]], Any] = evaluate_case,
    population: int | None = None,
) -> list[str]:
    """The quotas the engine computes for one more live permit: `holder_permits` is the number
    the holder would have with it, `used_vehicles` the live permits with a vehicle already
    counted. Shared by the grant (querysets) and the register's import (counts kept per run;
    `evaluate` may memoize the engine's answer, which depends only on the case)."""
    citations = [] if citations is None else citations
    case: dict[str, Any] = {"jurisdiction": code, "kind": "quota", "date": day.isoformat()}
    per_block = rules.entry(code, "quota.vehicles_per_block", day)
    if per_block is not None and per_block.status == "value":
        case["population"] = population or _population(code, per_block)
    per_holder = rules.entry(code, "quota.max_permits_per_holder", day)
    if per_holder is not None:
        case["permits"] = holder_permits()
    if len(case) == 3:
        return citations  # no quota of the engine's in this law
    outcome = evaluate(case)
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
    if "population" in case:
        _vehicles_per_block_left(outcome.get("max_vehicles"), used_vehicles(), case["population"], per_block)
    return citations


def _population(code: str, per_block: Entry) -> int:
    population: int | None = Jurisdiction.objects.values_list("population", flat=True).get(pk=code)
    if not population:
        raise ValidationError(
            "Informe a população do município (IBGE) para calcular a cota de veículos "
            f"({per_block.citation})."
        )
    return population


def _vehicles_per_block_left(
    maximum: int | None, used: int, population: int, per_block: Entry | None
) -> None:
    if maximum is not None and used >= maximum:
        raise ValidationError(
            f"Cota de veículos atingida: {used} de no máximo {maximum} para "
            f"{population} habitantes ({per_block.citation if per_block else ''})."
        )


# ---------------------------------------------------------------- term


def _term(*, permit: Permit, day: dt.date, valid_until: dt.date | None) -> tuple[dt.date, str]:
    """The permit's validity from the grant and its citation (a date given must fit the law's term)."""
    if permit.kind == Permit.Kind.PROVISIONAL:
        return _provisional_term(permit.jurisdiction_id, day, valid_until)
    return _regular_term(permit.jurisdiction_id, day, valid_until)


def _provisional_term(code: str, day: dt.date, valid_until: dt.date | None) -> tuple[dt.date, str]:
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


def _regular_term(code: str, day: dt.date, valid_until: dt.date | None) -> tuple[dt.date, str]:
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
