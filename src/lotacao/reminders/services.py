"""The nightly `reminders` job and the helper other apps call for their immediate messages.

`run(day)` puts in the outbox, for each reminder of `sources.SOURCES`, one message per channel the
holder's account accepts (their `Preference`; the phone of their preferences page, else the
registry's), and one digest per staff member (manager or clerk) of the work items that opened today
with a date in their agency. Every message has a dedup key naming the record and the threshold, so
running the same night twice (or two servers' timers) sends nothing twice; a holder with no
account, or an account with no address, is counted and skipped.

`notify_holder(...)` is the helper for the events that happen during the day (a request decided, a
complaint answered): call it inside the transaction that records the event.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse

from lotacao.accounts.models import HolderAccount, Role, StaffMembership
from lotacao.core.models import Jurisdiction
from lotacao.outbox import services as outbox
from lotacao.outbox.models import Event
from lotacao.registry.models import Holder
from lotacao.reminders.models import Contact
from lotacao.reminders.sources import SOURCES, Reminder
from lotacao.workqueue.models import WorkItem

TEMPLATE = "reminders/aviso"
STAFF_ROLES = (Role.MANAGER, Role.CLERK)


def link(path: str) -> str:
    return f"{settings.LOTACAO_SITE_URL}{path}"


def _agency(jurisdiction_id: str, cache: dict[str, Jurisdiction]) -> Jurisdiction:
    if jurisdiction_id not in cache:
        cache[jurisdiction_id] = Jurisdiction.objects.get(pk=jurisdiction_id)
    return cache[jurisdiction_id]


def phone_of(user: Any, holder: Holder | None = None) -> str:
    """The SMS number: the user's own choice first, else the registry's (holder) phone."""
    contact = Contact.objects.filter(user=user).values_list("phone", flat=True).first()
    if contact:
        return str(contact)
    party = (holder.person or holder.company) if holder is not None else None
    return str(getattr(party, "phone", "") or "")


def email_of(user: Any, holder: Holder | None = None) -> str:
    if user.email:
        return str(user.email)
    party = (holder.person or holder.company) if holder is not None else None
    return str(getattr(party, "email", "") or "")


def context(
    *,
    name: str,
    agency: Jurisdiction,
    subject: str,
    what: str,
    path: str,
    due: dt.date | None = None,
    citation: str = "",
    advice: str = "",
    lines: tuple[str, ...] | list[str] = (),
) -> dict[str, Any]:
    return {
        "name": name,
        "agency": agency.official_name or f"O órgão gestor de {agency.name}",
        "agency_short": agency.official_name or agency.name,
        "subject": subject,
        "what": what[:1].upper() + what[1:] if what else what,
        "due": due,
        "citation": citation,
        "advice": advice,
        "lines": list(lines),
        "link": link(path),
        "preferences": link(reverse("reminders:preferences")),
    }


def notify_holder(
    *,
    holder: Holder,
    event: Event | str,
    dedup_key: str,
    subject: str,
    what: str,
    path: str,
    due: dt.date | None = None,
    citation: str = "",
    advice: str = "",
) -> int:
    """Queue a message to the holder's account (e-mail and, if chosen, SMS). Returns how many.

    For the events of the day (a request decided: `Event.REQUEST`; a complaint answered:
    `Event.COMPLAINT`): call it inside the transaction that records the event, with a dedup key
    naming it (`"requerimento:<id>:decidido"`), so a rolled-back decision sends nothing and a
    repeated call sends once. A holder without an account gets nothing (0).
    """
    account = HolderAccount.objects.filter(holder=holder).select_related("user").first()
    if account is None or not account.user.is_active:
        return 0
    user = account.user
    agency = Jurisdiction.objects.get(pk=holder.jurisdiction_id)
    messages = outbox.enqueue(
        event=event,
        template=TEMPLATE,
        context=context(
            name=str(user),
            agency=agency,
            subject=subject,
            what=what,
            path=path,
            due=due,
            citation=citation,
            advice=advice,
        ),
        dedup_key=dedup_key,
        user=user,
        email=email_of(user, holder),
        phone=phone_of(user, holder),
        jurisdiction=agency,
    )
    return len(messages)


def _holder_reminder(reminder: Reminder, agencies: dict[str, Jurisdiction], counts: Counter[str]) -> None:
    holder = Holder.unscoped.select_related("person", "company").get(pk=reminder.holder_id)
    with transaction.atomic():
        queued = notify_holder(
            holder=holder,
            event=reminder.event,
            dedup_key=reminder.key,
            subject=reminder.subject,
            what=reminder.what,
            path=reminder.path,
            due=reminder.due,
            citation=reminder.citation,
            advice=reminder.advice,
        )
    counts["mensagens"] += queued
    if not queued:
        counts["sem_conta_ou_endereco"] += 1


def _items(count: int) -> str:
    return "1 novo item" if count == 1 else f"{count} novos itens"


def staff_digest(day: dt.date, agencies: dict[str, Jurisdiction], counts: Counter[str]) -> None:
    """Managers and clerks: the work items that opened today with a date (the work queue's job ran
    before this one), one message per person and day."""
    opened = (
        WorkItem.unscoped.filter(status=WorkItem.Status.OPEN, first_seen=day, due_on__isnull=False)
        .order_by("due_on", "pk")
        .values_list("jurisdiction_id", "title", "due_on")
    )
    by_agency: dict[str, list[str]] = {}
    for jurisdiction_id, title, due_on in opened:
        by_agency.setdefault(jurisdiction_id, []).append(f"{title} (data: {due_on:%d/%m/%Y})")
    for jurisdiction_id, titles in by_agency.items():
        agency = _agency(jurisdiction_id, agencies)
        members = (
            StaffMembership.objects.filter(
                jurisdiction_id=jurisdiction_id, role__in=STAFF_ROLES, active=True, user__is_active=True
            )
            .select_related("user")
            .order_by("user_id")
        )
        seen: set[int] = set()
        for membership in members:
            user = membership.user
            if user.pk in seen or not user.email:
                continue
            seen.add(user.pk)
            shown = titles[:30]
            more = len(titles) - len(shown)
            with transaction.atomic():
                queued = outbox.enqueue(
                    event=Event.DEADLINE,
                    template=TEMPLATE,
                    context=context(
                        name=str(user),
                        agency=agency,
                        subject=f"Fila de trabalho: {_items(len(titles))} com prazo",
                        what=f"{_items(len(titles))} com prazo "
                        f"{'entrou' if len(titles) == 1 else 'entraram'} hoje na fila de trabalho"
                        + (f" (os primeiros 30 abaixo; mais {more} na fila)." if more else "."),
                        lines=shown,
                        path=reverse("workqueue:queue"),
                    ),
                    dedup_key=f"lembrete:equipe:{jurisdiction_id}:{user.pk}:{day.isoformat()}",
                    user=user,
                    email=user.email,
                    phone=phone_of(user),
                    jurisdiction=agency,
                )
            counts["mensagens_equipe"] += len(queued)


def run(day: dt.date) -> dict[str, int]:
    """The nightly job: the day's reminders into the outbox (sent by send_outbox or the worker)."""
    counts: Counter[str] = Counter()
    agencies: dict[str, Jurisdiction] = {}
    for name, source in SOURCES:
        for reminder in source(day):
            counts[name] += 1
            _holder_reminder(reminder, agencies, counts)
    staff_digest(day, agencies, counts)
    return dict(counts)
