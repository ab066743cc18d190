"""Notifying an infraction notice and the agency's own deadline to notify.

`record_notification` stores how a notice was notified (by hand, by post with AR, by edital) and
the date it counts as served, read from the pack: the engine's edital deadline where the law sets
one, a returned notice counted only where the law says so, agents' notices sent to the holder
where the law says so. `overdue_notices` / `apply_missed_deadlines` are the daily job: notices not
served by the engine's notification deadline get the pack's effect (archive or flag).
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

from lotacao.core.law import entry, evaluate_case, value
from lotacao.core.services import create_audited, update_audited
from lotacao.enforcement.models import AGENT_KINDS, InfractionNotice, NoticeService
from lotacao.enforcement.reading import br as _br
from lotacao.enforcement.reading import infraction_day as _infraction_day
from lotacao.enforcement.reading import silence_text as _silence

Method = NoticeService.Method
ReturnReason = NoticeService.ReturnReason
OVERDUE_KIND = "enforcement.notification_overdue"


def holder_address(holder: Any) -> str:
    if holder is None:
        return ""
    if holder.person is not None:
        return str(holder.person.address_display)
    company = holder.company
    if company is None:
        return ""
    return "/".join(p for p in (company.city, company.state) if p)


def _address(notice: InfractionNotice, given: str, on: dt.date) -> tuple[str, bool, list[str], str]:
    """The address the notification goes to: (address, to the holder, citations, explanation)."""
    code = notice.jurisdiction_id
    to_holder = value(code, "notice.agent_notice_to_holder", on) is True
    if notice.offender_kind in AGENT_KINDS and notice.holder is not None and to_holder:
        found = entry(code, "notice.agent_notice_to_holder", on)
        cite = str(found.citation) if found is not None else ""
        return (
            holder_address(notice.holder),
            True,
            [cite],
            f"Notificação de preposto encaminhada ao domicílio do permissionário ({cite}).",
        )
    if given.strip():
        return given.strip(), False, [], ""
    if notice.offender_kind in AGENT_KINDS and notice.agent is not None:
        return str(notice.agent.address_display), False, [], ""
    return holder_address(notice.holder), notice.holder_id is not None, [], ""


def _deadline_case(code: str, deadline: str, start: dt.date) -> dict[str, Any]:
    return {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": start.isoformat()}


def _check_date(label: str, day: dt.date | None, infraction: dt.date, today: dt.date) -> list[str]:
    if day is None:
        return []
    if day < infraction:
        return [f"A data {label} ({_br(day)}) não pode ser anterior à infração ({_br(infraction)})."]
    if day > today:
        return [f"A data {label} ({_br(day)}) não pode ser futura."]
    return []


@transaction.atomic
def record_notification(
    *,
    actor: Any,
    notice: InfractionNotice,
    method: str,
    sent_on: dt.date | None = None,
    received_on: dt.date | None = None,
    published_on: dt.date | None = None,
    returned: bool = False,
    returned_reason: str = "",
    returned_note: str = "",
    address: str = "",
    reason: str = "Notificação do auto registrada",
    today: dt.date | None = None,
) -> NoticeService:
    """Record a notification and the date it counts as served; refuse (changing nothing) what the
    law does not accept. `received_on` of a returned letter is the date it came back."""
    notice = InfractionNotice.unscoped.select_for_update().select_related("jurisdiction").get(pk=notice.pk)
    code = notice.jurisdiction_id
    today = today or timezone.localdate()
    infraction = _infraction_day(notice)
    if notice.status in (InfractionNotice.Status.ARCHIVED, InfractionNotice.Status.ANNULLED):
        raise ValidationError(
            f"O auto {notice.number} está {notice.get_status_display().lower()}: não cabe notificação."
        )
    if notice.served_on is not None:
        raise ValidationError(f"O auto {notice.number} já foi notificado em {_br(notice.served_on)}.")
    if method not in Method.values:
        raise ValidationError("Meio de notificação desconhecido: em mãos, via postal com AR ou edital.")
    errors = (
        _check_date("de envio", sent_on, infraction, today)
        + _check_date("de recebimento", received_on, infraction, today)
        + _check_date("de publicação do edital", published_on, infraction, today)
    )
    if errors:
        raise ValidationError(errors)
    citations: list[str] = []
    missing: list[str] = []
    if returned and method != Method.POST_AR:
        raise ValidationError("Só a notificação enviada por via postal pode ser registrada como devolvida.")
    if method == Method.HAND:
        if received_on is None:
            raise ValidationError("Informe a data da ciência do notificado (entrega em mãos).")
        served_on = received_on
        explanation = (
            f"Notificação entregue em mãos: considera-se feita na data da ciência, {_br(served_on)}."
        )
    elif method == Method.POST_AR and not returned and received_on is None:
        if sent_on is None:
            raise ValidationError(
                "Informe a data do envio (se ainda aguarda o AR) ou a data do recebimento consignada no "
                "aviso de recebimento (AR)."
            )
        return _record_sending(actor, notice, sent_on, address, infraction, reason)
    elif method == Method.POST_AR and not returned:
        assert received_on is not None  # the sending alone returned above
        served_on = received_on
        explanation = (
            f"Notificação por via postal com AR: considera-se feita na data do recebimento, {_br(served_on)}."
        )
    elif method == Method.POST_AR:
        if received_on is None:
            raise ValidationError("Informe a data em que a notificação foi devolvida.")
        if returned_reason not in ReturnReason.values:
            raise ValidationError("Informe o motivo da devolução da notificação.")
        counts = value(code, "notice.returned_counts_as_served", infraction)
        if returned_reason != ReturnReason.OUTDATED_ADDRESS:
            why = (
                "A notificação devolvida por motivo que não seja endereço ou cadastro desatualizado "
                "não vale como notificação: faça nova tentativa."
            )
            return _record_failed(
                actor, notice, sent_on, received_on, returned_reason, returned_note, address, why, reason
            )
        if counts is not True:
            why = (
                "A notificação devolvida não pode ser considerada válida: "
                f"{_silence(code, 'notice.returned_counts_as_served', infraction)}. "
                "Faça nova tentativa de notificação."
            )
            return _record_failed(
                actor, notice, sent_on, received_on, returned_reason, returned_note, address, why, reason
            )
        found = entry(code, "notice.returned_counts_as_served", infraction)
        cite = str(found.citation) if found is not None else ""
        citations.append(cite)
        served_on = received_on
        explanation = (
            "Notificação devolvida por desatualização do endereço cadastrado, considerada válida para "
            f"todos os efeitos ({cite}); considera-se feita na data da devolução, {_br(served_on)}."
        )
    else:
        if published_on is None:
            raise ValidationError("Informe a data de publicação do edital.")
        if value(code, "notice.edital_requires_failed_attempt", infraction) is True and not _failed(notice):
            found = entry(code, "notice.edital_requires_failed_attempt", infraction)
            raise ValidationError(
                "O edital só cabe quando os outros meios resultarem inócuos "
                f"({found.citation if found is not None else ''}): registre antes a tentativa frustrada "
                "(correspondência devolvida)."
            )
        deadline = value(code, "notice.edital_service_deadline", infraction)
        if deadline:
            result = evaluate_case(_deadline_case(code, deadline, published_on))
            if "error" in result:
                raise ValidationError(str(result["error"].get("message", "Prazo do edital inválido.")))
            served_on = dt.date.fromisoformat(str(result["due"]))
            explanation = str(result.get("explanation", ""))
            citations += list(result.get("citations", []))
            missing += list(result.get("missing_parameters", []))
        else:
            served_on = published_on
            missing.append("notice.edital_service_deadline")
            explanation = (
                "A lei é omissa sobre quando a notificação por edital se considera feita: "
                f"{_silence(code, 'notice.edital_service_deadline', infraction)}. "
                f"Adota-se a data da publicação, {_br(published_on)}."
            )
    waiting = _awaiting_ar(notice) if method == Method.POST_AR else None
    if waiting is not None and not address.strip():
        address = waiting.address
    used, to_holder, address_cites, address_note = _address(notice, address, infraction)
    if method == Method.POST_AR and not used:
        raise ValidationError("Informe o endereço para o qual a notificação foi enviada.")
    citations += address_cites
    if address_note:
        explanation = f"{explanation} {address_note}"
    if waiting is not None:
        sent_on = sent_on or waiting.sent_on
    service = waiting or NoticeService(
        jurisdiction=notice.jurisdiction,
        notice=notice,
        method=method,
        sent_on=sent_on,
        received_on=received_on,
        published_on=published_on,
        returned=returned,
        returned_reason=returned_reason if returned else "",
        returned_note=returned_note.strip(),
        address=used,
        addressed_to_holder=to_holder,
        served_on=served_on,
        explanation=explanation,
        citations=citations,
        missing_parameters=sorted(set(missing)),
        recorded_by=actor if getattr(actor, "pk", None) else None,
    )
    if waiting is not None:
        changes = {
            "sent_on": sent_on,
            "received_on": received_on,
            "returned": returned,
            "returned_reason": returned_reason if returned else "",
            "returned_note": returned_note.strip(),
            "address": used,
            "served_on": served_on,
            "explanation": explanation,
            "citations": citations,
            "missing_parameters": sorted(set(missing)),
        }
        update_audited(
            actor=actor,
            instance=waiting,
            changes=changes,
            reason=reason,
            action="enforcement.notice_ar_returned",
        )
    else:
        create_audited(actor=actor, instance=service, reason=reason, action="enforcement.notice_notification")
    update_audited(
        actor=actor,
        instance=notice,
        changes={"served_on": served_on, "status": InfractionNotice.Status.NOTIFIED},
        reason=reason,
        action="enforcement.notice_served",
    )
    _late_service(notice, served_on, sent_on, infraction, actor)
    from lotacao.enforcement.sanctions.fines import sync_fine  # the fine's due date may start with service

    sync_fine(actor=actor, notice=InfractionNotice.unscoped.get(pk=notice.pk), on=served_on)
    return service


def _awaiting_ar(notice: InfractionNotice) -> NoticeService | None:
    return (
        NoticeService.unscoped.filter(
            notice=notice, method=Method.POST_AR, served_on__isnull=True, returned=False
        )
        .order_by("-id")
        .first()
    )


def _failed(notice: InfractionNotice) -> bool:
    """Whether a notification was attempted and came to nothing (a letter returned that does not
    count): what Maricá requires before an edital (art. 63, III)."""
    return NoticeService.unscoped.filter(notice=notice, returned=True, served_on__isnull=True).exists()


def _record_failed(
    actor: Any,
    notice: InfractionNotice,
    sent_on: dt.date | None,
    returned_on: dt.date,
    returned_reason: str,
    returned_note: str,
    address: str,
    why: str,
    reason: str,
) -> NoticeService:
    """A letter returned that does not count as notification: recorded (it is the proof that the
    ordinary means failed), the notice stays unserved."""
    waiting = _awaiting_ar(notice)
    changes = {
        "sent_on": sent_on or (waiting.sent_on if waiting is not None else None),
        "received_on": returned_on,
        "returned": True,
        "returned_reason": returned_reason,
        "returned_note": returned_note.strip(),
        "served_on": None,
        "explanation": why,
    }
    if waiting is not None:
        return update_audited(
            actor=actor,
            instance=waiting,
            changes=changes,
            reason=reason,
            action="enforcement.notice_attempt_failed",
        )
    used = address.strip() or holder_address(notice.holder)
    service = NoticeService(
        jurisdiction=notice.jurisdiction,
        notice=notice,
        method=Method.POST_AR,
        address=used,
        recorded_by=actor if getattr(actor, "pk", None) else None,
        **changes,
    )
    return create_audited(
        actor=actor, instance=service, reason=reason, action="enforcement.notice_attempt_failed"
    )


def _record_sending(
    actor: Any, notice: InfractionNotice, sent_on: dt.date, address: str, infraction: dt.date, reason: str
) -> NoticeService:
    """A letter sent by post whose AR has not come back: it is not yet served, but where the law's
    deadline to notify is the sending's (`notice.notification_deadline_event` = sent: Esteio
    Anexo I art. 18 § 2º; Pernambuco art. 25 § 2º) it keeps the notice within the deadline."""
    if _awaiting_ar(notice) is not None:
        raise ValidationError(
            "Já há uma notificação enviada aguardando o AR: registre o recebimento ou a devolução."
        )
    used, to_holder, citations, note = _address(notice, address, infraction)
    if not used:
        raise ValidationError("Informe o endereço para o qual a notificação foi enviada.")
    service = NoticeService(
        jurisdiction=notice.jurisdiction,
        notice=notice,
        method=Method.POST_AR,
        sent_on=sent_on,
        address=used,
        addressed_to_holder=to_holder,
        served_on=None,
        explanation=(
            f"Enviada por via postal com AR em {_br(sent_on)}; aguardando o aviso de recebimento. {note}"
        ).strip(),
        citations=citations,
        recorded_by=actor if getattr(actor, "pk", None) else None,
    )
    return create_audited(actor=actor, instance=service, reason=reason, action="enforcement.notice_sent")


def _late_service(
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
    found = entry(code, "notice.missed_notification_effect", infraction)
    cite = str(found.citation) if found is not None else ""
    why = (
        f"Notificação feita em {_br(served_on)}, depois do prazo do órgão para notificar "
        f"({_br(due)}; {cite})."
    )
    if effect == "archive":
        update_audited(
            actor=actor,
            instance=notice,
            changes={
                "status": InfractionNotice.Status.ARCHIVED,
                "archived_on": served_on,
                "archive_reason": f"Auto arquivado. {why}",
            },
            reason=why,
            action="enforcement.notice_archived",
        )
    else:
        service = notice.services.order_by("-id").first()
        if service is not None:
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


LATE_KIND = "enforcement.notification_late"
ARCHIVABLE = (InfractionNotice.Status.DRAWN_UP, InfractionNotice.Status.NOTIFIED)


@transaction.atomic
def archive_notice(
    *, actor: Any, notice: InfractionNotice, reason: str, on: dt.date | None = None
) -> InfractionNotice:
    """A manager archives a notice (e.g. one not notified in time where the law leaves it to the
    agency); a reason is required and audited. Decided, annulled or archived notices cannot be."""
    if not (reason or "").strip():
        raise ValidationError("Informe o motivo do arquivamento.")
    notice = InfractionNotice.unscoped.select_for_update().get(pk=notice.pk)
    if notice.status not in ARCHIVABLE:
        raise ValidationError(
            f"O auto {notice.number} está {notice.get_status_display().lower()}: não pode ser arquivado."
        )
    day = on or timezone.localdate()
    update_audited(
        actor=actor,
        instance=notice,
        changes={
            "status": InfractionNotice.Status.ARCHIVED,
            "archived_on": day,
            "archive_reason": reason.strip(),
        },
        reason=reason,
        action="enforcement.notice_archived",
    )
    for service in NoticeService.unscoped.filter(notice=notice, late=True, late_decision=""):
        update_audited(
            actor=actor,
            instance=service,
            changes={"late_decision": "archived"},
            reason=reason,
            action="enforcement.late_decided",
        )
    from lotacao.enforcement.sanctions.fines import sync_fine

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


def late_items(today: dt.date) -> Iterator[Any]:
    """Work items: notices notified after the agency's deadline where the law only sets it, until a
    manager archives them or decides to go on."""
    from lotacao.workqueue.services import WorkItemSpec

    rows = NoticeService.unscoped.filter(
        late=True, late_decision="", notice__status__in=ARCHIVABLE
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


@dataclass(frozen=True)
class Overdue:
    notice_id: int
    jurisdiction_id: str
    number: str
    due: dt.date
    effect: str
    citation: str
    explanation: str


def overdue_notices(today: dt.date, jurisdictions: Iterable[str] | None = None) -> list[Overdue]:
    """Notices not served by the agency's deadline to notify (the engine's), with the pack's
    effect. One query per jurisdiction; the engine is asked once per distinct infraction day."""
    from lotacao.core.models import Jurisdiction

    out: list[Overdue] = []
    rows = Jurisdiction.objects.all()
    if jurisdictions is not None:
        rows = rows.filter(code__in=list(jurisdictions))
    for jurisdiction in rows:
        code = jurisdiction.code
        deadline = value(code, "notice.notification_deadline", today)
        effect = value(code, "notice.missed_notification_effect", today)
        if not deadline or effect not in ("archive", "flag"):
            continue
        found = entry(code, "notice.missed_notification_effect", today)
        effect_cite = str(found.citation) if found is not None else ""
        zone = ZoneInfo(jurisdiction.timezone or "America/Sao_Paulo")
        by_sending = value(code, "notice.notification_deadline_event", today) == "sent"
        candidates = InfractionNotice.unscoped.filter(
            jurisdiction_id=code,
            status__in=[InfractionNotice.Status.DRAWN_UP, InfractionNotice.Status.NOTIFIED],
            drawn_up_at__lt=dt.datetime.combine(today, dt.time.min, tzinfo=zone),
        ).filter(served_on__isnull=True)
        if by_sending:
            candidates = candidates.annotate(
                first_sent=Min("services__sent_on", filter=Q(services__returned=False))
            )
        else:
            candidates = candidates.annotate(first_sent=Value(None, output_field=DateField()))
        cache: dict[dt.date, dict[str, Any]] = {}
        rows = candidates.values_list("pk", "number", "drawn_up_at", "served_on", "first_sent")
        for pk, number, drawn_up_at, served_on, first_sent in rows.iterator(chunk_size=5000):
            start = drawn_up_at.astimezone(zone).date()
            result = cache.get(start)
            if result is None:
                result = evaluate_case(_deadline_case(code, deadline, start))
                cache[start] = result
            if "due" not in result:
                continue
            due = dt.date.fromisoformat(str(result["due"]))
            if due >= today or (served_on is not None and served_on <= due):
                continue
            if first_sent is not None and first_sent <= due:
                continue  # sent in time: what the law's deadline asks for (event = sent)
            out.append(
                Overdue(pk, code, number, due, str(effect), effect_cite, str(result.get("explanation", "")))
            )
    return out


@dataclass
class JobResult:
    archived: int = 0
    flagged: int = 0
    already_flagged: int = 0


def apply_missed_deadlines(*, today: dt.date, actor: Any = None) -> JobResult:
    """The daily job: archive where the law archives, flag for a manager elsewhere (idempotent)."""
    from lotacao.workqueue.models import WorkItem

    result = JobResult()
    overdue = overdue_notices(today)
    to_flag = [o for o in overdue if o.effect == "flag"]
    for item in overdue:
        if item.effect != "archive":
            continue
        with transaction.atomic():
            notice = InfractionNotice.unscoped.select_for_update().get(pk=item.notice_id)
            if notice.status not in (InfractionNotice.Status.DRAWN_UP, InfractionNotice.Status.NOTIFIED):
                continue
            why = (
                f"Auto arquivado: o infrator não foi notificado até {_br(item.due)}, prazo do órgão "
                f"para notificar ({item.citation})."
            )
            update_audited(
                actor=actor,
                instance=notice,
                changes={
                    "status": InfractionNotice.Status.ARCHIVED,
                    "archived_on": today,
                    "archive_reason": why,
                },
                reason=why,
                action="enforcement.notice_archived",
            )
            result.archived += 1
    if to_flag:
        open_keys = set(
            WorkItem.unscoped.filter(
                kind=OVERDUE_KIND, status=WorkItem.Status.OPEN, key__in=[_key(o) for o in to_flag]
            ).values_list("jurisdiction_id", "key")
        )
        new = [
            WorkItem(
                jurisdiction_id=o.jurisdiction_id,
                kind=OVERDUE_KIND,
                key=_key(o),
                title=_title(o),
                due_on=o.due,
                url=f"/fiscalizacao/autos/{o.notice_id}/",
                first_seen=today,
                last_seen=today,
            )
            for o in to_flag
            if (o.jurisdiction_id, _key(o)) not in open_keys
        ]
        WorkItem.unscoped.bulk_create(new, batch_size=2000)
        result.flagged = len(new)
        result.already_flagged = len(to_flag) - len(new)
    return result


def _key(item: Overdue) -> str:
    return f"notice:{item.notice_id}"


def _title(item: Overdue) -> str:
    return (
        f"Auto nº {item.number} não notificado no prazo (venceu em {_br(item.due)}; {item.citation}): "
        "a lei não manda arquivar — decidir"
    )[:300]
