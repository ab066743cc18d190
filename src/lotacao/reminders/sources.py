"""What the day's reminders are about: each source reads one kind of dated record and yields the
reminders due today for the holder who must act.

A "before" reminder is sent at each threshold of `LOTACAO_REMINDER_DAYS[kind]` (days before the
date): on the first night the date is within a threshold, the tightest such threshold names the
reminder's key, so a night that was missed still reminds, a rerun of the same night sends nothing
new (the outbox's dedup key), and a later threshold sends one more. An event (notice served,
decision, slip issued or overdue) is announced once, if it happened within the look-back window.

The deadlines are the engine's (`current_stage`: the due process's instance open and its deadline,
with its articles); the reminders only decide when to tell.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.urls import reverse

from lotacao.billing.ledger.models import Charge
from lotacao.core.formats import brl, lower_first
from lotacao.documents.models import Document
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import Decision, InfractionNotice
from lotacao.inspections.models import Inspection, IrregularityNotice
from lotacao.outbox.models import Event
from lotacao.permits.models import Permit


@dataclass(frozen=True)
class Reminder:
    """One message to one holder (the recipients are resolved by `services`)."""

    event: str
    key: str  # the outbox dedup key (per channel)
    jurisdiction_id: str
    holder_id: int
    subject: str
    what: str
    path: str  # the page to act on (its address inside the site)
    due: dt.date | None = None
    citation: str = ""
    advice: str = ""
    lines: tuple[str, ...] = field(default_factory=tuple)


def thresholds(kind: str) -> list[int]:
    days = settings.LOTACAO_REMINDER_DAYS.get(kind) or []
    return sorted({int(d) for d in days if int(d) >= 0})


def threshold(kind: str, day: dt.date, date: dt.date) -> int | None:
    """The tightest threshold the date is within (None: not yet, or already past)."""
    left = (date - day).days
    if left < 0:
        return None
    within = [t for t in thresholds(kind) if left <= t]
    return min(within) if within else None


def _window(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=settings.LOTACAO_REMINDER_LOOKBACK_DAYS)


def _days(left: int) -> str:
    return "hoje" if left == 0 else ("amanhã" if left == 1 else f"em {left} dias")


def deadlines(day: dt.date) -> Iterator[Reminder]:
    """Defense or appeal of a notice: the engine's deadline of the instance open now."""
    notices = (
        InfractionNotice.unscoped.filter(status=InfractionNotice.Status.NOTIFIED, holder__isnull=False)
        .prefetch_related("decisions", "filings")
        .order_by("pk")
    )
    for notice in notices.iterator(chunk_size=500):
        stage = current_stage(notice, day)
        if stage.instance is None or stage.blocked or stage.due is None:
            continue
        mark = threshold("deadline", day, stage.due)
        if mark is None:
            continue
        name = str(stage.instance.get("name") or "Defesa")
        left = (stage.due - day).days
        yield Reminder(
            event=Event.DEADLINE,
            key=f"lembrete:prazo:{notice.pk}:{stage.instance['id']}:{stage.due.isoformat()}:{mark}",
            jurisdiction_id=notice.jurisdiction_id,
            holder_id=notice.holder_id,  # type: ignore[arg-type]
            subject=f"Prazo termina {_days(left)}: {name.lower()} do auto nº {notice.number}",
            what=f"o prazo para {name.lower()} do auto de infração nº {notice.number} termina em "
            f"{stage.due:%d/%m/%Y}.",
            due=stage.due,
            citation="; ".join(stage.citations),
            advice="Depois dessa data o pedido não será aceito.",
            path=reverse("enforcement:notice", args=[notice.pk]),
        )


def notices_served(day: dt.date) -> Iterator[Reminder]:
    served = InfractionNotice.unscoped.filter(
        holder__isnull=False, served_on__gte=_window(day), served_on__lte=day
    ).order_by("pk")
    for notice in served.iterator(chunk_size=500):
        yield Reminder(
            event=Event.NOTICE,
            key=f"lembrete:auto-notificado:{notice.pk}",
            jurisdiction_id=notice.jurisdiction_id,
            holder_id=notice.holder_id,  # type: ignore[arg-type]
            subject=f"Você foi notificado do auto de infração nº {notice.number}",
            what=f"a notificação do auto de infração nº {notice.number} foi registrada em "
            f"{notice.served_on:%d/%m/%Y}; a partir dela corre o prazo de defesa.",
            path=reverse("enforcement:notice", args=[notice.pk]),
        )


