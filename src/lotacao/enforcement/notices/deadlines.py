"""The agency's own deadline to notify a notice, and what the law makes of missing it.

The engine's deadline `notice.notification_deadline` (Recife/Esteio `notification`, Pernambuco
`notice_copy`), met by the notification done or — where `notice.notification_deadline_event` is
`sent` — by the sending. A notice not served in time gets `notice.missed_notification_effect`:
`archive` (Recife art. 29 § 1º: the daily job archives it; a notification recorded late archives
it at once) or `flag` (a manager decides: the work item `enforcement.notification_overdue` while
unserved, `enforcement.notification_late` once served late, until `archive_notice` or
`keep_late_notice`).

The work items come from the producers here (`flagged_items`, `late_items`): the nightly queue
provider yields them, and the daily job opens the flagged ones at once through the same producer.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import DateField, Min, Q, Value
from django.utils import timezone

from lotacao.audit.services import update_audited
from lotacao.core.law import entry, evaluate_case, value
from lotacao.enforcement.models import InfractionNotice, NoticeService
from lotacao.enforcement.notices import states
from lotacao.enforcement.reading import DEFAULT_ZONE, br
from lotacao.enforcement.sanctions.fines import sync_fine
from lotacao.enforcement.work_items import open_now
from lotacao.workqueue.services import WorkItemSpec

OVERDUE_KIND = "enforcement.notification_overdue"
LATE_KIND = "enforcement.notification_late"
UNSERVED = states.ARCHIVE_UNSERVED.sources  # the statuses the daily job looks at


def _deadline_case(code: str, deadline: str, start: dt.date) -> dict[str, Any]:
    return {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": start.isoformat()}


def _cite(code: str, parameter: str, on: dt.date) -> str:
    found = entry(code, parameter, on)
    return str(found.citation) if found is not None else ""


# ------------------------------------------------------------ a notification recorded late


def after_late_service(
    notice: InfractionNotice, served_on: dt.date, sent_on: dt.date | None, infraction: dt.date, actor: Any
) -> None:
    """A notification recorded as served after the agency's deadline to notify: where the law
    archives (Recife art. 29 § 1º) the notice is archived now — the daily job only sees notices
    still unserved; elsewhere the service's explanation says it was late, for the manager."""
    code = notice.jurisdiction_id
    deadline = value(code, "notice.notification_deadline", infraction)
    effect = value(code, "notice.missed_notification_effect", infraction)
    if not deadline or effect not in ("archive", "flag"):
        return
    result = evaluate_case(_deadline_case(code, str(deadline), infraction))
    if "due" not in result:
        return
    due = dt.date.fromisoformat(str(result["due"]))
    by_sending = value(code, "notice.notification_deadline_event", infraction) == "sent"
    if served_on <= due or (by_sending and sent_on is not None and sent_on <= due):
        return
    cite = _cite(code, "notice.missed_notification_effect", infraction)
    why = (
        f"Notificação feita em {br(served_on)}, depois do prazo do órgão para notificar ({br(due)}; {cite})."
    )
    if effect == "archive":
        states.transition(
            notice,
            states.ARCHIVE_LATE_SERVICE,
            actor=actor,
            reason=why,
            changes={"archived_on": served_on, "archive_reason": f"Auto arquivado. {why}"},
            citation=cite,
        )
    else:
        _flag_late(notice, why, actor)


def _flag_late(notice: InfractionNotice, why: str, actor: Any) -> None:
    service = notice.services.order_by("-id").first()
    if service is None:
        return
    update_audited(
        actor=actor,
        instance=service,
        changes={
            "explanation": f"{service.explanation} {why} A lei não manda arquivar: decida.".strip(),
            "late": True,
        },
        reason=why,
        action="enforcement.notice_served_late",
    )


# ------------------------------------------------------------------- the manager decides


