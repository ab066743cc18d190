"""What may follow a measure in force besides its release, where the law says so:

- it turns into another (`convert_measure`): Maricá art. 54, parágrafo único — a retention whose
  fault cannot be fixed on the spot becomes a seizure. Read from the engine's result for the
  notice (`measure_escalations`), else the pack's `measure.escalation`. The retention reads
  "convertida", the seizure is applied with its own release conditions (Maricá arts. 55, § 3º,
  and 56) and the conversion's article;
- the holder breaks the term that released it (`record_commitment_breach`): Maricá art. 55,
  § 1º — the over-age vehicle was released on the holder's signed commitment to retire it "sob
  pena de cassação da permissão": the manager records the fact and its proof, and the revocation
  process opens (`followups.open_revocation_process`), citing the ground of `permit.revocation_grounds`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import update_audited
from lotacao.core.formats import lower_first
from lotacao.core.law import value
from lotacao.enforcement.models import Measure, RevocationProcess
from lotacao.enforcement.reading import br, local_day
from lotacao.enforcement.sanctions.followups import open_revocation_process
from lotacao.enforcement.sanctions.measures import locked_measure, need_reason, record_measure
from lotacao.permits.models import Permit

COMMITMENT = "retirement_commitment"


def escalation(measure: Measure, on: dt.date) -> dict[str, Any] | None:
    """What the measure turns into and when ({"to", "when", "cite"}), or None."""
    found = ((measure.notice.engine_result or {}).get("measure_escalations") or {}).get(measure.kind)
    if found:
        law = str(measure.notice.law or "")
        cite = str(found.get("citation", ""))
        cite = cite[len(law) + 2 :] if law and cite.startswith(f"{law}, ") else cite
        return {"to": str(found["to"]), "when": str(found.get("when", "")), "cite": cite}
    pack = (value(measure.jurisdiction_id, "measure.escalation", on) or {}).get(measure.kind)
    return dict(pack) if pack else None


@transaction.atomic
def convert_measure(
    *, actor: Any, measure: Measure, converted_at: dt.datetime, detail: str, reason: str
) -> Measure:
    """Turn the measure into the one the law says (the new one is returned)."""
    reason = need_reason(reason)
    measure = locked_measure(measure)
    notice = measure.notice
    if converted_at is None or timezone.is_naive(converted_at):
        raise ValidationError("Informe a data e a hora da conversão com fuso horário.")
    if converted_at < measure.applied_at or converted_at > timezone.now():
        raise ValidationError("A conversão deve estar entre a aplicação da medida e agora.")
    day = local_day(notice.jurisdiction, converted_at)
    rule = escalation(measure, day)
    label = measure.get_kind_display()
    if rule is None:
        raise ValidationError(f"A lei não prevê que a {label.lower()} se converta em outra medida.")
    to = rule["to"]
    if to not in Measure.Kind.values:
        raise ValidationError(f"Medida administrativa desconhecida: {to}.")
    why = f"{label} convertida em {lower_first(Measure.Kind(to).label)}: {rule['when']} ({rule['cite']})"
    new = record_measure(
        actor,
        notice,
        to,
        converted_at,
        ((detail or "").strip() + "\n" if (detail or "").strip() else "") + why,
        None,
        [rule["cite"]],
        f"{reason} — {why}",
        action="enforcement.measure_converted",
    )
    update_audited(
        actor=actor,
        instance=measure,
        changes={
            "status": Measure.Status.CONVERTED,
            "released_on": day,
            "release_note": why,
            "converted_to": new,
        },
        reason=reason,
        action="enforcement.measure_converted",
    )
    return new


def _commitment(measure: Measure) -> dict[str, Any]:
    row: dict[str, Any] | None = next((c for c in measure.conditions if c.get("id") == COMMITMENT), None)
    if row is None:
        raise ValidationError("Esta medida não foi liberada por termo de compromisso de retirada do veículo.")
    if not row.get("met_on"):
        raise ValidationError(f"O termo de compromisso ({row['label']}) ainda não foi registrado.")
    return row


def _ground(code: str, on: dt.date, fallback: str) -> list[str]:
    """The citations of the revocation ground of the broken commitment, as the pack lists it."""
    for ground in value(code, "permit.revocation_grounds", on) or []:
        if ground.get("id") == "age_limit_commitment":
            cite = ground.get("cite")
            return [str(c) for c in cite] if isinstance(cite, list) else [str(cite)]
    return [fallback]


@transaction.atomic
def record_commitment_breach(
    *, actor: Any, measure: Measure, found_on: dt.date, proof: str, reason: str
) -> RevocationProcess:
    """The holder operated the vehicle they committed to retire: the revocation process opens."""
    reason = need_reason(reason)
    measure = Measure.unscoped.select_for_update().select_related("notice").get(pk=measure.pk)
    row = _commitment(measure)
    if not (proof or "").strip():
        raise ValidationError("Descreva a prova do descumprimento (auto, relatório, fotografia).")
    signed = dt.date.fromisoformat(str(row["met_on"]))
    if found_on < signed or found_on > timezone.localdate():
        raise ValidationError(f"A data deve estar entre o termo ({br(signed)}) e hoje.")
    notice = measure.notice
    permit = notice.permit
    if permit is None and notice.vehicle_id is not None:
        permit = Permit.unscoped.filter(vehicle_id=notice.vehicle_id, status__in=Permit.LIVE).first()
    if permit is None:
        raise ValidationError("O auto não está ligado a uma permissão: não há o que cassar.")
    cites = _ground(notice.jurisdiction_id, found_on, str(row.get("cite", "")))
    return open_revocation_process(
        actor=actor,
        notice=notice,
        permit=permit,
        on=found_on,
        cause=(
            f"Descumprimento do termo de compromisso de retirar de operação o veículo {notice.plate} "
            f"(assinado em {br(signed)}, auto {notice.number}): {proof.strip()}"
        ),
        citations=cites,
    )