def decisions(day: dt.date) -> Iterator[Reminder]:
    found = (
        Decision.unscoped.filter(
            notice__holder__isnull=False, decided_on__gte=_window(day), decided_on__lte=day
        )
        .select_related("notice")
        .order_by("pk")
    )
    for decision in found.iterator(chunk_size=500):
        notice = decision.notice
        yield Reminder(
            event=Event.NOTICE,
            key=f"lembrete:decisao:{decision.pk}",
            jurisdiction_id=decision.jurisdiction_id,
            holder_id=notice.holder_id,  # type: ignore[arg-type]
            subject=f"Decisão sobre o auto de infração nº {notice.number}",
            what=f"foi registrada em {decision.decided_on:%d/%m/%Y} a decisão sobre o auto de infração "
            f"nº {notice.number}: {lower_first(decision.get_outcome_display())}.",
            citation="; ".join(str(c) for c in decision.citations or []),
            path=reverse("enforcement:notice", args=[notice.pk]),
        )


def _money(amount: Any) -> str:
    return brl(amount)


def charges(day: dt.date) -> Iterator[Reminder]:
    """Slips issued recently, falling due within the threshold, and overdue (once)."""
    window = _window(day)
    unpaid = Charge.unscoped.filter(paid_on__isnull=True, cancelled=False).order_by("pk")
    issued = unpaid.filter(created_at__date__gte=window, created_at__date__lte=day)
    for charge in issued.iterator(chunk_size=500):
        yield _charge(
            charge,
            "emitida",
            f"foi emitida a guia de {charge.description}, no valor de "
            f"{_money(charge.amount)}, com vencimento em {charge.due_on:%d/%m/%Y}.",
            f"Guia emitida: {charge.description}",
        )
    last = max(thresholds("charge") or [0])
    soon = unpaid.filter(contested=False, due_on__gte=day, due_on__lte=day + dt.timedelta(days=last))
    for charge in soon.iterator(chunk_size=500):
        mark = threshold("charge", day, charge.due_on)
        if mark is None or (charge.created_at.date() >= window and mark == last):
            continue  # just issued: the issue message already gave the due date
        left = (charge.due_on - day).days
        yield _charge(
            charge,
            f"vence:{charge.due_on.isoformat()}:{mark}",
            f"a guia de {charge.description}, no valor de {_money(charge.amount)}, vence "
            f"em {charge.due_on:%d/%m/%Y}.",
            f"Guia vence {_days(left)}: {charge.description}",
        )
    overdue = unpaid.filter(contested=False, due_on__lt=day, due_on__gte=window)
    for charge in overdue.iterator(chunk_size=500):
        yield _charge(
            charge,
            "vencida",
            f"a guia de {charge.description}, no valor de "
            f"{_money(charge.amount)}, venceu em {charge.due_on:%d/%m/%Y} e não consta como paga.",
            f"Guia vencida: {charge.description}",
        )


def _charge(charge: Charge, what_key: str, what: str, subject: str) -> Reminder:
    return Reminder(
        event=Event.CHARGE,
        key=f"lembrete:guia:{charge.pk}:{what_key}",
        jurisdiction_id=charge.jurisdiction_id,
        holder_id=charge.holder_id,
        subject=subject,
        what=what,
        due=charge.due_on,
        citation=charge.citation,
        path=reverse("billing:ledger", args=[charge.holder_id]),
    )


def documents(day: dt.date) -> Iterator[Reminder]:
    last = max(thresholds("document") or [0])
    found = (
        Document.unscoped.filter(
            status=Document.Status.ACCEPTED,
            valid_until__gte=day,
            valid_until__lte=day + dt.timedelta(days=last),
        )
        .select_related("person", "company", "vehicle")
        .order_by("pk")
    )
    for document in found.iterator(chunk_size=500):
        holder_id = _document_holder(document)
        mark = threshold("document", day, document.valid_until)  # type: ignore[arg-type]
        if holder_id is None or mark is None or document.valid_until is None:
            continue
        left = (document.valid_until - day).days
        yield Reminder(
            event=Event.DOCUMENT,
            key=f"lembrete:documento:{document.pk}:{document.valid_until.isoformat()}:{mark}",
            jurisdiction_id=document.jurisdiction_id,
            holder_id=holder_id,
            subject=f"Documento vence {_days(left)}: {document.label}",
            what=f"o documento {document.label} vale até {document.valid_until:%d/%m/%Y}.",
            due=document.valid_until,
            citation=document.citation,
            advice="Envie o documento renovado antes dessa data.",
            path=reverse("web:home"),
        )


