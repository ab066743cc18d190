"""Incident and accident reports: the law's deadline from the engine, late flags with the
infraction suggested, Maricá's post-accident inspection, the API and its refusals."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from lotacao.duties import services
from lotacao.duties.models import IncidentPhoto, IncidentReport
from lotacao.workqueue.models import WorkItem
from tests.duties.conftest import jpeg

RECIFE = ZoneInfo("America/Recife")
SP = ZoneInfo("America/Sao_Paulo")


def _report(world: Any, code: str = "recife", **kw: Any) -> IncidentReport:
    holder = world.objects[code]["registry.holder"]
    args: dict[str, Any] = {
        "actor": None,
        "holder": holder,
        "vehicle": world.objects[code]["registry.vehicle"],
        "kind": "accident",
        "occurred_at": dt.datetime(2025, 6, 6, 10, 0, tzinfo=RECIFE),
        "description": "Colisão traseira na Av. Norte, sem feridos.",
        "place": "Av. Norte, 100",
    }
    args.update(kw)
    return services.report_incident(**args)


def test_recife_an_accident_on_friday_is_due_on_tuesday_and_on_time(world: Any) -> None:
    report = _report(world, reported_at=dt.datetime(2025, 6, 10, 17, 0, tzinfo=RECIFE), photos=[jpeg()])
    assert report.due_on == dt.date(2025, 6, 10)
    assert report.late is False
    assert report.protocol.startswith("OC-2025-REC-")
    assert "Lei Municipal 16.856/2003 (Recife), art. 13, VI" in report.citations
    assert report.suggested_infractions == []
    assert IncidentPhoto.objects.filter(report=report).count() == 1
    assert report.inspection is None  # Recife does not require a post-accident inspection
    assert not WorkItem.objects.filter(kind=services.LATE_INCIDENT_KIND).exists()


def test_recife_a_report_on_the_third_business_day_is_late_and_suggests_g2_o(world: Any) -> None:
    report = _report(world, reported_at=dt.datetime(2025, 6, 11, 8, 0, tzinfo=RECIFE))
    assert report.late is True
    assert [i["code"] for i in report.suggested_infractions] == ["G2-o"]
    item = WorkItem.objects.get(kind=services.LATE_INCIDENT_KIND)
    assert report.protocol in item.title and "Grupo 2, o" in item.title
    assert item.jurisdiction_id == "recife"


def test_the_deadline_counts_the_day_where_the_jurisdiction_is(world: Any) -> None:
    # 01:30 UTC on Saturday is still Friday 22:30 in Recife: the deadline runs from Friday.
    report = _report(
        world,
        occurred_at=dt.datetime(2025, 6, 7, 1, 30, tzinfo=dt.UTC),
        reported_at=dt.datetime(2025, 6, 10, 12, 0, tzinfo=RECIFE),
    )
    assert report.due_on == dt.date(2025, 6, 10)


def test_marica_an_accident_schedules_the_post_accident_inspection(
    world: Any, marica: dict[str, Any]
) -> None:
    from lotacao.inspections.models import Inspection

    report = services.report_incident(
        actor=None,
        holder=marica["holder"],
        vehicle=marica["vehicle"],
        kind="accident",
        occurred_at=dt.datetime(2025, 6, 7, 9, 0, tzinfo=SP),  # Saturday
        description="Batida lateral no centro.",
        reported_at=dt.datetime(2025, 6, 9, 9, 0, tzinfo=SP),
    )
    assert report.due_on == dt.date(2025, 6, 9) and not report.late
    assert report.inspection is not None
    assert report.inspection.kind == Inspection.Kind.POST_ACCIDENT
    assert report.inspection.scheduled_for == dt.date(2025, 6, 10)
    assert any(c.endswith("art. 40, IX") for c in report.citations)
    assert any(c.endswith("art. 40, VIII") for c in report.citations)


def test_esteio_an_accident_schedules_the_inspection_of_anexo_ii_iii_11(world: Any) -> None:
    """Esteio's law makes it an infraction not to submit an accident-damaged vehicle to the SMOVT's
    inspection (Anexo II, III-11): the report schedules it on the next business day, as Maricá's."""
    from lotacao.inspections.models import Inspection

    report = _report(
        world,
        "esteio",
        occurred_at=dt.datetime(2025, 6, 6, 10, 0, tzinfo=SP),  # Friday
        reported_at=dt.datetime(2025, 6, 6, 15, 0, tzinfo=SP),
    )
    assert report.inspection is not None, WorkItem.objects.filter(kind=services.INSPECTION_KIND).first()
    assert report.inspection.kind == Inspection.Kind.POST_ACCIDENT
    assert report.inspection.vehicle == world.objects["esteio"]["registry.vehicle"]
    assert report.inspection.scheduled_for == dt.date(2025, 6, 9)
    assert any(c.endswith("Anexo II, III-11") for c in report.citations)
    assert any(c.endswith("art. 27") for c in report.citations)
    incident = _report(
        world, "esteio", kind="incident", occurred_at=dt.datetime(2025, 6, 6, 10, 0, tzinfo=SP)
    )
    assert incident.inspection is None  # only an accident needs the inspection


