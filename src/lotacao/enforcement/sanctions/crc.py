"""The CRC's sanctions a final decision imposes on a chartering company (Pernambuco: Lei 16.205/2017
as amended in 2020 — suspension for 90 days and cancellation for 180, art. 23, III–IV and parágrafo
único; cassação for a modality the company does not hold, art. 35; extension on recidivism during
the sanction up to double, art. 31; end after the term with the proof of cure, art. 30, § 1º).

A decision's penalty carries them as `crc_suspension`, `crc_cancellation` and `crc_revocation`
(the days are the law's, from the pack's `chartering.crc_sanctions`, never the decision's); they are
offered where the jurisdiction's pack has `chartering.crc_sanctions`, and they add to the penalty
in force (the fine of art. 28 stays: the sanctions of art. 23 are "sem prejuízo" of the others).
`apply_from_decision` (called by `effects` at finality) hands them to
`lotacao.chartering.sanctions.apply_sanction`; a sanction already in force is not applied twice:
the effect says the manager may extend it. `extend_for_notice` (the manager, on the new notice of
the same company drawn up during the sanction) and `end` are the screens' doors to chartering's
`extend_sanction` and `end_sanction`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse

from lotacao.chartering import sanctions as chartering
from lotacao.chartering.models import CharteringCompany, Sanction
from lotacao.chartering.status import crc_state
from lotacao.core.formats import lower_first
from lotacao.core.law import entry
from lotacao.enforcement.models import Decision, InfractionNotice
from lotacao.enforcement.reading import br, infraction_day
from lotacao.workqueue.services import WorkItemSpec

PARAMETER = "chartering.crc_sanctions"
# The decision's penalty type → chartering's sanction kind.
KINDS = {
    "crc_suspension": Sanction.Kind.SUSPENSION.value,
    "crc_cancellation": Sanction.Kind.CANCELLATION.value,
    "crc_revocation": Sanction.Kind.REVOCATION.value,
}
LABELS = {
    "crc_suspension": "Suspensão do CRC",
    "crc_cancellation": "Cancelamento do CRC",
    "crc_revocation": "Cassação do CRC",
}
LIVE_NOTICE = (
    InfractionNotice.Status.DRAWN_UP,
    InfractionNotice.Status.NOTIFIED,
    InfractionNotice.Status.DECIDED_FINAL,
)


def regulates_crc(code: str, on: dt.date) -> bool:
    """Whether the jurisdiction's law has the CRC's sanctions (the pack's `chartering.crc_sanctions`)."""
    found = entry(code, PARAMETER, on)
    return found is not None and found.status == "value"


def choices(code: str, on: dt.date) -> list[tuple[str, str]]:
    """The CRC sanctions a decision may impose, in words with their term and article."""
    if not regulates_crc(code, on):
        return []
    found = entry(code, PARAMETER, on)
    assert found is not None
    terms = found.value or {}
    cite = str(found.citation)
    out = []
    for kind, label in LABELS.items():
        sanction = KINDS[kind]
        if sanction == Sanction.Kind.REVOCATION:
            out.append((kind, f"{label} (modalidade não cadastrada, art. 35)"))
        elif sanction in terms:
            out.append((kind, f"{label} por {terms[sanction]['days']} dias ({cite})"))
    return out


def company_of(notice: InfractionNotice) -> CharteringCompany | None:
    if notice.holder_id is None:
        return None
    company: CharteringCompany | None = CharteringCompany.unscoped.filter(holder_id=notice.holder_id).first()
    return company


def _effect(kind: str, done: bool, note: str, cites: list[str], ref: str = "") -> dict[str, Any]:
    item: dict[str, Any] = {"type": kind, "done": done, "note": note, "citations": [c for c in cites if c]}
    if ref:
        item["ref"] = ref
    return item


def sanction_words(sanction: Sanction) -> str:
    if sanction.ends_on is None or sanction.starts_on is None:
        since = f" desde {br(sanction.starts_on)}" if sanction.starts_on else ""
        return f"{sanction.get_kind_display()}{since}."
    return (
        f"{sanction.get_kind_display()} de {br(sanction.starts_on)} a {br(sanction.ends_on)} "
        f"({sanction.days} dias)."
    )


def apply_from_decision(
    actor: Any, decision: Decision, notice: InfractionNotice, kind: str, on: dt.date
) -> dict[str, Any]:
    """The CRC sanction of a final decision, from `on` (the day the decision became final)."""
    cites = list(decision.citations)
    company = company_of(notice)
    if company is None:
        return _effect(kind, False, "não aplicada: o autuado não é empresa do cadastro de fretamento.", cites)
    state = crc_state(company, on)
    if state.sanction is not None:
        current = state.sanction
        return _effect(
            kind,
            False,
            f"não aplicada: já há {lower_first(current.get_kind_display())} em vigor até "
            f"{br(current.ends_on) if current.ends_on else '—'}. A reincidência durante a sanção permite "
            "ao gestor majorar o prazo, até o dobro do original (art. 31).",
            cites,
            ref=f"crcsanction:{current.pk}",
        )
    description = notice.infraction_code or "sem enquadramento"
    try:
        with transaction.atomic():
            sanction = chartering.apply_sanction(
                actor=actor,
                company=company,
                kind=KINDS[kind],
                starts_on=on,
                grounds=f"Auto de infração {notice.number} ({description}), de {br(infraction_day(notice))}.",
                reason=f"Decisão definitiva do auto {notice.number}",
                decision_reference=f"Decisão de {br(decision.decided_on)} no auto {notice.number}",
            )
    except ValidationError as error:
        return _effect(kind, False, f"não aplicada: {' '.join(error.messages)}", cites)
    cites = [*cites, *sanction.citations]
    return _effect(kind, True, sanction_words(sanction), cites, f"crcsanction:{sanction.pk}")


def repeat_notices(sanction: Sanction) -> QuerySet[InfractionNotice]:
    """Notices of the sanctioned company drawn up while the sanction is in force (the recidivism
    that lets the manager extend it, art. 31); those annulled or archived do not count."""
    qs = InfractionNotice.objects.filter(
        jurisdiction_id=sanction.jurisdiction_id,
        holder_id=sanction.company.holder_id,
        status__in=LIVE_NOTICE,
    )
    if sanction.starts_on is not None:
        qs = qs.filter(drawn_up_at__date__gte=sanction.starts_on - dt.timedelta(days=1))
    if sanction.ends_on is not None:
        qs = qs.filter(drawn_up_at__date__lte=sanction.ends_on + dt.timedelta(days=1))
    return qs.order_by("-drawn_up_at")


@transaction.atomic
def extend_for_notice(
    *, actor: Any, sanction: Sanction, notice: InfractionNotice, extra_days: int, reason: str
) -> Sanction:
    """The manager extends the sanction for a new offence of the same company (the notice), dated
    within the sanction; chartering refuses beyond double the original term (art. 31)."""
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo (fica registrado na auditoria).")
    if notice.jurisdiction_id != sanction.jurisdiction_id or notice.holder_id != sanction.company.holder_id:
        raise ValidationError(f"O auto {notice.number} não é da empresa sancionada.")
    if notice.status not in LIVE_NOTICE:
        raise ValidationError(
            f"O auto {notice.number} está {lower_first(notice.get_status_display())}: não motiva a majoração."
        )
    day = infraction_day(notice)
    grounds = f"Reincidência: auto de infração {notice.number} ({notice.infraction_code or 'sem enquadramento'}), de {br(day)}."  # noqa: E501
    return chartering.extend_sanction(
        actor=actor, sanction=sanction, extra_days=extra_days, grounds=grounds, reason=reason.strip(), on=day
    )


def end(*, actor: Any, sanction: Sanction, cure_proof: str, on: dt.date, reason: str) -> Sanction:
    """End the sanction after its term, with the proof that the fault is cured (art. 30, § 1º)."""
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo (fica registrado na auditoria).")
    return chartering.end_sanction(
        actor=actor, sanction=sanction, cure_proof=cure_proof, reason=reason.strip(), on=on
    )


def days_of(code: str, kind: str, on: dt.date) -> int | None:
    """The law's term of a CRC sanction (None for cassação, which has none)."""
    found = entry(code, PARAMETER, on)
    term = ((found.value or {}) if found is not None else {}).get(KINDS.get(kind, ""))
    return int(term["days"]) if term else None


def added_to(penalty: dict[str, Any], kind: str, code: str, on: dt.date) -> dict[str, Any]:
    """The penalty in force with the CRC sanction added (the fine stays; another CRC sanction the
    penalty had is replaced): what a decision that imposes it records."""
    if kind not in KINDS:
        raise ValidationError(f"Sanção do CRC desconhecida: {kind}.")
    check_allowed(code, [{"type": kind}], on)
    items = [p for p in penalty.get("penalties") or [] if str(p.get("type")) not in KINDS]
    item: dict[str, Any] = {"type": kind}
    days = days_of(code, kind, on)
    if days is not None:
        item["days"] = days
    return {**penalty, "penalties": [*items, item]}


def check_allowed(code: str, items: list[Any], on: dt.date) -> None:
    """A CRC sanction only where the jurisdiction's law has the CRC (its pack's parameter)."""
    wanted = [str(p.get("type")) for p in items if isinstance(p, dict) and p.get("type") in KINDS]
    if wanted and not regulates_crc(code, on):
        raise ValidationError(
            f"{LABELS[wanted[0]]}: a lei desta jurisdição não tem cadastro de fretamento (CRC) a sancionar."
        )


def ceiling(sanction: Sanction) -> int | None:
    """The longest the sanction may last with its extensions (double the original, art. 31)."""
    if sanction.original_days is None or sanction.starts_on is None:
        return None
    found = entry(sanction.jurisdiction_id, "chartering.sanction_extension", sanction.starts_on)
    factor = ((found.value or {}) if found is not None and found.status == "value" else {}).get("max_factor")
    return int(sanction.original_days * factor) if factor else None


REPEAT_KIND = "enforcement.crc_repeat"


def repeat_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Final decisions whose CRC sanction was not applied because one was in force (a repeat
    during the sanction): the manager decides the extension (art. 31) while the sanction lasts
    and the notice is not yet among its extensions."""
    live = Sanction.unscoped.filter(
        status=Sanction.Status.IN_FORCE, days__isnull=False, ends_on__gte=today
    ).select_related("company")
    for sanction in live:
        ref = f"crcsanction:{sanction.pk}"
        grounds = " ".join(str(e.get("grounds", "")) for e in sanction.extensions)
        decisions = Decision.unscoped.filter(
            final=True, jurisdiction_id=sanction.jurisdiction_id, notice__holder_id=sanction.company.holder_id
        ).select_related("notice")
        for decision in decisions:
            waiting = [e for e in decision.effects or [] if e.get("ref") == ref and not e.get("done")]
            if not waiting or decision.notice.number in grounds:
                continue
            yield WorkItemSpec(
                jurisdiction_id=sanction.jurisdiction_id,
                kind=REPEAT_KIND,
                key=f"decision-{decision.pk}",
                title=(
                    f"Auto {decision.notice.number}: nova infração de {sanction.company} durante a sanção "
                    f"em vigor ({sanction.get_kind_display()}) — decidir a majoração (até o dobro, art. 31)"
                )[:300],
                due_on=sanction.ends_on,
                url=reverse("enforcement:crc_sanction", kwargs={"pk": sanction.pk}),
            )
