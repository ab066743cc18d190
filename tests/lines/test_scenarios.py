"""The issue's scenarios, read from the laws (Recife, Cabo, Esteio, Maricá; Pernambuco has no lines)."""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.lines import gtfs, places, queue, selectors, services
from lotacao.lines.models import LineVersion
from tests.lines.conftest import (
    ORIGIN,
    agency_value,
    approved_line,
    east,
    import_bus,
    new_line,
    permit,
    resolution_if_gated,
    straight,
    version_kwargs,
)

D = dt.date(2025, 3, 1)


def order(line: Any, periods: list[dict[str, Any]], valid_from: dt.date = D, **over: Any) -> Any:
    data = {"fleet": 2, "trip_minutes": 30, "act": "OSO nº 1/2025", "reason": "teste"}
    data.update(over)
    data.setdefault("resolution", resolution_if_gated(line.jurisdiction_id, "fleet.change", valid_from))
    return services.issue_service_order(actor=None, line=line, periods=periods, valid_from=valid_from, **data)


def headway(day: str, first: str, last: str, every: int = 20) -> dict[str, Any]:
    h1, m1 = (int(x) for x in first.split(":"))
    h2, m2 = (int(x) for x in last.split(":"))
    a, b = h1 * 60 + m1, h2 * 60 + m2
    return {"day_type": day, "first": a, "last": b + 1440 if b < a else b, "headway": every}


def fixed(day: str, *times: str) -> dict[str, Any]:
    return {"day_type": day, "departures": [int(t[:2]) * 60 + int(t[3:]) for t in times]}