@transaction.atomic
def archive_notice(
    *, actor: Any, notice: InfractionNotice, reason: str, on: dt.date | None = None
) -> InfractionNotice:
    """A manager archives a notice (e.g. one not notified in time where the law leaves it to the
    agency); a reason is required and audited. Decided, annulled or archived notices cannot be."""
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo do arquivamento.")
    notice = InfractionNotice.unscoped.select_for_update().get(pk=notice.pk)
    day = on or timezone.localdate()
    states.transition(
        notice,
        states.ARCHIVE,
        actor=actor,
        reason=reason,
        changes={"archived_on": day, "archive_reason": reason.strip()},
    )
    for service in NoticeService.unscoped.filter(notice=notice, late=True, late_decision=""):
        update_audited(
            actor=actor,
            instance=service,
            changes={"late_decision": "archived"},
            reason=reason,
            action="enforcement.late_decided",
        )
    sync_fine(actor=actor, notice=notice, on=day)
    return notice


@transaction.atomic
def keep_late_notice(*, actor: Any, notice: InfractionNotice, reason: str) -> NoticeService:
    """A manager decides to go on with a notice notified after the agency's deadline."""
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo da decisão.")
    service = (
        NoticeService.unscoped.select_for_update().filter(notice=notice, late=True, late_decision="").first()
    )
    if service is None:
        raise ValidationError("Não há notificação fora do prazo aguardando decisão neste auto.")
    return update_audited(
        actor=actor,
        instance=service,
        changes={"late_decision": "kept"},
        reason=reason,
        action="enforcement.late_decided",
    )


def late_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items: notices notified after the agency's deadline where the law only sets it, until a
    manager archives them or decides to go on."""
    rows = NoticeService.unscoped.filter(
        late=True, late_decision="", notice__status__in=states.ARCHIVE.sources
    ).select_related("notice")
    for service in rows:
        yield WorkItemSpec(
            jurisdiction_id=service.jurisdiction_id,
            kind=LATE_KIND,
            key=f"notice:{service.notice_id}",
            title=f"Auto nº {service.notice.number} notificado fora do prazo do órgão: arquivar ou seguir",
            due_on=today,
            url=f"/fiscalizacao/autos/{service.notice_id}/",
        )


# ------------------------------------------------------------------------ the daily job


@dataclass(frozen=True)
class Overdue:
    notice_id: int
    jurisdiction_id: str
    number: str
    due: dt.date
    effect: str
    citation: str
    explanation: str


@dataclass(frozen=True)
class _Rule:
    """A jurisdiction's deadline to notify, read once per run."""

    code: str
    deadline: str
    effect: str
    citation: str
    by_sending: bool
    zone: ZoneInfo


def _rule(jurisdiction: Any, today: dt.date) -> _Rule | None:
    code = jurisdiction.code
    deadline = value(code, "notice.notification_deadline", today)
    effect = value(code, "notice.missed_notification_effect", today)
    if not deadline or effect not in ("archive", "flag"):
        return None
    return _Rule(
        code,
        str(deadline),
        str(effect),
        _cite(code, "notice.missed_notification_effect", today),
        value(code, "notice.notification_deadline_event", today) == "sent",
        ZoneInfo(jurisdiction.timezone or DEFAULT_ZONE),
    )


def _unserved(rule: _Rule, today: dt.date) -> Any:
    """The jurisdiction's notices not served before today (one query), with the first sending
    where a letter sent in time meets the deadline."""
    candidates = InfractionNotice.unscoped.filter(
        jurisdiction_id=rule.code,
        status__in=list(UNSERVED),
        drawn_up_at__lt=dt.datetime.combine(today, dt.time.min, tzinfo=rule.zone),
    ).filter(served_on__isnull=True)
    if rule.by_sending:
        candidates = candidates.annotate(
            first_sent=Min("services__sent_on", filter=Q(services__returned=False))
        )
    else:
        candidates = candidates.annotate(first_sent=Value(None, output_field=DateField()))
    return candidates.values_list("pk", "number", "drawn_up_at", "served_on", "first_sent")


