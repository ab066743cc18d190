"""Objects the shared test `world` needs for the enforcement URLs (tests/conftest.py): one
infraction notice per jurisdiction, against the world's holder and vehicle (created directly:
the URL tests need a row, not the engine's computation)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from lotacao.enforcement.models import Decision, InfractionNotice, NoticeService


def extend_world(world: Any) -> None:
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        vehicle = objects["registry.vehicle"]
        objects["enforcement.infractionnotice"] = InfractionNotice.objects.create(
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
        # the letters of views_documents (a notification and a decision of that notice)
        notice = objects["enforcement.infractionnotice"]
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
        # the due process screens (views_process): a body, a session, a filing with an attachment
        from django.core.files.base import ContentFile

        from lotacao.enforcement.models import Filing, FilingAttachment, JudgingBody, Session

        if "enforcement.judgingbody" not in objects:
            body = JudgingBody.objects.create(
                jurisdiction=jurisdiction, key="teste", name="Comissão de teste"
            )
            objects["enforcement.judgingbody"] = body
            objects["enforcement.session"] = Session.objects.create(
                jurisdiction=jurisdiction, body=body, number=1, held_on=today
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
        # the fine of that notice (lotacao.enforcement.sanctions.views_fines: its page and slip)
        if "enforcement.fine" not in objects:
            from datetime import timedelta

            from lotacao.enforcement.models import Fine

            objects["enforcement.fine"] = Fine.objects.create(
                jurisdiction=jurisdiction,
                notice=objects["enforcement.infractionnotice"],
                holder=objects["registry.holder"],
                payer_name=str(objects["registry.holder"]),
                amount="100.00",
                due_on=timezone.localdate() + timedelta(days=10),
                status="open",
                slip_count=1,
            )
        # a measure on that notice (lotacao.enforcement.sanctions.views_measures), already released so the
        # world's vehicle stays authorized in the public plate check
        if "enforcement.measure" not in objects:
            from lotacao.enforcement.models import Measure

            objects["enforcement.measure"] = Measure.objects.create(
                jurisdiction=jurisdiction,
                notice=objects["enforcement.infractionnotice"],
                kind="document_seizure",
                applied_at=timezone.now(),
                status="released",
                released_on=timezone.localdate(),
            )
        # what final decisions leave behind (lotacao.enforcement.sanctions.views_effects), created directly
        from lotacao.enforcement.sanctions.testing import effect_objects

        objects.update(effect_objects(jurisdiction, objects))
