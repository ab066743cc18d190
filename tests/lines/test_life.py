"""The life of a line: change requests, the operators' hearing each law requires, the decision,
the end of a line (places released, permits moved or their places ended) and temporary changes
read back from the exported GTFS feed. A scenario per law."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from lotacao.core.sample_ids import sample_cnpj
from lotacao.councils.testing import resolution_for, resolution_if_gated
from lotacao.lines import gtfs, life, places, services
from lotacao.lines.models import ChangeRequest, LineEnd, Place
from tests.lines.conftest import ORIGIN, agency_value, approved_line, east, import_bus, jurisdiction, permit
from tests.lines.test_gtfs import notices

D = dt.date(2025, 3, 3)
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def order(line: Any, on: dt.date = D) -> Any:
    return services.issue_service_order(
        actor=None,
        line=line,
        valid_from=on,
        fleet=2,
        trip_minutes=30,
        act="OSO 1/2025",
        reason="t",
        periods=[
            {"day_type": "weekday", "first": 6 * 60, "last": 20 * 60, "headway": 30},
            {"day_type": "saturday", "departures": [8 * 60, 12 * 60]},
        ],
        resolution=resolution_if_gated(line.jurisdiction_id, "fleet.change", on),
    )


@pytest.fixture
def ready(lines_db: Any, tmp_path: Any) -> None:
    """Cabo's and Maricá's lines need the bus network and the agency's values to be approved."""
    for code in ("cabo", "marica"):
        lon, lat = ORIGIN[code]
        far = [[lon, lat + 0.05], [east(lon, lat + 0.05, 1000), lat + 0.05]]
        agency_value(code, "lines.shared_stretch", {"buffer_m": 25, "min_length_m": 200})
        folder = tmp_path / code
        folder.mkdir()
        import_bus(
            code, folder, [{"id": "B1", "shape": far, "stops": far, "departures": {"weekday": ["07:00"]}}]
        )
    agency_value("marica", "lines.regions", ["Centro", "Itaipuaçu"])


def entity(code: str, n: int = 1) -> Any:
    from lotacao.registry import services as registry

    return registry.create_company(
        actor=None,
        jurisdiction=jurisdiction(code),
        cnpj=sample_cnpj(70_000 + n),
        legal_name=f"Associação dos Permissionários {n}",
        reason="t",
    )


def request(code: str, line: Any, kind: str = "itinerary", **over: Any) -> ChangeRequest:
    data: dict[str, Any] = {
        "actor": None,
        "jurisdiction_code": code,
        "kind": kind,
        "origin": "agency",
        "line": line,
        "proposal": "Passar pela Rua Nova",
        "reasons": "Rua antiga fechada ao trânsito",
        "on": D,
    }
    data.update(over)
    return life.file_request(**data)


def decide(req: ChangeRequest, on: dt.date, approve: bool = True, **over: Any) -> ChangeRequest:
    data: dict[str, Any] = {
        "actor": None,
        "request": req,
        "approve": approve,
        "reasons": "Atende ao interesse público",
        "act": "Portaria nº 10/2025",
        "act_date": on,
        "effective_on": on + dt.timedelta(days=10),
        "on": on,
    }
    data.update(over)
    return life.decide(**data)


def rows(feed: bytes, name: str) -> list[dict[str, str]]:
    with zipfile.ZipFile(io.BytesIO(feed)) as archive:
        if name not in archive.namelist():
            return []
        return list(csv.DictReader(io.StringIO(archive.read(name).decode())))


# --- Esteio: art. 8º, I; art. 26, parágrafo único — prior hearing of the operators ---------------


