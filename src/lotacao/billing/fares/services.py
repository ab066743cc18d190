"""Fares in force per line (dated, citing the act) and fare readjustments.

A readjustment records the percentage from its date and, where the law makes nominal values
follow the fare readjustment (`fare.readjusted_parameters`: Recife's fixed fees, art. 25, § 3º,
and its fine base Vb, art. 36, § 1º and art. 45, p.ú.), records each corrected value as the
agency's dated value (core.AgencyValue), so one registered readjustment moves the fees billing
issues and the fines enforcement computes, from that date, through the same `lotacao.core.law`.
The value corrected is the one in force the day before (successive readjustments compound).
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, snapshot, update_audited
from lotacao.billing.fares.models import FareAct, FareStudy, Readjustment
from lotacao.core import law, providers
from lotacao.core.formats import br_date, brl
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.registry.models import Line

CENT = Decimal("0.01")


def fare_on(line: Line | int, day: dt.date) -> FareAct | None:
    """The line's fare act in force on `day` (None when no act set one yet)."""
    line_id = line if isinstance(line, int) else line.pk
    return (
        FareAct.unscoped.filter(line_id=line_id, valid_from__lte=day, annulled_at__isnull=True)
        .order_by("-valid_from")
        .first()
    )


def _decimal(value: Any, label: str) -> Decimal:
    try:
        number = Decimal(str(value).replace(",", "."))
    except InvalidOperation as error:
        raise ValidationError(f"{label} inválido: {value}.") from error
    if not number.is_finite():
        raise ValidationError(f"{label} inválido: {value}.")
    return number


FARE_GATE = "fare.change"


def _council_required(code: str, on: dt.date) -> tuple[bool, str]:
    found = law.entry(code, "fare.council_opinion", on)
    if found is None or found.status != "value":
        return False, ""
    return bool(found.value), str(found.citation)


def fare_council(code: str, on: dt.date) -> tuple[str, list[tuple[str, str]]]:
    """What the law submits to the council about the fare, and the resolutions a form may cite
    (empty where the law of `code` has no council over the fare on `on`)."""
    required, _cite = _council_required(code, on)
    if not required:
        return "", []
    ((_name, choices),) = providers.providers("council_gate_choices")
    found: tuple[str, list[tuple[str, str]]] = choices(code=code, gate=FARE_GATE, on=None)
    return found


def _council_opinion(
    code: str, on: dt.date, resolution: int | str | None, note: str, what: str, otherwise: str
) -> tuple[str, str]:
    """The opinion to store: the council's resolution cited where the law submits the fare to it
    (Recife art. 3º, § 1º: approval by the CMTT/Recife; Esteio art. 34: the CMTT heard first),
    checked by councils.gates through the seam; else the free note. Raises when it is missing.
    Returns the opinion and the resolution's citation ("" when none is cited)."""
    required, cite = _council_required(code, on)
    if not required:
        return note.strip(), ""
    ((_name, check),) = providers.providers("council_gate")
    cited = check(code=code, gate=FARE_GATE, on=on, resolution=resolution, otherwise=otherwise)
    if cited is None:  # the pack asks for the council but no gate names it: the free note
        if not note.strip():
            raise ValidationError(f"A lei exige o parecer do conselho {what} ({cite}).")
        return note.strip(), ""
    extra = note.strip()
    opinion = f"{cited} — {extra}"[:300] if extra and extra not in cited else str(cited)
    return opinion, str(cited)