def _document_holder(document: Document) -> int | None:
    if document.vehicle is not None and document.vehicle.holder_id:
        return int(document.vehicle.holder_id)
    party = document.person or document.company
    if party is None:
        return None
    holder = party.holder_records.order_by("pk").first()
    return holder.pk if holder is not None else None


def renewals(day: dt.date) -> Iterator[Reminder]:
    last = max(thresholds("renewal") or [0])
    found = Permit.unscoped.filter(
        status__in=Permit.LIVE, valid_until__gte=day, valid_until__lte=day + dt.timedelta(days=last)
    ).order_by("pk")
    for permit in found.iterator(chunk_size=500):
        mark = threshold("renewal", day, permit.valid_until)  # type: ignore[arg-type]
        if mark is None or permit.valid_until is None:
            continue
        yield Reminder(
            event=Event.RENEWAL,
            key=f"lembrete:renovacao:{permit.pk}:{permit.valid_until.isoformat()}:{mark}",
            jurisdiction_id=permit.jurisdiction_id,
            holder_id=permit.holder_id,
            subject=f"Permissão nº {permit.number} vence em {permit.valid_until:%d/%m/%Y}",
            what=f"a permissão nº {permit.number} vale até {permit.valid_until:%d/%m/%Y}; "
            "procure o órgão gestor para a renovação.",
            due=permit.valid_until,
            path=reverse("permits:detail", args=[permit.pk]),
        )


def inspections(day: dt.date) -> Iterator[Reminder]:
    last = max(thresholds("inspection") or [0])
    until = day + dt.timedelta(days=last)
    found = (
        Inspection.unscoped.filter(
            status=Inspection.Status.SCHEDULED,
            scheduled_for__gte=day,
            scheduled_for__lte=until,
            vehicle__holder__isnull=False,
        )
        .select_related("vehicle")
        .order_by("pk")
    )
    for inspection in found.iterator(chunk_size=500):
        mark = threshold("inspection", day, inspection.scheduled_for)
        if mark is None:
            continue
        left = (inspection.scheduled_for - day).days
        place = f", em {inspection.place}" if inspection.place else ""
        yield Reminder(
            event=Event.DEADLINE,
            key=f"lembrete:vistoria:{inspection.pk}:{inspection.scheduled_for.isoformat()}:{mark}",
            jurisdiction_id=inspection.jurisdiction_id,
            holder_id=inspection.vehicle.holder_id,  # type: ignore[arg-type]
            subject=f"Vistoria do veículo {inspection.vehicle.plate} {_days(left)}",
            what=f"a vistoria do veículo de placa {inspection.vehicle.plate} está marcada para "
            f"{inspection.scheduled_for:%d/%m/%Y}{place}.",
            due=inspection.scheduled_for,
            citation="; ".join(str(c) for c in inspection.citations or []),
            path=reverse("inspections:agenda"),
        )
    pending = (
        IrregularityNotice.unscoped.filter(
            resolved_on__isnull=True,
            representation_due__gte=day,
            representation_due__lte=until,
            vehicle__holder__isnull=False,
        )
        .select_related("vehicle")
        .order_by("pk")
    )
    for notice in pending.iterator(chunk_size=500):
        mark = threshold("inspection", day, notice.representation_due)
        if mark is None:
            continue
        yield Reminder(
            event=Event.DEADLINE,
            key=f"lembrete:reapresentacao:{notice.pk}:{notice.representation_due.isoformat()}:{mark}",
            jurisdiction_id=notice.jurisdiction_id,
            holder_id=notice.vehicle.holder_id,  # type: ignore[arg-type]
            subject=f"Reapresente o veículo {notice.vehicle.plate} até {notice.representation_due:%d/%m/%Y}",
            what=f"o veículo de placa {notice.vehicle.plate} deve ser reapresentado à vistoria, com as "
            f"falhas corrigidas, até {notice.representation_due:%d/%m/%Y} (notificação nº {notice.number}).",
            due=notice.representation_due,
            citation=notice.deadline_citation,
            path=reverse("inspections:agenda"),
        )


SOURCES: tuple[tuple[str, Callable[[dt.date], Iterator[Reminder]]], ...] = (
    ("prazos", deadlines),
    ("autos_notificados", notices_served),
    ("decisoes", decisions),
    ("guias", charges),
    ("documentos", documents),
    ("renovacoes", renewals),
    ("vistorias", inspections),
)
