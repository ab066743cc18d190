"""Notifying an infraction notice: how it was notified (by hand, by post with AR, by edital) and
the date it counts as served, read from the pack.

`record_notification` follows the law's steps: the notice must still be open to notification and
the clerk's report complete; a letter sent whose AR has not come back is recorded as a sending; a
letter returned counts only where the law says so (otherwise it is a failed attempt, the proof the
ordinary means failed); the date served is the day of receipt (by hand, AR), of the return (an
outdated address, where it counts) or the engine's edital deadline (Maricá `edital_service`, art.
63 § 2º, c; where the law is silent, the publication date, saying so); an agent's notice goes to
the holder's address where the law says so. Then the notice is notified (`states.transition`), a
notification after the agency's deadline takes the law's effect (`deadlines.after_late_service`)
and the fine's due date may start. Refusals change nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.law import entry, evaluate_case, value
from lotacao.enforcement.models import AGENT_KINDS, InfractionNotice, NoticeService
from lotacao.enforcement.notices import states
from lotacao.enforcement.notices.deadlines import after_late_service
from lotacao.enforcement.reading import br, infraction_day, silence_text
from lotacao.enforcement.sanctions.fines import sync_fine

Method = NoticeService.Method
ReturnReason = NoticeService.ReturnReason
DEFAULT_REASON = "Notificação do auto registrada"


@dataclass(frozen=True)
class Report:
    """What the clerk reports of one notification (`received_on` of a returned letter is the
    date it came back)."""

    method: str
    sent_on: dt.date | None = None
    received_on: dt.date | None = None
    published_on: dt.date | None = None
    returned: bool = False
    returned_reason: str = ""
    returned_note: str = ""
    address: str = ""

    @property
    def awaiting_ar(self) -> bool:
        """A letter sent by post whose AR has not come back yet."""
        return self.method == Method.POST_AR and not self.returned and self.received_on is None


@dataclass
class Served:
    """When the notification counts as served, why, and on what grounds."""

    on: dt.date
    explanation: str
    citations: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class FailedAttempt:
    """A returned letter that does not count as notification, and why."""

    why: str


# ------------------------------------------------------------------------------ the service


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
    reason: str = DEFAULT_REASON,
    today: dt.date | None = None,
) -> NoticeService:
    """Record a notification and the date it counts as served; refuse (changing nothing) what the
    law does not accept. `received_on` of a returned letter is the date it came back."""
    notice = InfractionNotice.unscoped.select_for_update().select_related("jurisdiction").get(pk=notice.pk)
    report = Report(
        method, sent_on, received_on, published_on, returned, returned_reason, returned_note.strip(), address
    )
    infraction = infraction_day(notice)
    states.check(notice, _notify_action(notice))
    _check_report(report, infraction, today or timezone.localdate())
    if report.awaiting_ar:
        return _record_sending(actor, notice, report, infraction, reason)
    outcome = _when_served(notice, report, infraction)
    if isinstance(outcome, FailedAttempt):
        return _record_failed(actor, notice, report, outcome.why, reason)
    service = _record_service(actor, notice, report, outcome, infraction, reason)
    states.transition(
        notice, _notify_action(notice), actor=actor, reason=reason, changes={"served_on": outcome.on}
    )
    after_late_service(notice, outcome.on, service.sent_on, infraction, actor)
    # the fine's due date may start with the service
    sync_fine(actor=actor, notice=InfractionNotice.unscoped.get(pk=notice.pk), on=outcome.on)
    return service


def _notify_action(notice: InfractionNotice) -> states.Action:
    return states.SERVE_AFTER_FINAL if notice.status == states.DECIDED_FINAL else states.NOTIFY


# ----------------------------------------------------------------- is the report complete?


def _check_date(label: str, day: dt.date | None, infraction: dt.date, today: dt.date) -> list[str]:
    if day is None:
        return []
    if day < infraction:
        return [f"A data {label} ({br(day)}) não pode ser anterior à infração ({br(infraction)})."]
    if day > today:
        return [f"A data {label} ({br(day)}) não pode ser futura."]
    return []


def _check_report(report: Report, infraction: dt.date, today: dt.date) -> None:
    """The means known, the dates between the infraction and today, the date each means needs."""
    if report.method not in Method.values:
        raise ValidationError("Meio de notificação desconhecido: em mãos, via postal com AR ou edital.")
    errors = (
        _check_date("de envio", report.sent_on, infraction, today)
        + _check_date("de recebimento", report.received_on, infraction, today)
        + _check_date("de publicação do edital", report.published_on, infraction, today)
    )
    if errors:
        raise ValidationError(errors)
    if report.returned and report.method != Method.POST_AR:
        raise ValidationError("Só a notificação enviada por via postal pode ser registrada como devolvida.")
    missing = _missing_date(report)
    if missing:
        raise ValidationError(missing)


def _missing_date(report: Report) -> str:
    if report.method == Method.HAND and report.received_on is None:
        return "Informe a data da ciência do notificado (entrega em mãos)."
    if report.awaiting_ar and report.sent_on is None:
        return (
            "Informe a data do envio (se ainda aguarda o AR) ou a data do recebimento consignada no "
            "aviso de recebimento (AR)."
        )
    if report.method == Method.POST_AR and report.returned:
        if report.received_on is None:
            return "Informe a data em que a notificação foi devolvida."
        if report.returned_reason not in ReturnReason.values:
            return "Informe o motivo da devolução da notificação."
    if report.method == Method.EDITAL and report.published_on is None:
        return "Informe a data de publicação do edital."
    return ""


# ------------------------------------------------------------------- when does it count?


def _when_served(notice: InfractionNotice, report: Report, infraction: dt.date) -> Served | FailedAttempt:
    if report.method == Method.HAND:
        assert report.received_on is not None  # checked by _check_report
        return Served(
            report.received_on,
            f"Notificação entregue em mãos: considera-se feita na data da ciência, {br(report.received_on)}.",
        )
    if report.method == Method.POST_AR and not report.returned:
        assert report.received_on is not None  # the sending alone is recorded before
        return Served(
            report.received_on,
            "Notificação por via postal com AR: considera-se feita na data do recebimento, "
            f"{br(report.received_on)}.",
        )
    if report.method == Method.POST_AR:
        return _returned_letter(notice, report, infraction)
    return _by_edital(notice, report, infraction)


def _returned_letter(notice: InfractionNotice, report: Report, infraction: dt.date) -> Served | FailedAttempt:
    """A letter returned counts (on the date it came back) only for an outdated address and only
    where the law says so (`notice.returned_counts_as_served`)."""
    code = notice.jurisdiction_id
    assert report.received_on is not None  # checked by _check_report
    if report.returned_reason != ReturnReason.OUTDATED_ADDRESS:
        return FailedAttempt(
            "A notificação devolvida por motivo que não seja endereço ou cadastro desatualizado "
            "não vale como notificação: faça nova tentativa."
        )
    if value(code, "notice.returned_counts_as_served", infraction) is not True:
        return FailedAttempt(
            "A notificação devolvida não pode ser considerada válida: "
            f"{silence_text(code, 'notice.returned_counts_as_served', infraction)}. "
            "Faça nova tentativa de notificação."
        )
    found = entry(code, "notice.returned_counts_as_served", infraction)
    cite = str(found.citation) if found is not None else ""
    return Served(
        report.received_on,
        "Notificação devolvida por desatualização do endereço cadastrado, considerada válida para "
        f"todos os efeitos ({cite}); considera-se feita na data da devolução, {br(report.received_on)}.",
        [cite],
    )


def _by_edital(notice: InfractionNotice, report: Report, infraction: dt.date) -> Served:
    """The edital: only after a failed attempt where the law asks (Maricá art. 63, III); served
    at the engine's edital deadline, or — the law silent — on the publication date, saying so."""
    code = notice.jurisdiction_id
    published_on = report.published_on
    assert published_on is not None  # checked by _check_report
    if value(code, "notice.edital_requires_failed_attempt", infraction) is True and not _failed(notice):
        found = entry(code, "notice.edital_requires_failed_attempt", infraction)
        raise ValidationError(
            "O edital só cabe quando os outros meios resultarem inócuos "
            f"({found.citation if found is not None else ''}): registre antes a tentativa frustrada "
            "(correspondência devolvida)."
        )
    deadline = value(code, "notice.edital_service_deadline", infraction)
    if not deadline:
        return Served(
            published_on,
            "A lei é omissa sobre quando a notificação por edital se considera feita: "
            f"{silence_text(code, 'notice.edital_service_deadline', infraction)}. "
            f"Adota-se a data da publicação, {br(published_on)}.",
            missing=["notice.edital_service_deadline"],
        )
    result = evaluate_case(
        {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": published_on.isoformat()}
    )
    if "error" in result:
        raise ValidationError(str(result["error"].get("message", "Prazo do edital inválido.")))
    return Served(
        dt.date.fromisoformat(str(result["due"])),
        str(result.get("explanation", "")),
        list(result.get("citations", [])),
        list(result.get("missing_parameters", [])),
    )


# ------------------------------------------------------------------------ where it went


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


# ---------------------------------------------------------------------------- the records


def _recorder(actor: Any) -> Any:
    return actor if getattr(actor, "pk", None) else None


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


def _record_service(
    actor: Any, notice: InfractionNotice, report: Report, served: Served, infraction: dt.date, reason: str
) -> NoticeService:
    """The notification that counts: the letter awaiting its AR completed, or a new record."""
    waiting = _awaiting_ar(notice) if report.method == Method.POST_AR else None
    given = report.address if report.address.strip() or waiting is None else waiting.address
    used, to_holder, address_cites, address_note = _address(notice, given, infraction)
    if report.method == Method.POST_AR and not used:
        raise ValidationError("Informe o endereço para o qual a notificação foi enviada.")
    fields = {
        "sent_on": report.sent_on or (waiting.sent_on if waiting is not None else None),
        "received_on": report.received_on,
        "returned": report.returned,
        "returned_reason": report.returned_reason if report.returned else "",
        "returned_note": report.returned_note,
        "address": used,
        "served_on": served.on,
        "explanation": f"{served.explanation} {address_note}" if address_note else served.explanation,
        "citations": served.citations + address_cites,
        "missing_parameters": sorted(set(served.missing)),
    }
    if waiting is not None:
        return update_audited(
            actor=actor,
            instance=waiting,
            changes=fields,
            reason=reason,
            action="enforcement.notice_ar_returned",
        )
    service = NoticeService(
        jurisdiction=notice.jurisdiction,
        notice=notice,
        method=report.method,
        published_on=report.published_on,
        addressed_to_holder=to_holder,
        recorded_by=_recorder(actor),
        **fields,
    )
    return create_audited(
        actor=actor, instance=service, reason=reason, action="enforcement.notice_notification"
    )


def _record_failed(
    actor: Any, notice: InfractionNotice, report: Report, why: str, reason: str
) -> NoticeService:
    """A letter returned that does not count as notification: recorded (it is the proof that the
    ordinary means failed), the notice stays unserved."""
    waiting = _awaiting_ar(notice)
    changes = {
        "sent_on": report.sent_on or (waiting.sent_on if waiting is not None else None),
        "received_on": report.received_on,
        "returned": True,
        "returned_reason": report.returned_reason,
        "returned_note": report.returned_note,
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
    service = NoticeService(
        jurisdiction=notice.jurisdiction,
        notice=notice,
        method=Method.POST_AR,
        address=report.address.strip() or holder_address(notice.holder),
        recorded_by=_recorder(actor),
        **changes,
    )
    return create_audited(
        actor=actor, instance=service, reason=reason, action="enforcement.notice_attempt_failed"
    )


def _record_sending(
    actor: Any, notice: InfractionNotice, report: Report, infraction: dt.date, reason: str
) -> NoticeService:
    """A letter sent by post whose AR has not come back: it is not yet served, but where the law's
    deadline to notify is the sending's (`notice.notification_deadline_event` = sent: Esteio
    Anexo I art. 18 § 2º; Pernambuco art. 25 § 2º) it keeps the notice within the deadline."""
    assert report.sent_on is not None  # checked by _check_report
    if _awaiting_ar(notice) is not None:
        raise ValidationError(
            "Já há uma notificação enviada aguardando o AR: registre o recebimento ou a devolução."
        )
    used, to_holder, citations, note = _address(notice, report.address, infraction)
    if not used:
        raise ValidationError("Informe o endereço para o qual a notificação foi enviada.")
    service = NoticeService(
        jurisdiction=notice.jurisdiction,
        notice=notice,
        method=Method.POST_AR,
        sent_on=report.sent_on,
        address=used,
        addressed_to_holder=to_holder,
        served_on=None,
        explanation=(
            f"Enviada por via postal com AR em {br(report.sent_on)}; "
            f"aguardando o aviso de recebimento. {note}"
        ).strip(),
        citations=citations,
        recorded_by=_recorder(actor),
    )
    return create_audited(actor=actor, instance=service, reason=reason, action="enforcement.notice_sent")