@transaction.atomic
def set_fare(
    *,
    actor: Any,
    line: Line,
    valid_from: dt.date,
    amount: Decimal | str,
    act: str,
    reason: str,
    reduced_amount: Decimal | str | None = None,
    council_opinion: str = "",
    study: FareStudy | None = None,
    resolution: int | str | None = None,
) -> FareAct:
    """The fare of `line` from `valid_from`, citing the act and, where the law submits the fare
    to a council, the council's `resolution` (its id), cited in the fare and the audit record; a
    study, when given, must be concluded (its values frozen)."""
    code = line.jurisdiction_id
    value = _decimal(amount, "Valor da tarifa").quantize(CENT, ROUND_HALF_UP)
    if value <= 0:
        raise ValidationError("A tarifa deve ser positiva.")
    reduced = None
    if reduced_amount not in (None, ""):
        reduced = _decimal(reduced_amount, "Tarifa com desconto").quantize(CENT, ROUND_HALF_UP)
        if not Decimal("0") <= reduced <= value:
            raise ValidationError("A tarifa com desconto deve estar entre zero e a tarifa inteira.")
    if not act.strip():
        raise ValidationError("Cite o ato que fixou a tarifa (decreto ou portaria).")
    opinion, cited = _council_opinion(
        code,
        valid_from,
        resolution,
        council_opinion,
        "antes de fixar a tarifa",
        f"A tarifa da linha {line.code} não foi registrada.",
    )
    if study is not None and (study.jurisdiction_id != code or study.status != FareStudy.Status.FROZEN):
        raise ValidationError("O estudo tarifário citado deve ser desta jurisdição e estar concluído.")
    if FareAct.unscoped.filter(line=line, valid_from=valid_from, annulled_at__isnull=True).exists():
        raise ValidationError(
            f"A linha {line.code} já tem tarifa desde {br_date(valid_from)}: anule-a antes de informar outra."
        )
    fare = FareAct(
        jurisdiction_id=code,
        line=line,
        valid_from=valid_from,
        amount=value,
        reduced_amount=reduced,
        act=act.strip(),
        council_opinion=opinion,
        study=study,
    )
    if cited:
        reason = f"{reason.strip()} Conselho: {cited}."
    return create_audited(actor=actor, instance=fare, reason=reason, action="fare.set")


@transaction.atomic
def annul_fare(*, actor: Any, fare: FareAct, reason: str) -> FareAct:
    fare = FareAct.unscoped.select_for_update().get(pk=fare.pk)
    if fare.annulled_at is not None:
        raise ValidationError("Esta tarifa já foi anulada.")
    if not reason.strip():
        raise ValidationError("Informe o motivo da anulação.")
    return update_audited(
        actor=actor,
        instance=fare,
        changes={"annulled_at": timezone.now(), "annulled_reason": reason.strip()},
        reason=reason,
        action="fare.annulled",
    )


def _corrected(value: Any, factor: Decimal) -> Any:
    """A nominal value corrected by `factor`: money as a string, a fee mapping's amount."""
    if isinstance(value, dict):
        if "amount" not in value:
            return None
        return {
            **value,
            "amount": str((Decimal(str(value["amount"])) * factor).quantize(CENT, ROUND_HALF_UP)),
        }
    return str((Decimal(str(value)) * factor).quantize(CENT, ROUND_HALF_UP))


def _shown(value: Any) -> str:
    return brl(value["amount"] if isinstance(value, dict) else value)


@transaction.atomic
def record_readjustment(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    valid_from: dt.date,
    percent: Decimal | str,
    act: str,
    reason: str,
    council_opinion: str = "",
    resolution: int | str | None = None,
) -> Readjustment:
    """A fare readjustment from `valid_from`; where the law submits the fare to a council, its
    `resolution` (id) is required and cited, as for `set_fare`."""
    code = jurisdiction.code
    rate = _decimal(percent, "Percentual de reajuste")
    if rate <= -100:
        raise ValidationError("O percentual de reajuste deve ser maior que -100%.")
    if not act.strip():
        raise ValidationError("Cite o ato do reajuste tarifário.")
    opinion, cited = _council_opinion(
        code,
        valid_from,
        resolution,
        council_opinion,
        "para alterar a tarifa",
        "O reajuste não foi registrado.",
    )
    if cited:
        reason = f"{reason.strip()} Conselho: {cited}."
    if Readjustment.unscoped.filter(jurisdiction=jurisdiction, valid_from=valid_from).exists():
        raise ValidationError(f"Já há reajuste registrado em {br_date(valid_from)}.")
    names = law.value(code, "fare.readjusted_parameters", valid_from) or []
    factor = 1 + rate / 100
    applied = [_apply(actor, jurisdiction, str(name), valid_from, factor, act, reason) for name in names]
    applied.append(_fine_base_percentage(actor, jurisdiction, valid_from, rate, act, reason))
    row = Readjustment(
        jurisdiction=jurisdiction,
        valid_from=valid_from,
        percent=rate,
        act=act.strip(),
        council_opinion=opinion,
        applied=[a for a in applied if a is not None],
    )
    row = create_audited(actor=actor, instance=row, reason=reason, action="readjustment.recorded")
    law.forget(code)
    transaction.on_commit(lambda: law.forget(code))
    return row


