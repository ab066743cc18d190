"""Objects the shared test `world` needs for the enforcement URLs (tests/conftest.py): one
infraction notice per jurisdiction, against the world's holder and vehicle (created directly:
the URL tests need a row, not the engine's computation), and per wing the rows its screens take
by id — a notification and a decision (the letters), a body, session and filing with an
attachment (the due process screens), a fine, a measure and what final decisions leave behind
(`sanctions/testing.py`)."""

from __future__ import annotations

from typing import Any

from django.core.files.base import ContentFile
from django.utils import timezone

from lotacao.enforcement.models import (
    Decision,
    Filing,
    FilingAttachment,
    InfractionNotice,
    JudgingBody,
    NoticePhoto,
    NoticeService,
    Session,
)
from lotacao.enforcement.sanctions.testing import effect_objects, fine_and_measure


def _notice(jurisdiction: Any, objects: dict[str, Any]) -> InfractionNotice:
    vehicle = objects["registry.vehicle"]
    notice: InfractionNotice = InfractionNotice.objects.create(
        jurisdiction=jurisdiction,
        number=f"AI-T-{jurisdiction.code}",
        drawn_up_at=timezone.now(),
        place="Teste",
        infraction_code="teste",
        offender_kind="permit_holder",
        holder=objects["registry.holder"],
        vehicle=vehicle,
        plate=vehicle.plate,
    )
    return notice


# the smallest valid PNG (1×1 pixel): a photo of the notice for the tenancy walk
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def _photo(jurisdiction: Any, notice: InfractionNotice, objects: dict[str, Any]) -> None:
    photo = NoticePhoto(
        jurisdiction=jurisdiction, notice=notice, content_type="image/png", size=len(PNG), sha256="0" * 64
    )
    photo.file.save("foto", ContentFile(PNG), save=True)
    objects["enforcement.noticephoto"] = photo


def _letters(jurisdiction: Any, notice: InfractionNotice, objects: dict[str, Any]) -> None:
    """A notification and a decision of the notice (the letters of the dossier wing)."""
    today = timezone.localdate()
    if "enforcement.noticeservice" not in objects:
        objects["enforcement.noticeservice"] = NoticeService.objects.create(
            jurisdiction=jurisdiction, notice=notice, method="hand", served_on=today
        )
    if "enforcement.decision" not in objects:
        objects["enforcement.decision"] = Decision.objects.create(
            jurisdiction=jurisdiction,
            notice=notice,
            instance="defense",
            decided_on=today,
            outcome="upheld",
            reasons="Teste",
        )


def _judging(jurisdiction: Any, notice: InfractionNotice, objects: dict[str, Any]) -> None:
    """A body, a session, a filing with an attachment (the due process screens)."""
    if "enforcement.judgingbody" in objects:
        return
    body = JudgingBody.objects.create(jurisdiction=jurisdiction, key="teste", name="Comissão de teste")
    objects["enforcement.judgingbody"] = body
    objects["enforcement.session"] = Session.objects.create(
        jurisdiction=jurisdiction, body=body, number=1, held_on=timezone.localdate()
    )
    filing = Filing.objects.create(
        jurisdiction=jurisdiction,
        notice=notice,
        instance="defense",
        instance_name="Defesa",
        body=body,
        receipt=f"{notice.number}/DEF-1",
        filed_at=timezone.now(),
        channel="counter",
        text="Razões de teste",
    )
    objects["enforcement.filing"] = filing
    attachment = FilingAttachment(jurisdiction=jurisdiction, filing=filing, name="a.pdf", size=9)
    attachment.file.save("a.pdf", ContentFile(b"%PDF-1.4\n"), save=True)
    objects["enforcement.filingattachment"] = attachment


def extend_world(world: Any) -> None:
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        notice = objects["enforcement.infractionnotice"] = _notice(jurisdiction, objects)
        _letters(jurisdiction, notice, objects)
        _photo(jurisdiction, notice, objects)
        _judging(jurisdiction, notice, objects)
        fine_and_measure(jurisdiction, objects)
        objects.update(effect_objects(jurisdiction, objects))