def messages(error: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(error.value.messages)


# --- Recife -------------------------------------------------------------------------------------


def test_recife_temporal_order_must_stay_within_22h_to_4h(lines_db: Any) -> None:
    line = approved_line("recife", grounds=["temporal"], valid_from=D)
    with pytest.raises(ValidationError) as refused:
        order(line, [headway("weekday", "21:30", "04:00")])
    text = messages(refused)
    assert "21:30–04:00 (dia seguinte) fora do período de 22:00 às 04:00" in text and "art. 1º, § 3º" in text
    assert not line.service_orders.exists()  # nothing written

    done = order(line, [headway("weekday", "22:00", "04:00"), headway("sunday", "06:00", "23:00", 30)])
    feed = gtfs.export("recife", D, "https://lotacao.example.org/publico/linhas/recife/")
    with zipfile.ZipFile(io.BytesIO(feed)) as archive:
        frequencies = archive.read("frequencies.txt").decode()
    assert f"{line.code}-oso{done.number}-weekday-p" in frequencies
    assert ",22:00:00,28:00:00,1200,0" in frequencies  # night service as GTFS writes it


def test_recife_radial_line_on_geographic_grounds_is_refused(lines_db: Any) -> None:
    line = new_line("recife")
    with pytest.raises(ValidationError) as refused:
        services.draft_version(actor=None, line=line, on=D, **version_kwargs("recife", shape="radial"))
    assert "Linha radial vedada, salvo por fator temporal" in messages(refused)
    assert "art. 4º, parágrafo único" in messages(refused)
    assert not LineVersion.objects.filter(line=line).exists()
    # on temporal grounds the law allows it
    services.draft_version(
        actor=None, line=line, on=D, **version_kwargs("recife", shape="radial", grounds=["temporal"])
    )


def test_recife_line_without_its_cmtt_act_stays_a_draft(lines_db: Any) -> None:
    line = new_line("recife")
    version = services.draft_version(actor=None, line=line, on=D, **version_kwargs("recife"))
    with pytest.raises(ValidationError) as refused:
        services.approve_version(
            actor=None, version=version, act=" ", approved_on=D, valid_from=D, reason="x"
        )
    assert "aprovação do CMTT/Recife" in messages(refused) and "continua rascunho" in messages(refused)
    assert "art. 3º, § 1º" in messages(refused)
    version.refresh_from_db()
    assert version.status == LineVersion.Status.DRAFT
    assert selectors.version_in_force(line, D) is None
    assert selectors.public_lines("recife", D) == []
    items = [i for i in queue.items(D, 30) if i.kind == "lines.draft"]
    assert [i.key for i in items] == [str(version.pk)] and "CMTT/Recife" in items[0].title


# --- Cabo ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("metres", "accepted"), [(12, False), (22, True), (40, False)])
def test_cabo_stop_on_an_overlap_stands_15_to_30_m_from_the_bus_stop(
    lines_db: Any, tmp_path: Any, metres: float, accepted: bool
) -> None:
    lon, lat = ORIGIN["cabo"]
    # the bus runs along the middle kilometre of the van's 2 km itinerary, with a stop at 1 km
    shape = [[east(lon, lat, 500), lat], [east(lon, lat, 1500), lat]]
    stops = [[east(lon, lat, 600), lat], [east(lon, lat, 1000), lat]]
    import_bus(
        "cabo",
        tmp_path,
        [
            {
                "id": "140",
                "name": "Centro",
                "shape": shape,
                "stops": stops,
                "departures": {"weekday": ["07:00"]},
            }
        ],
    )
    agency_value("cabo", "lines.shared_stretch", {"buffer_m": 25, "min_length_m": 200})
    stops = version_kwargs("cabo")["stops"] + [
        {"name": "Parada do Mercado", "lat": lat, "lon": east(lon, lat, 1000 + metres)}
    ]
    line = new_line("cabo")
    draft = dict(actor=None, line=line, on=D, **version_kwargs("cabo", stops=stops))
    if accepted:
        services.draft_version(**draft)
        return
    with pytest.raises(ValidationError) as refused:
        services.draft_version(**draft)
    assert f"fica a {metres} m da parada de ônibus" in messages(refused)
    assert "entre 15 e 30 m" in messages(refused) and "art. 17, parágrafo único" in messages(refused)


def test_cabo_approval_waits_for_the_overlap_definition_and_the_bus_network(lines_db: Any) -> None:
    line = new_line("cabo")
    version = services.draft_version(actor=None, line=line, on=D, **version_kwargs("cabo"))
    with pytest.raises(ValidationError) as refused:
        services.approve_version(
            actor=None, version=version, act="Ato 1", approved_on=D, valid_from=D, reason="x"
        )
    assert "Importe a rede de ônibus" in messages(refused)


# --- Maricá -------------------------------------------------------------------------------------


def marica_setup(tmp_path: Any) -> Any:
    agency_value("marica", "lines.regions", ["Centro", "Itaipuaçu", "Ponta Negra"])
    agency_value("marica", "lines.shared_stretch", {"buffer_m": 25, "min_length_m": 200})
    import_bus(
        "marica",
        tmp_path,
        [
            {
                "id": "M1",
                "name": "Centro",
                "shape": straight("marica"),
                "stops": straight("marica")[:2],
                "departures": {"weekday": ["07:00", "09:00"], "sunday": ["08:00"]},
            }
        ],
    )
    return approved_line("marica", valid_from=D)


def test_marica_departure_10_minutes_after_a_bus_on_a_shared_stretch_is_refused(
    lines_db: Any, tmp_path: Any
) -> None:
    line = marica_setup(tmp_path)
    with pytest.raises(ValidationError) as refused:
        order(line, [fixed("weekday", "07:10", "08:00")])
    text = messages(refused)
    assert "a partida das 07:10, a 10 min do ônibus da linha M1" in text
    assert "que passa no início do trecho comum às 07:00" in text
    assert "art. 4º, § 2º" in text
    done = order(line, [fixed("weekday", "07:15", "08:00"), fixed("holiday", "07:00")])
    assert done.number == 1


def _marica_bus(tmp_path: Any, shape: list[list[float]], departure: str) -> Any:
    agency_value("marica", "lines.regions", ["Centro", "Itaipuaçu", "Ponta Negra"])
    agency_value("marica", "lines.shared_stretch", {"buffer_m": 25, "min_length_m": 200})
    import_bus(
        "marica",
        tmp_path,
        [
            {
                "id": "M2",
                "name": "Longa",
                "shape": shape,
                "stops": shape,
                "departures": {"weekday": [departure]},
            }
        ],
    )
    return approved_line("marica", valid_from=D)


def test_marica_compares_times_where_the_bus_passes_the_shared_stretch(lines_db: Any, tmp_path: Any) -> None:
    # The bus leaves 3 km before the shared stretch at 06:45 and passes its start at 06:50 (its
    # stop times): a van leaving there at 07:00 is 10 minutes from it, not 15 from its departure.
    lon, lat = straight("marica")[0]
    west = [east(lon, lat, -3000), lat]
    line = _marica_bus(tmp_path, [west, *straight("marica")[:2]], "06:45")
    with pytest.raises(ValidationError) as refused:
        order(line, [fixed("weekday", "07:00")])
    assert "que passa no início do trecho comum às 06:50" in messages(refused)
    assert order(line, [fixed("weekday", "07:05")]).number == 1


def test_marica_the_van_reaches_a_stretch_that_starts_midway_later(lines_db: Any, tmp_path: Any) -> None:
    # The stretch starts halfway along a 2 km itinerary run in 20 minutes: the van leaving at 06:50
    # is there at 07:00, 10 minutes from the bus that passes at 07:10.
    mid_and_end = straight("marica")[1:]
    line = _marica_bus(tmp_path, mid_and_end, "07:10")
    with pytest.raises(ValidationError) as refused:
        order(line, [fixed("weekday", "06:50")], trip_minutes=20)
    text = messages(refused)
    assert "a van das 06:50 chega ao início do trecho comum às 07:00" in text and "07:10" in text
    assert order(line, [fixed("weekday", "06:45")], trip_minutes=20).number == 1


def test_marica_line_not_started_in_30_days_opens_the_reaward_item_on_day_31(
    lines_db: Any, tmp_path: Any
) -> None:
    line = marica_setup(tmp_path)
    place = places.assign_place(actor=None, permit=permit("marica", line), line=line, starts_on=D, reason="x")

    def reaward(day: dt.date) -> list[Any]:
        return [i for i in queue.items(day, 30) if i.kind == "lines.reaward"]

    assert reaward(dt.date(2025, 3, 31)) == []
    items = reaward(dt.date(2025, 4, 1))
    assert len(items) == 1 and items[0].due_on == dt.date(2025, 4, 1)
    assert "31/03/2025" in items[0].title and "art. 6º, § 5º, II" in items[0].title
    places.record_trips(actor=None, place=place, on=dt.date(2025, 3, 20), reason="x")
    assert reaward(dt.date(2025, 4, 1)) == []


def test_marica_vehicle_operates_only_one_line(lines_db: Any, tmp_path: Any) -> None:
    line = marica_setup(tmp_path)
    other = approved_line("marica", valid_from=D)
    first = permit("marica", line)
    places.assign_place(actor=None, permit=first, line=line, starts_on=D, reason="x")
    second = permit("marica", other)
    with pytest.raises(ValidationError) as refused:
        places.assign_place(
            actor=None, permit=second, line=other, starts_on=D, reason="x", vehicle=first.vehicle
        )
    assert "art. 6º, § 3º" in messages(refused)


# --- Esteio -------------------------------------------------------------------------------------


def test_esteio_permit_unused_for_more_than_six_months(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    place = places.assign_place(actor=None, permit=permit("esteio", line), line=line, starts_on=D, reason="x")
    places.record_trips(actor=None, place=place, on=dt.date(2025, 4, 10), reason="x")

    def unused(day: dt.date) -> list[Any]:
        return [i for i in queue.items(day, 30) if i.kind == "lines.unused"]

    assert unused(dt.date(2025, 10, 10)) == []
    items = unused(dt.date(2025, 10, 11))
    assert len(items) == 1 and "Anexo II, V-01" in items[0].title and "10/04/2025" in items[0].title


# --- every law ----------------------------------------------------------------------------------


def test_a_notice_is_judged_against_the_order_in_force_on_its_date(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    old = order(line, [headway("weekday", "06:00", "20:00", 30)], valid_from=D)
    new = order(line, [headway("weekday", "05:00", "22:00", 15)], valid_from=dt.date(2025, 5, 1), act="OSO 2")
    assert selectors.service_order_in_force(line, dt.date(2025, 4, 30)) == old
    assert selectors.service_order_in_force(line, dt.date(2025, 5, 1)) == new
    car = permit("esteio", line)
    places.assign_place(actor=None, permit=car, line=line, starts_on=D, reason="x")
    context = selectors.notice_context(on=dt.date(2025, 4, 30), vehicle=car.vehicle)
    assert context["order"] == old and context["required"]["periods"][0]["headway"] == 30
    assert context["required"]["label"] == "Ordem de Serviço de Operação (OSO)"
    strike = order(
        line,
        [headway("weekday", "04:00", "23:59", 10)],
        valid_from=dt.date(2025, 6, 2),
        kind="temporary",
        cause="bus_stoppage",
        valid_until=dt.date(2025, 6, 4),
        act="OSO 3",
    )
    assert selectors.service_order_in_force(line, dt.date(2025, 6, 3)) == strike
    assert selectors.service_order_in_force(line, dt.date(2025, 6, 5)) == new


def test_the_feed_has_no_personal_data_and_pernambuco_has_no_feed(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    car = permit("esteio", line)
    places.assign_place(actor=None, permit=car, line=line, starts_on=D, reason="x")
    order(line, [fixed("weekday", "06:00", "07:00")], vehicles=[car.vehicle])
    feed = gtfs.export("esteio", D, "https://lotacao.example.org/")
    with zipfile.ZipFile(io.BytesIO(feed)) as archive:
        text = json.dumps({n: archive.read(n).decode() for n in archive.namelist()})
    person = car.holder.person
    for secret in (person.cpf, person.full_name, car.vehicle.plate, car.number):
        assert secret not in text
    from tests.lines.conftest import jurisdiction

    jurisdiction("pernambuco")
    with pytest.raises(gtfs.NoFeed):
        gtfs.export("pernambuco", D, "https://lotacao.example.org/")
    with pytest.raises(ValidationError) as refused:
        services.draft_version(actor=None, line=new_line("pernambuco"), on=D, **version_kwargs("recife"))
    assert "não organiza o serviço em linhas" in messages(refused)
