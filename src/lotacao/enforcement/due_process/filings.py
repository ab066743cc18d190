"""Defenses and appeals: a filing at the instance open now (`stage.current_stage`), always with
a receipt (`<notice>/<INS>-<n>`) and checked attachments (PDF, PNG or JPEG up to 10 MB). A late
filing is recorded, flagged with the deadline and its article (audited `enforcement.filing_late`):
the body declares it late. One filing waits per instance; where the law asks the fine paid first
(Maricá art. 70, parágrafo único) the appeal against it waits for the payment."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited
from lotacao.enforcement.due_process.judging import body_for
from lotacao.enforcement.due_process.stage import Stage, after_event, current_stage, pick, route_penalty
from lotacao.enforcement.models import Decision, Filing, FilingAttachment, InfractionNotice
from lotacao.enforcement.reading import br, local_day
from lotacao.enforcement.sanctions.fine_payment import paid_before_appeal_deadline

ATTACHMENT_TYPES = {"application/pdf": "PDF", "image/png": "PNG", "image/jpeg": "JPEG"}
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
CLOCK_SKEW = dt.timedelta(minutes=5)  # a phone's clock may run a little ahead of the server's


def _receipt(notice: InfractionNotice, instance: dict[str, Any]) -> str:
    """`AI-2026-000012/DEF-1`, `…/REC-2`: the notice, the instance's name and the filing's order."""
    n = Filing.unscoped.filter(notice=notice).count() + 1
    word = str(instance.get("name") or instance.get("id") or "PRO").split()[0]
    return f"{notice.number}/{word[:3].upper()}-{n}"


def _check_attachment(upload: Any) -> tuple[str, int, str]:
    from lotacao.core.uploads import check_content
    from lotacao.documents.services import detect_content_type

    size = int(getattr(upload, "size", 0) or 0)
    name = str(getattr(upload, "name", "anexo"))
    if size <= 0:
        raise ValidationError(f"O anexo {name} está vazio.")
    if size > MAX_ATTACHMENT_BYTES:
        raise ValidationError(f"O anexo {name} passa de {MAX_ATTACHMENT_BYTES // (1024 * 1024)} MB.")
    content_type = detect_content_type(upload)
    if content_type not in ATTACHMENT_TYPES:
        raise ValidationError(f"O anexo {name} não é PDF, PNG ou JPEG.")
    check_content(upload, content_type, name=name)
    upload.seek(0)
    digest = hashlib.sha256(upload.read()).hexdigest()
    upload.seek(0)
    return content_type, size, digest


def _fine_paid_first(notice: InfractionNotice, instance: dict[str, Any]) -> str:
    """Maricá art. 70, par. único: an appeal against a fine is accepted only after the fine is
    paid, within the pack's deadline from the application of the penalty. By the pack's reading
    (`process.appeal_payment`) the appeal is filed now and waits for the payment (then judged; not
    paid in time, deserted: art. 75) — the note returned goes into the filing's explanation — or,
    if the agency reads it so, refused until paid."""
    check = paid_before_appeal_deadline(notice, str(instance.get("id")))
    if check.blocks_filing:
        raise ValidationError(check.message)
    return "" if check else check.message


def _filed_on(notice: InfractionNotice, text: str, channel: str, moment: dt.datetime) -> dt.date:
    """The protocol's day where the jurisdiction is, after the form's checks."""
    if channel not in Filing.Channel.values:
        raise ValidationError("Meio de protocolo desconhecido.")
    if not (text or "").strip():
        raise ValidationError("Escreva as razões da defesa ou do recurso.")
    if moment > timezone.now() + CLOCK_SKEW:
        raise ValidationError("A data do protocolo não pode ser futura.")
    filed_on = local_day(notice.jurisdiction, moment)
    if filed_on < local_day(notice.jurisdiction, notice.drawn_up_at):
        raise ValidationError("A data do protocolo não pode ser anterior à infração.")
    return filed_on


def _open_stage(notice: InfractionNotice, filed_on: dt.date) -> Stage:
    """The instance open on that day; refused when none is, when the first deadline lapsed, or
    when the fine must be paid first."""
    stage = current_stage(notice, filed_on)
    if stage.instance is None or stage.blocked:
        raise ValidationError(f"Não é possível protocolar: {stage.blocked}")
    if stage.previous is not None and stage.previous.outcome == Decision.Outcome.LAPSED:
        raise ValidationError("Sem defesa no prazo, a penalidade ficou definitiva.")
    _fine_paid_first(notice, stage.instance)
    return stage


def _payment_note(notice: InfractionNotice, stage: Stage) -> str:
    return _fine_paid_first(notice, stage.instance) if stage.instance is not None else ""


def _new_filing(
    notice: InfractionNotice, stage: Stage, moment: dt.datetime, filed_on: dt.date, **given: Any
) -> Filing:
    """The filing at the stage's instance, with its receipt, deadline and whether it is late."""
    instance = stage.instance or {}
    body_key, _gap = pick(instance, "body", route_penalty(notice))
    late = stage.due is not None and filed_on > stage.due
    explanation = " ".join(filter(None, [stage.explanation, _payment_note(notice, stage)]))
    if late and stage.due is not None:
        explanation = (
            f"Protocolado em {br(filed_on)}, depois do prazo, que venceu em {br(stage.due)} "
            f"({'; '.join(stage.citations)}). {explanation}"
        ).strip()
    return Filing(
        jurisdiction_id=notice.jurisdiction_id,
        notice=notice,
        instance=instance["id"],
        instance_name=instance["name"],
        body=body_for(notice.jurisdiction_id, body_key, filed_on),
        receipt=_receipt(notice, instance),
        filed_at=moment,
        due_on=stage.due,
        due_explanation=explanation,
        citations=stage.citations,
        missing_parameters=stage.missing,
        late=late,
        **given,
    )


@transaction.atomic
def file_defense(
    *,
    actor: Any,
    notice: InfractionNotice,
    text: str,
    channel: str,
    reason: str,
    filed_at: dt.datetime | None = None,
    attachments: Sequence[Any] = (),
) -> Filing:
    """Protocol a defense or appeal at the instance open now, with a receipt; a late filing is
    recorded and flagged with the deadline and its article (the body declares it late)."""
    notice = InfractionNotice.unscoped.select_for_update().select_related("jurisdiction").get(pk=notice.pk)
    moment = filed_at or timezone.now()
    filed_on = _filed_on(notice, text, channel, moment)
    stage = _open_stage(notice, filed_on)
    checked = [_check_attachment(a) for a in attachments]
    filing = _new_filing(notice, stage, moment, filed_on, channel=channel, filed_by=actor, text=text.strip())
    action = "enforcement.filing_late" if filing.late else "enforcement.filing_recorded"
    create_audited(actor=actor, instance=filing, reason=reason, action=action)
    for upload, (content_type, size, digest) in zip(attachments, checked, strict=True):
        FilingAttachment.objects.create(
            jurisdiction_id=notice.jurisdiction_id,
            filing=filing,
            file=upload,
            name=str(getattr(upload, "name", "anexo"))[:200],
            content_type=content_type,
            size=size,
            sha256=digest,
        )
    after_event(actor, notice, filed_on)
    return filing
