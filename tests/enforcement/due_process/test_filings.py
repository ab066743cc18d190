"""Filing a defense or appeal (due_process/filings.py, stage.py): the engine's deadline, the
receipt, late filings recorded and flagged with the deadline and article, refusals."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from lotacao.audit.models import AuditEvent
from lotacao.demo.documents import pdf_bytes
from lotacao.enforcement.due_process import filings
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import (
    Filing,
    InfractionNotice,
)
from tests.enforcement.due_process.process_helpers import (
    _moment,
    _notice,
)

pytestmark = pytest.mark.django_db


def test_recife_defense_deadline_counts_from_the_first_business_day_after_service(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")  # Friday
    stage = current_stage(notice, dt.date(2025, 5, 10))
    assert stage.instance is not None and stage.instance["id"] == "defense"
    # day 1 = Monday 12/05; 30 days → 10/06 (Tuesday)
    assert stage.due == dt.date(2025, 6, 10)
    assert any("art. 41" in c for c in stage.citations)


def test_a_filing_in_time_gets_a_receipt_and_is_audited(world: Any) -> None:
    notice = _notice(
        world.a,
        served=dt.date(2025, 5, 9),
        day="2025-05-05",
        holder=world.objects["recife"]["registry.holder"],
    )
    pdf = SimpleUploadedFile("defesa.pdf", pdf_bytes("Defesa"), content_type="application/pdf")
    filing = filings.file_defense(
        actor=world.users["atendente.recife"],
        notice=notice,
        text="O veículo estava em manutenção.",
        channel=Filing.Channel.COUNTER,
        reason="Protocolo no órgão",
        filed_at=_moment(dt.date(2025, 6, 2)),
        attachments=[pdf],
    )
    assert filing.receipt == f"{notice.number}/DEF-1"
    assert not filing.late and filing.due_on == dt.date(2025, 6, 10)
    assert filing.body is not None and filing.body.key == "cdtc"
    assert filing.attachments.get().content_type == "application/pdf"
    assert AuditEvent.objects.filter(action="enforcement.filing_recorded").count() == 1


def test_a_late_filing_is_recorded_and_flagged_with_the_deadline_and_article(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="Razões",
        channel=Filing.Channel.COUNTER,
        reason="Protocolo",
        filed_at=_moment(dt.date(2025, 6, 11)),
    )
    assert filing.late
    assert "10/06/2025" in filing.due_explanation and "art. 41" in filing.due_explanation
    assert AuditEvent.objects.filter(action="enforcement.filing_late").count() == 1


@pytest.mark.parametrize(
    ("text", "attachment", "message"),
    [
        ("  ", None, "razões"),
        (
            "Razões",
            SimpleUploadedFile("x.exe", b"MZ\x90\x00", content_type="application/pdf"),
            "PDF, PNG ou JPEG",
        ),
        ("Razões", SimpleUploadedFile("vazio.pdf", b"", content_type="application/pdf"), "vazio"),
    ],
)
def test_bad_filings_are_refused_and_change_nothing(
    world: Any, text: str, attachment: Any, message: str
) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    with pytest.raises(ValidationError, match=message):
        filings.file_defense(
            actor=None,
            notice=notice,
            text=text,
            channel=Filing.Channel.COUNTER,
            reason="x",
            filed_at=_moment(dt.date(2025, 6, 2)),
            attachments=[attachment] if attachment else [],
        )
    assert not Filing.unscoped.filter(notice=notice).exists()


def test_a_second_filing_at_the_same_instance_is_refused(world: Any) -> None:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    kwargs = {"actor": None, "notice": notice, "text": "R", "channel": "counter", "reason": "x"}
    filings.file_defense(**kwargs, filed_at=_moment(dt.date(2025, 6, 2)))
    with pytest.raises(ValidationError, match="aguardando julgamento"):
        filings.file_defense(**kwargs, filed_at=_moment(dt.date(2025, 6, 3)))


def test_an_archived_notice_takes_no_filing(world: Any) -> None:
    notice = _notice(world.a, served=None, day="2025-05-05", status=InfractionNotice.Status.ARCHIVED)
    with pytest.raises(ValidationError, match="arquivado"):
        filings.file_defense(actor=None, notice=notice, text="R", channel="counter", reason="x")
