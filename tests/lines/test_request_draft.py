"""An approved change of itinerary or stops drafts the line's next version (lines.life.decide →
services.draft_from_request): a copy of the version in force with the request's words, linked to
the request, which the clerk redraws and approves. Esteio's version cites the CMTT resolution that
approved the user's request (art. 26, parágrafo único) without asking for it again. Timetable and
fleet changes (a service order), refusals and lines without an approved version draft nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from lotacao.audit.models import AuditEvent
from lotacao.councils.testing import resolution_for
from lotacao.lines import life, services
from lotacao.lines.models import LineVersion, Stop
from tests.lines.conftest import approved_line
from tests.lines.test_life import D, decide, request


def _esteio_request(line: Any, kind: str = "itinerary") -> Any:
    req = request("esteio", line, kind, origin="public", requester_name="Ana", requester_contact="ana@x.org")
    life.open_hearing(actor=None, request=req, until=D + dt.timedelta(days=2), reason="t", on=D)
    life.record_answer(actor=None, request=req, party="Cooperativa", agrees=True, text="Sim", on=D)
    life.to_study(actor=None, request=req, reason="t", on=D + dt.timedelta(days=3))
    req.refresh_from_db()
    return req


def _studied(code: str, line: Any, kind: str, on: dt.date = D) -> Any:
    req = request(code, line, kind)
    life.to_study(actor=None, request=req, reason="t", on=on)
    req.refresh_from_db()
    return req


def test_esteio_approved_itinerary_change_drafts_the_next_version(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    base = LineVersion.objects.get(line=line, number=1)
    req = _esteio_request(line)
    after = D + dt.timedelta(days=3)
    cmtt = resolution_for("esteio", "line.change", after)
    done = decide(req, after, resolution=cmtt)
    draft = life.drafted_version(done)
    assert draft is not None and draft.number == 2 and draft.status == LineVersion.Status.DRAFT
    assert draft.change_request_id == done.pk and "Pedido nº 1" in draft.description
    assert "Passar pela Rua Nova" in draft.description
    assert draft.itinerary == base.itinerary and draft.shape == base.shape
    assert [s.name for s in Stop.objects.filter(version=draft)] == [
        s.name for s in Stop.objects.filter(version=base)
    ]
    drafted = AuditEvent.objects.get(action="line_version.drafted", object_id=str(draft.pk))
    assert "pedido nº 1 aprovado" in drafted.reason
    # the version's approval cites the CMTT resolution that approved the request
    approved = services.approve_version(
        actor=None,
        version=draft,
        act="Portaria nº 11/2025",
        approved_on=after,
        valid_from=done.effective_on,
        reason="versão do pedido",
    )
    assert approved.status == LineVersion.Status.APPROVED and cmtt.citation in approved.approval_act
    assert life.drafted_version(done) is None


def test_a_refused_request_or_a_timetable_change_drafts_nothing(lines_db: Any) -> None:
    line = approved_line("recife", valid_from=D)
    refused = decide(_studied("recife", line, "stops"), D, approve=False)
    timetable = decide(_studied("recife", line, "timetable"), D)
    assert timetable.status == "approved"
    assert life.drafted_version(refused) is None and life.drafted_version(timetable) is None
    assert LineVersion.objects.filter(line=line).count() == 1
    stops = decide(_studied("recife", line, "stops"), D)
    assert life.drafted_version(stops).number == 2  # type: ignore[union-attr]


def test_a_refused_gate_drafts_nothing(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    req = _esteio_request(line)
    with pytest.raises(ValidationError, match="CMTT"):
        decide(req, D + dt.timedelta(days=3))
    assert LineVersion.objects.filter(line=line).count() == 1


def test_the_clerk_continues_in_the_versions_screen(world: Any, client: Any, lines_db: Any) -> None:
    line = approved_line("recife")
    req = _studied("recife", line, "itinerary", timezone.localdate())
    client.force_login(world.users["gestor.recife"])
    today = timezone.localdate()
    decision = {
        "step": "decide",
        "decide-decision": "approve",
        "decide-act": "Portaria 7",
        "decide-reasons": "Rua fechada",
        "decide-act_date": today.isoformat(),
        "decide-effective_on": (today + dt.timedelta(days=5)).isoformat(),
    }
    done = client.post(reverse("lines:request", kwargs={"pk": req.pk}), decision)
    approve = reverse("lines:approve", args=[line.pk])
    assert done.status_code == 302 and done["Location"] == approve
    page = client.get(approve).content.decode()
    assert 'value="Portaria 7"' in page
    request_page = client.get(reverse("lines:request", kwargs={"pk": req.pk})).content.decode()
    assert "A versão 2 da linha (rascunho) foi criada" in request_page
    answer = client.get(f"/api/lines/change-requests/{req.pk}").json()
    assert answer["draft_version"] == 2