FINE_BASE_READJUSTMENT = "penalty.base_fine_readjustment"


def _fine_base_percentage(
    actor: Any, jurisdiction: Jurisdiction, day: dt.date, rate: Decimal, act: str, reason: str
) -> dict[str, Any] | None:
    """Where the law corrects the fines' base by the same readjustment (Recife art. 36, § 1º; art.
    45, p.ú.), the percentage itself is the agency's dated value: the engine compounds every
    registered readjustment up to the infraction date, so the fine base is never corrected twice."""
    code = jurisdiction.code
    if not law.pack_for(code).has(FINE_BASE_READJUSTMENT):
        return None
    shown = f"{rate.normalize():f}".replace(".", ",")
    row = AgencyValue(
        jurisdiction=jurisdiction,
        parameter=FINE_BASE_READJUSTMENT,
        valid_from=day,
        value=f"{rate.normalize():f}",
        cite=act.strip(),
        note=f"Reajuste tarifário de {br_date(day)}: {shown}%.",
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    row.save()
    record(actor=actor, action="agency_value.created", instance=row, reason=reason, after=snapshot(row))
    law.forget(code)
    label = law.pack_for(code).parameters[FINE_BASE_READJUSTMENT].description
    return {
        "parameter": FINE_BASE_READJUSTMENT,
        "label": label,
        "agency_value": row.pk,
        "before": None,
        "after": row.value,
        "before_text": "",
        "after_text": f"{shown}%",
    }


def _apply(
    actor: Any, jurisdiction: Jurisdiction, name: str, day: dt.date, factor: Decimal, act: str, reason: str
) -> dict[str, Any] | None:
    """Record `name` corrected by `factor` from `day` as the agency's dated value."""
    code = jurisdiction.code
    before = law.value(code, name, day - dt.timedelta(days=1))
    if before is None:
        raise ValidationError(
            f"Não há valor de “{law.pack_for(code).parameters[name].description}” em vigor antes de "
            f"{br_date(day)} para corrigir: o órgão deve informá-lo primeiro."
        )
    after = _corrected(before, factor)
    if after is None:
        return None
    existing = AgencyValue.unscoped.filter(
        jurisdiction=jurisdiction, parameter=name, valid_from=day, annulled_at__isnull=True
    )
    if existing.exists():
        raise ValidationError(f"Já há um valor de “{name}” desde {br_date(day)}: anule-o antes do reajuste.")
    row = AgencyValue(
        jurisdiction=jurisdiction,
        parameter=name,
        valid_from=day,
        value=after,
        cite=act.strip(),
        note=f"Corrigido pelo reajuste tarifário de {br_date(day)}: {_shown(before)} → {_shown(after)}.",
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    row.save()
    record(actor=actor, action="agency_value.created", instance=row, reason=reason, after=snapshot(row))
    law.forget(code)
    return {
        "parameter": name,
        "label": law.pack_for(code).parameters[name].description,
        "agency_value": row.pk,
        "before": before,
        "after": after,
        "before_text": _shown(before),
        "after_text": _shown(after),
    }