def _overdue_in(rule: _Rule, today: dt.date) -> Iterator[Overdue]:
    """The engine is asked once per distinct infraction day."""
    cache: dict[dt.date, dict[str, Any]] = {}
    for pk, number, drawn_up_at, served_on, first_sent in _unserved(rule, today).iterator(chunk_size=5000):
        start = drawn_up_at.astimezone(rule.zone).date()
        result = cache.get(start)
        if result is None:
            result = cache[start] = evaluate_case(_deadline_case(rule.code, rule.deadline, start))
        if "due" not in result:
            continue
        due = dt.date.fromisoformat(str(result["due"]))
        if due >= today or (served_on is not None and served_on <= due):
            continue
        if first_sent is not None and first_sent <= due:
            continue  # sent in time: what the law's deadline asks for (event = sent)
        yield Overdue(
            pk, rule.code, number, due, rule.effect, rule.citation, str(result.get("explanation", ""))
        )


def overdue_notices(today: dt.date, jurisdictions: Iterable[str] | None = None) -> list[Overdue]:
    """Notices not served by the agency's deadline to notify (the engine's), with the pack's
    effect. One query per jurisdiction; the engine is asked once per distinct infraction day."""
    from lotacao.core.models import Jurisdiction

    rows = Jurisdiction.objects.all()
    if jurisdictions is not None:
        rows = rows.filter(code__in=list(jurisdictions))
    out: list[Overdue] = []
    for jurisdiction in rows:
        rule = _rule(jurisdiction, today)
        if rule is not None:
            out.extend(_overdue_in(rule, today))
    return out


def flagged_items(overdue: Iterable[Overdue]) -> list[WorkItemSpec]:
    """The work items of the notices the law only flags: what the nightly queue keeps and the
    daily job opens at once (one producer for both)."""
    return [
        WorkItemSpec(
            jurisdiction_id=o.jurisdiction_id,
            kind=OVERDUE_KIND,
            key=f"notice:{o.notice_id}",
            title=(
                f"Auto nº {o.number} não notificado no prazo (venceu em {br(o.due)}; {o.citation}): "
                "a lei não manda arquivar — decidir"
            )[:300],
            due_on=o.due,
            url=f"/fiscalizacao/autos/{o.notice_id}/",
        )
        for o in overdue
        if o.effect == "flag"
    ]


def overdue_items(today: dt.date) -> list[WorkItemSpec]:
    """The nightly queue's view of the same notices (see `flagged_items`)."""
    return flagged_items(overdue_notices(today))


@dataclass
class JobResult:
    archived: int = 0
    flagged: int = 0
    already_flagged: int = 0


def _archive_unserved(item: Overdue, today: dt.date, actor: Any) -> bool:
    with transaction.atomic():
        notice = InfractionNotice.unscoped.select_for_update().get(pk=item.notice_id)
        if not states.allows(notice, states.ARCHIVE_UNSERVED):
            return False  # closed meanwhile
        why = (
            f"Auto arquivado: o infrator não foi notificado até {br(item.due)}, prazo do órgão "
            f"para notificar ({item.citation})."
        )
        states.transition(
            notice,
            states.ARCHIVE_UNSERVED,
            actor=actor,
            reason=why,
            changes={"archived_on": today, "archive_reason": why},
            citation=item.citation,
        )
    return True


def apply_missed_deadlines(*, today: dt.date, actor: Any = None) -> JobResult:
    """The daily job: archive where the law archives, flag for a manager elsewhere (idempotent)."""
    result = JobResult()
    overdue = overdue_notices(today)
    result.archived = sum(_archive_unserved(o, today, actor) for o in overdue if o.effect == "archive")
    flagged = flagged_items(overdue)
    result.flagged = open_now(flagged, today)
    result.already_flagged = len(flagged) - result.flagged
    return result