def test_marica_a_late_report_has_no_catalogue_infraction_but_reaches_staff(
    world: Any, marica: dict[str, Any]
) -> None:
    report = services.report_incident(
        actor=None,
        holder=marica["holder"],
        vehicle=marica["vehicle"],
        kind="incident",
        occurred_at=dt.datetime(2025, 6, 2, 9, 0, tzinfo=SP),
        description="Enchente: itinerário desviado.",
        reported_at=dt.datetime(2025, 6, 5, 9, 0, tzinfo=SP),
    )
    assert report.late and report.suggested_infractions == []
    assert report.inspection is None  # only an accident needs the inspection
    assert "não tipifica" in WorkItem.objects.get(kind=services.LATE_INCIDENT_KIND).title


def test_esteio_has_no_deadline_until_the_agency_supplies_it(world: Any) -> None:
    from tests.duties.conftest import set_value

    report = _report(world, "esteio", kind="incident", occurred_at=dt.datetime(2025, 6, 6, 10, 0, tzinfo=SP))
    assert report.due_on is None and report.late is False
    assert "o órgão gestor o define" in report.deadline_text
    set_value("esteio", "deadline.accident_report", {"days": 1, "counting": "business_days"})
    later = _report(
        world,
        "esteio",
        kind="incident",
        occurred_at=dt.datetime(2025, 6, 6, 10, 0, tzinfo=SP),
        reported_at=dt.datetime(2025, 6, 10, 10, 0, tzinfo=SP),
    )
    assert later.due_on == dt.date(2025, 6, 9) and later.late


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kind": "fire"}, "acidente"),
        ({"description": "  "}, "Descreva"),
        ({"occurred_at": dt.datetime(2025, 6, 6, 10, 0)}, "fuso"),
        ({"occurred_at": dt.datetime(2099, 1, 1, tzinfo=RECIFE)}, "futuras"),
        ({"occurred_at": dt.datetime(2001, 1, 1, tzinfo=RECIFE), "reported_at": None}, "Lei"),
    ],
)
def test_refusals_change_nothing(world: Any, changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as info:
        _report(world, **changes)
    assert message in " ".join(info.value.messages)
    assert not IncidentReport.objects.exists()


def test_a_vehicle_of_another_holder_is_refused(world: Any) -> None:
    other = world.objects["recife"]["registry.holder"].__class__.objects.filter(jurisdiction_id="recife")[1]
    with pytest.raises(ValidationError, match="não está cadastrado em nome"):
        _report(world, holder=other)
    assert not IncidentReport.objects.exists()


def test_a_file_that_is_not_a_photo_is_refused(world: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    fake = SimpleUploadedFile("foto.jpg", b"%PDF-1.4 not a photo", content_type="image/jpeg")
    with pytest.raises(ValidationError, match="JPEG ou PNG"):
        _report(world, photos=[fake])
    assert not IncidentReport.objects.exists()


def test_cabo_and_pernambuco_have_no_incident_reports(db: Any) -> None:
    from lotacao.duties.rules import incident_rule

    assert incident_rule("cabo", dt.date(2025, 6, 6)) is None
    assert incident_rule("pernambuco", dt.date(2025, 6, 6)) is None


def test_where_the_law_puts_no_duty_the_report_is_taken_as_information(
    world: Any, client: Any, monkeypatch: Any
) -> None:
    """Cabo's and Pernambuco's laws do not oblige a report: the holder may still inform the agency,
    with no deadline, nothing late and no article cited."""
    from lotacao.duties import rules

    monkeypatch.setattr(rules, "incident_rule", lambda code, on: None)
    report = _report(world, reported_at=dt.datetime(2025, 7, 30, 8, 0, tzinfo=RECIFE))
    assert report.protocol and report.due_on is None and report.late is False
    assert report.citations == [] and "não obriga" in report.deadline_text
    assert not WorkItem.objects.filter(kind=services.LATE_INCIDENT_KIND).exists()
    client.force_login(world.users["holder0.recife"])
    page = client.get("/deveres/ocorrencias/nova/").content.decode()
    assert "não obriga a comunicar" in page and "Registrar comunicação" in page


# ------------------------------------------------------------------------------------------ API


def _post(client: Any, body: dict[str, Any]) -> Any:
    return client.post("/api/portal/incidents", data=json.dumps(body), content_type="application/json")


def test_api_holder_reports_an_incident(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    occurred = (dt.datetime.now(RECIFE) - dt.timedelta(hours=2)).isoformat()
    answer = _post(
        client, {"occurred_at": occurred, "kind": "accident", "plate": "ABA-1C23", "description": "Colisão."}
    )
    assert answer.status_code == 201, answer.content
    data = answer.json()
    assert data["protocol"].startswith("OC-") and data["late"] is False
    assert data["due"] and any("art. 13, VI" in c for c in data["citations"])
    listed = client.get("/api/portal/incidents").json()
    assert [r["protocol"] for r in listed] == [data["protocol"]]


def test_api_a_late_report_says_so(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    answer = _post(
        client,
        {
            "occurred_at": "2025-06-06T10:00:00-03:00",
            "kind": "incident",
            "plate": "ABA1C23",
            "description": "Pane.",
        },
    )
    assert answer.status_code == 201
    assert answer.json()["late"] is True and answer.json()["due"] == "2025-06-10"


def test_api_refuses_a_plate_not_the_holders(world: Any, client: Any) -> None:
    client.force_login(world.users["holder1.recife"])  # the van is holder0's
    answer = _post(
        client,
        {
            "occurred_at": "2025-06-06T10:00:00-03:00",
            "kind": "accident",
            "plate": "ABA1C23",
            "description": "x",
        },
    )
    assert answer.status_code == 422
    assert answer["Content-Type"].startswith("application/problem+json")
    assert "não é de um veículo cadastrado em seu nome" in answer.json()["detail"]
    assert not IncidentReport.objects.exists()


def test_api_refuses_staff_and_bad_input(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    body = {
        "occurred_at": "2025-06-06T10:00:00-03:00",
        "kind": "accident",
        "plate": "ABA1C23",
        "description": "x",
    }
    assert _post(client, body).status_code == 403
    client.force_login(world.users["holder0.recife"])
    assert _post(client, {**body, "kind": "fire"}).status_code == 422
    assert _post(client, {**body, "occurred_at": "2025-06-06T10:00:00"}).status_code == 422
    assert not IncidentReport.objects.exists()


def test_tenancy_a_holder_sees_only_their_reports(world: Any, client: Any) -> None:
    _report(world, reported_at=dt.datetime(2025, 6, 10, 12, 0, tzinfo=RECIFE))
    _report(world, "esteio", occurred_at=dt.datetime(2025, 6, 6, 10, 0, tzinfo=SP))
    client.force_login(world.users["holder1.recife"])
    assert client.get("/api/portal/incidents").json() == []
    client.force_login(world.users["atendente.esteio"])
    assert [r["plate"] for r in client.get("/api/portal/incidents").json()] == ["ABB1C23"]