def test_esteio_a_decision_before_the_hearing_ends_or_without_answers_is_refused(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    permit("esteio", line)
    req = request("esteio", line, origin="public", requester_name="Ana", requester_contact="ana@example.org")
    assert req.status == "filed"
    with pytest.raises(ValidationError, match=r"apreciação|oitiva"):
        life.to_study(actor=None, request=req, reason="t", on=D)
    with pytest.raises(ValidationError, match=r"art\. 26, parágrafo único"):
        decide(req, D, approve=False)
    life.open_hearing(actor=None, request=req, until=D + dt.timedelta(days=15), reason="t", on=D)
    req.refresh_from_db()
    with pytest.raises(ValidationError, match="vai até 18/03/2025"):
        life.to_study(actor=None, request=req, reason="t", on=D + dt.timedelta(days=5))
    after = D + dt.timedelta(days=16)
    with pytest.raises(ValidationError, match="prazo da oitiva terminou"):
        life.record_answer(actor=None, request=req, party="x", agrees=True, text="ok", on=after)
    with pytest.raises(
        ValidationError, match="nenhum dos permissionários e concessionários da linha se manifestou"
    ):
        life.to_study(actor=None, request=req, reason="t", on=after)
    assert ChangeRequest.objects.get(pk=req.pk).status == "hearing"


def test_esteio_a_users_request_needs_the_cmtt(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    req = request("esteio", line, origin="public", requester_name="Ana", requester_contact="ana@example.org")
    life.open_hearing(actor=None, request=req, until=D + dt.timedelta(days=2), reason="t", on=D)
    life.record_answer(actor=None, request=req, party="Cooperativa", agrees=True, text="Sim", on=D)
    after = D + dt.timedelta(days=3)
    life.to_study(actor=None, request=req, reason="t", on=after)
    req.refresh_from_db()
    with pytest.raises(ValidationError, match=r"CMTT.*art\. 26, parágrafo único"):
        decide(req, after)
    assert decide(req, after, resolution=resolution_for("esteio", "line.change", after)).status == "approved"


def test_esteio_walks_from_filing_to_approval(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    holder_permit = permit("esteio", line)
    req = request("esteio", line)
    life.open_hearing(actor=None, request=req, until=D + dt.timedelta(days=10), reason="t", on=D)
    life.record_answer(
        actor=None,
        request=req,
        party="",
        holder=holder_permit.holder,
        agrees=False,
        text="Perco passageiros",
        on=D + dt.timedelta(days=2),
    )
    after = D + dt.timedelta(days=11)
    life.to_study(actor=None, request=req, reason="Oitiva concluída", on=after)
    done = decide(ChangeRequest.objects.get(pk=req.pk), after)
    assert done.status == "approved" and done.act == "Portaria nº 10/2025"
    assert done.effective_on == after + dt.timedelta(days=10)
    with pytest.raises(ValidationError, match="aprovado"):
        decide(done, after)


# --- Cabo: art. 18 — agreement of the holders' entities; holders moved when a line ends ----------


def test_cabo_approval_needs_the_entities_agreement(ready: Any) -> None:
    line = approved_line("cabo", valid_from=D)
    req = request("cabo", line, origin="holder", holder=permit("cabo", line).holder)
    life.open_hearing(actor=None, request=req, until=D + dt.timedelta(days=5), reason="t", on=D)
    after = D + dt.timedelta(days=6)
    life.record_answer(actor=None, request=req, party="Permissionário", agrees=True, text="Sim", on=D)
    life.to_study(actor=None, request=req, reason="t", on=after)
    req.refresh_from_db()
    with pytest.raises(ValidationError, match="falta a manifestação das entidades representativas"):
        decide(req, after)
    refused = decide(req, after, approve=False)  # refusing changes nothing: no agreement needed
    assert refused.status == "refused"

    req2 = request("cabo", line)
    life.open_hearing(actor=None, request=req2, until=D + dt.timedelta(days=5), reason="t", on=D)
    life.record_answer(
        actor=None, request=req2, party="", entity=entity("cabo"), agrees=False, text="Não", on=D
    )
    life.to_study(actor=None, request=req2, reason="t", on=after)
    req2.refresh_from_db()
    with pytest.raises(ValidationError, match="não concordaram"):
        decide(req2, after)


def test_cabo_ending_a_line_moves_its_holders_on_the_date(ready: Any) -> None:
    line = approved_line("cabo", valid_from=D)
    other = approved_line("cabo", valid_from=D)
    p = permit("cabo", line)
    places.assign_place(actor=None, permit=p, line=line, starts_on=D, reason="t")
    with pytest.raises(ValidationError, match="oitiva"):
        life.end_line(actor=None, line=line, effective_on=D, act="Ato 1", act_date=D, reasons="r", on=D)
    req = request("cabo", line, kind="end")
    life.open_hearing(actor=None, request=req, until=D + dt.timedelta(days=3), reason="t", on=D)
    life.record_answer(
        actor=None, request=req, party="", entity=entity("cabo", 2), agrees=True, text="Sim", on=D
    )
    after = D + dt.timedelta(days=4)
    life.to_study(actor=None, request=req, reason="t", on=after)
    req = decide(ChangeRequest.objects.get(pk=req.pk), after)
    effective = after + dt.timedelta(days=20)
    kwargs = {
        "actor": None,
        "line": line,
        "effective_on": effective,
        "act": "Ato 2/2025",
        "act_date": after,
        "reasons": "Linha sem demanda",
        "request": req,
        "on": after,
    }
    with pytest.raises(ValidationError, match="remanejar"):
        life.end_line(fate="end", **kwargs)
    with pytest.raises(ValidationError, match="linha que recebe"):
        life.end_line(**kwargs)
    ending = life.end_line(target=other, **kwargs)
    assert ending.fate == "move" and "remanejar" in ending.fate_reading
    assert life.deactivate_due(on=effective - dt.timedelta(days=1)) == 0
    assert life.deactivate_due(on=effective) == 1
    assert life.deactivate_due(on=effective) == 0
    line.refresh_from_db()
    assert not line.active
    live = Place.objects.get(permit=p, ends_on__isnull=True)
    assert live.line_id == other.pk and live.starts_on == effective
    assert LineEnd.objects.get(pk=ending.pk).report["moved"] == [str(p)]


# --- Recife: art. 3º, § 1º; art. 4º, parágrafo único — hearing not required; study to create ----


def test_recife_hearing_optional_study_required_to_create(lines_db: Any) -> None:
    jurisdiction("recife")
    rule = life.hearing_rule("recife", D)
    assert not rule.required and "não exige ouvir" in rule.text()
    req = request("recife", None, kind="create", proposal="Nova linha Ibura — Centro")
    life.to_study(actor=None, request=req, reason="t", on=D)
    req.refresh_from_db()
    with pytest.raises(ValidationError, match="estudo de viabilidade"):
        decide(req, D)
    life.attach_study(
        actor=None,
        request=req,
        study="Estudo nº 3/2025",
        reason="t",
        file=SimpleUploadedFile("estudo.pdf", PDF, content_type="application/pdf"),
    )
    req.refresh_from_db()
    assert req.study_content_type == "application/pdf"
    with pytest.raises(ValidationError, match=r"CMTT/Recife.*art\. 3º, § 1º.*não é aprovado"):
        decide(req, D)  # the council's approval (Recife art. 3º, § 1º)
    done = decide(req, D, resolution=resolution_for("recife", "line.create", D))
    assert done.status == "approved" and done.resolution is not None
    with pytest.raises(ValidationError, match="PDF, PNG ou JPEG"):
        request("recife", None, kind="create", study_file=SimpleUploadedFile("x.txt", b"hello"))


def test_recife_ending_a_line_staff_choose_and_places_end(lines_db: Any) -> None:
    line = approved_line("recife", valid_from=D)
    p = permit("recife", line)
    places.assign_place(actor=None, permit=p, line=line, starts_on=D, reason="t")
    kwargs = {
        "actor": None,
        "line": line,
        "effective_on": D + dt.timedelta(days=30),
        "act": "Resolução CMTT 4/2025",
        "act_date": D,
        "reasons": "Linha sem demanda",
        "on": D,
    }
    with pytest.raises(ValidationError, match="Escolha o que acontece"):
        life.end_line(**kwargs)
    with pytest.raises(ValidationError, match="sem ela a linha continua em operação"):
        life.end_line(fate="end", **kwargs)
    ending = life.end_line(fate="end", resolution=resolution_for("recife", "line.end", D), **kwargs)
    assert "não diz o que acontece às permissões" in ending.fate_reading
    assert life.deactivate_due(on=D + dt.timedelta(days=40)) == 1
    place = Place.objects.get(permit=p)
    assert place.ends_on == D + dt.timedelta(days=29)


# --- Maricá: arts. 10, 11, 17 and 18 — hearing not required; the technical study always --------


def test_marica_a_change_needs_the_study_and_an_open_hearing_waits_its_period(ready: Any) -> None:
    line = approved_line("marica", valid_from=D)
    assert "Maricá" in life.hearing_rule("marica", D).text()
    req = request("marica", line, kind="stops")
    life.open_hearing(actor=None, request=req, until=D + dt.timedelta(days=7), reason="t", on=D)
    with pytest.raises(ValidationError, match="vai até"):
        life.to_study(actor=None, request=ChangeRequest.objects.get(pk=req.pk), reason="t", on=D)
    after = D + dt.timedelta(days=8)
    life.to_study(actor=None, request=req, reason="t", on=after)  # no answers: the law does not require them
    req.refresh_from_db()
    with pytest.raises(ValidationError, match="projeto técnico"):
        decide(req, after)
    life.attach_study(actor=None, request=req, study="Projeto técnico EPT nº 2/2025", reason="t")
    assert decide(ChangeRequest.objects.get(pk=req.pk), after).status == "approved"


# --- Pernambuco: no lines ----------------------------------------------------------------------


def test_pernambuco_has_no_lines_to_change(lines_db: Any) -> None:
    jurisdiction("pernambuco")
    with pytest.raises(ValidationError, match="não organiza o serviço em linhas"):
        request("pernambuco", None, kind="create")


def test_bad_input_is_refused_and_nothing_is_written(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    with pytest.raises(ValidationError, match="Jurisdição desconhecida"):
        request("nao-existe", None, kind="create")
    with pytest.raises(ValidationError, match="Indique a linha"):
        request("esteio", None)
    with pytest.raises(ValidationError, match="seu nome"):
        request("esteio", line, origin="public")
    with pytest.raises(ValidationError, match="motivos"):
        request("esteio", line, reasons=" ")
    assert not ChangeRequest.objects.exists()


# --- temporary changes in the GTFS export -------------------------------------------------------


def test_a_suspension_and_a_detour_are_in_the_exported_feed(lines_db: Any, tmp_path: Any) -> None:
    line = approved_line("recife", valid_from=D)
    order(line)
    other = approved_line("recife", valid_from=D)
    order(other)
    life.add_temporary_change(
        actor=None,
        line=line,
        cause="event",
        description="Carnaval",
        starts_on=dt.date(2025, 3, 10),
        ends_on=dt.date(2025, 3, 12),
        suspended=True,
        act="Portaria 5/2025",
        reason="t",
    )
    lon, lat = -34.900, -8.050
    detour = [[lon, lat], [east(lon, lat, 1000), lat - 0.004], [east(lon, lat, 2000), lat]]
    life.add_temporary_change(
        actor=None,
        line=other,
        cause="works",
        description="Obras na ponte",
        starts_on=dt.date(2025, 3, 17),
        ends_on=dt.date(2025, 3, 21),
        itinerary=detour,
        act="Portaria 6/2025",
        reason="t",
        stops=[
            {"name": "Terminal Bairro", "lat": lat, "lon": lon, "kind": "terminal"},
            {"name": "Desvio da Ponte", "lat": lat - 0.004, "lon": east(lon, lat, 1000)},
            {"name": "Terminal Centro", "lat": lat, "lon": east(lon, lat, 2000), "kind": "terminal"},
        ],
    )
    with pytest.raises(ValidationError, match="já tem uma alteração temporária"):
        life.add_temporary_change(
            actor=None,
            line=line,
            cause="works",
            description="x",
            starts_on=dt.date(2025, 3, 12),
            ends_on=dt.date(2025, 3, 13),
            suspended=True,
            act="P",
            reason="t",
        )
    feed = gtfs.export("recife", D, "https://lotacao.example.org/publico/linhas/recife/")
    removed = {
        (r["service_id"], r["date"]) for r in rows(feed, "calendar_dates.txt") if r["exception_type"] == "2"
    }
    for day in ("20250310", "20250311", "20250312"):
        assert (f"{line.code}-oso1-weekday", day) in removed
    assert (f"{line.code}-oso1-weekday", "20250313") not in removed
    for day in ("20250317", "20250321"):
        assert (f"{other.code}-oso1-weekday", day) in removed
    calendar = {r["service_id"]: r for r in rows(feed, "calendar.txt")}
    alt = [s for s in calendar if s.startswith(f"{other.code}-oso1-alt")]
    assert alt and all(
        calendar[s]["start_date"] == "20250317" and calendar[s]["end_date"] == "20250321" for s in alt
    )
    trips = [t for t in rows(feed, "trips.txt") if t["service_id"] in alt]
    assert trips and {t["route_id"] for t in trips} == {other.code}
    names = {r["stop_id"]: r["stop_name"] for r in rows(feed, "stops.txt")}
    trip_ids = {t["trip_id"] for t in trips}
    called = {names[r["stop_id"]] for r in rows(feed, "stop_times.txt") if r["trip_id"] in trip_ids}
    assert "Desvio da Ponte" in called
    assert {r["shape_id"] for r in rows(feed, "shapes.txt")} >= {t["shape_id"] for t in trips}
    found = notices(feed, tmp_path)  # the canonical validator: still no errors
    assert {code: n for code, (severity, n) in found.items() if severity == "ERROR"} == {}, found


def test_an_ended_line_leaves_the_feed_on_its_date(lines_db: Any) -> None:
    line = approved_line("recife", valid_from=D)
    order(line)
    life.end_line(
        actor=None,
        line=line,
        effective_on=dt.date(2025, 4, 1),
        act="Resolução 9/2025",
        act_date=D,
        reasons="r",
        fate="end",
        on=D,
        resolution=resolution_for("recife", "line.end", D),
    )
    feed = gtfs.export("recife", D, "https://lotacao.example.org/publico/linhas/recife/")
    ends = {r["end_date"] for r in rows(feed, "calendar.txt") if r["service_id"].startswith(line.code)}
    assert ends == {"20250331"}
    life.deactivate_due(on=dt.date(2025, 4, 1))
    assert rows(gtfs.export("recife", dt.date(2025, 4, 2), "https://x.example.org/"), "routes.txt") == []
