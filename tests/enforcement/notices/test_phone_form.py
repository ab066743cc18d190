"""The inspector's phone form (issue 11): one plate entry fills vehicle, permit, holder and line,
and asks for the line where the law requires it and the plate gives none (a suspended or revoked
permit, Maricá art. 61); Maricá's group comes from the agency's values; the OSO and the fare in
force on the infraction's day; photos as evidence; the notice page in the law's words; the API's
plate links and its Idempotency-Key for a notice kept offline."""

from __future__ import annotations

import datetime as dt
import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from lotacao.billing.fares.models import FareAct
from lotacao.enforcement.models import InfractionNotice, NoticePhoto
from lotacao.enforcement.notices.street import street_rules
from lotacao.lines import places
from tests.lines.conftest import agency_value, approved_line, jurisdiction, new_line, permit
from tests.lines.test_scenarios import D, headway, order

pytestmark = pytest.mark.django_db

URL = "/fiscalizacao/autos/novo/"


@pytest.fixture
def marica(world: Any) -> Any:
    from lotacao.accounts.models import StaffMembership, User

    j = jurisdiction("marica")
    user = User.objects.create_user(
        "fiscal.marica", password="senha-de-teste-123", first_name="Ana", last_name="Fiscal"
    )
    StaffMembership.objects.create(user=user, jurisdiction=j, role="fiscal")
    return user


def moment(delta_hours: int = 1) -> str:
    return (timezone.localtime() - dt.timedelta(hours=delta_hours)).strftime("%d/%m/%Y %H:%M")


def marica_data(plate: str, **over: Any) -> dict[str, Any]:
    data = {
        "jurisdicao": "marica",
        "idempotency_key": over.pop("key", "k-marica"),
        "plate": plate,
        "offender_kind": "permit_holder",
        "infraction_code": "art42-II",
        "drawn_up_at": moment(),
        "place": "Av. Roberto Silveira, 100",
        "description": "Van com permissão suspensa transportando passageiros",
    }
    data.update(over)
    return data


def notices() -> Any:
    return InfractionNotice.unscoped.filter(jurisdiction_id="marica")


def png(color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(out, "PNG")
    return out.getvalue()


# --- the plate fills everything; the line where the law requires it -----------------------------


def test_a_suspended_permit_gives_holder_and_line_from_the_plate(marica: Any, client: Any) -> None:
    line = new_line("marica")
    suspended = permit("marica", line, status="suspended")
    agency_value("marica", "infraction.groups", {"art42-II": "B"})
    client.force_login(marica)
    plate = suspended.vehicle.plate

    page = client.get(URL, {"placa": plate}).content.decode()
    assert "(suspensa)" in page and suspended.holder.person.full_name in page
    assert f'<option value="{line.pk}" selected>' in page  # the line filled from the plate
    assert "Preenchida pela placa" in page
    assert 'name="infraction_group"' not in page  # Maricá's group is never asked in the street
    assert "art. 42, II — Utilizar o veículo" in page and "(grupo B)" in page

    response = client.post(URL, marica_data(plate, line=str(line.pk)))
    assert response.status_code == 302, response.content.decode()[:3000]
    notice = notices().get()
    assert (notice.permit, notice.holder, notice.vehicle, notice.line) == (
        suspended,
        suspended.holder,
        suspended.vehicle,
        line,
    )
    assert notice.infraction_group == "B"  # the agency's value, not the inspector's choice
    page = client.get(response["Location"]).content.decode()
    assert "art. 42, II — Utilizar o veículo" in page and "art42-II" not in page
    assert "Ana Fiscal" in page and ">fiscal.marica<" not in page
    assert timezone.localtime(notice.drawn_up_at).strftime("%d/%m/%Y %H:%M") in page
    assert "<details>" in page and "Grupo B" in page


def test_a_permit_without_line_asks_for_the_line_the_law_requires(marica: Any, client: Any) -> None:
    line = new_line("marica")
    revoked = permit("marica", None, status="revoked")
    agency_value("marica", "infraction.groups", {"art42-II": "B"})
    client.force_login(marica)
    plate = revoked.vehicle.plate

    consult = client.post(URL, {**marica_data(plate), "consult": "1"})
    assert consult.status_code == 200
    page = consult.content.decode()
    assert "Linha *" in page and "A placa não dá a linha" in page and "art. 61" in page
    assert f'value="{plate}"' in page  # typed once: the consult keeps it in the same form
    assert notices().count() == 0

    refused = client.post(URL, marica_data(plate))
    assert refused.status_code == 422
    assert "Falta a linha, exigido no auto de infração" in refused.content.decode()
    assert notices().count() == 0

    done = client.post(URL, marica_data(plate, key="k-2", line=str(line.pk)))
    assert done.status_code == 302, done.content.decode()[:3000]
    notice = notices().get()
    assert notice.line == line and notice.holder == revoked.holder and notice.permit == revoked


def test_a_conduct_the_agency_has_not_classified_says_who_must_supply_it(marica: Any, client: Any) -> None:
    line = new_line("marica")
    active = permit("marica", line)
    client.force_login(marica)
    page = client.get(URL, {"placa": active.vehicle.plate}).content.decode()
    # Said once, in plain words (issue 24, defect 12) — not after every conduct of the list.
    assert "grupo não informado pelo órgão gestor" not in page
    assert page.count("não acompanha o texto publicado") == 1 and "ainda estão sem grupo" in page
    assert page.count('<optgroup label="Sem grupo informado pelo órgão gestor">') == 1
    refused = client.post(URL, marica_data(active.vehicle.plate, line=str(line.pk)))
    assert refused.status_code == 422
    text = refused.content.decode()
    assert "O grupo da conduta art. 42, II não foi informado pelo órgão gestor (Lei" in text
    assert "art. 43): o gestor deve informá-lo" in text
    assert "Valores da lei" in text
    assert notices().count() == 0


# --- the OSO and the fare of the infraction's day -----------------------------------------------


def _esteio_line() -> tuple[Any, Any, Any, Any]:
    line = approved_line("esteio", valid_from=D)
    old = order(line, [headway("weekday", "06:00", "20:00", 30)], valid_from=D)
    new = order(line, [headway("weekday", "05:00", "22:00", 15)], valid_from=dt.date(2025, 5, 1), act="OSO 2")
    car = permit("esteio", line)
    places.assign_place(actor=None, permit=car, line=line, starts_on=D, reason="x")
    return line, old, new, car


def test_a_notice_the_day_before_a_new_oso_is_judged_against_the_old(world: Any, client: Any) -> None:
    line, old, new, car = _esteio_line()
    before = street_rules("esteio", "II-10", line, dt.date(2025, 4, 30))
    assert before["order_needed"] and before["order"]["number"] == old.number
    assert before["order"]["periods"][0]["headway"] == 30
    after = street_rules("esteio", "II-10", line, dt.date(2025, 5, 1))
    assert after["order"]["number"] == new.number and after["order"]["periods"][0]["headway"] == 15
    assert not street_rules("esteio", "II-02", line, dt.date(2025, 4, 30))["order_needed"]

    client.force_login(world.users["fiscal.esteio"])
    data = {
        "jurisdicao": "esteio",
        "idempotency_key": "k-oso",
        "plate": car.vehicle.plate,
        "offender_kind": "permit_holder",
        "infraction_code": "II-10",
        "drawn_up_at": "30/04/2025 07:10",
        "place": "Terminal Centro",
        "description": "Saída antecipada",
        "preview": "1",
    }
    page = client.post(URL, data).content.decode()
    assert "em vigor em 30/04/2025" in page
    assert "uma saída a cada 30 minutos" in page and "a cada 15 minutos" not in page
    data["drawn_up_at"] = "01/05/2025 07:10"
    page = client.post(URL, data).content.decode()
    assert "uma saída a cada 15 minutos" in page


def test_a_wrong_fare_notice_shows_the_fare_of_that_day(world: Any, client: Any) -> None:
    line, _, _, car = _esteio_line()
    FareAct.objects.create(
        jurisdiction_id="esteio", line=line, valid_from=D, amount="4.50", act="Decreto nº 1/2025"
    )
    FareAct.objects.create(
        jurisdiction_id="esteio", line=line, valid_from=dt.date(2025, 6, 1), amount="5.00", act="Decreto 9"
    )
    assert street_rules("esteio", "IV-01", line, dt.date(2025, 5, 31))["fare"].amount == 4.5
    client.force_login(world.users["fiscal.esteio"])
    page = client.post(
        URL,
        {
            "jurisdicao": "esteio",
            "idempotency_key": "k-fare",
            "plate": car.vehicle.plate,
            "offender_kind": "permit_holder",
            "infraction_code": "IV-01",
            "drawn_up_at": "31/05/2025 08:00",
            "place": "Av. Presidente Vargas",
            "description": "Cobrou R$ 6,00",
            "preview": "1",
        },
    ).content.decode()
    assert "Tarifa da linha em 31/05/2025" in page and "R$\xa04,50" in page and "Decreto nº 1/2025" in page
    assert "R$\xa05,00" not in page


# --- photos --------------------------------------------------------------------------------------


def test_photos_from_the_camera_are_kept_with_the_notice(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    data = {
        "jurisdicao": "recife",
        "idempotency_key": "k-photo",
        "plate": world.objects["recife"]["registry.vehicle"].plate,
        "offender_kind": "permit_holder",
        "infraction_code": "G2-a",
        "drawn_up_at": moment(),
        "place": "Av. Norte, 100",
        "description": "Fora do itinerário",
    }
    page = client.get(URL).content.decode()
    assert 'accept="image/*"' in page and 'capture="environment"' in page

    bad = client.post(URL, {**data, "photos": SimpleUploadedFile("foto.jpg", b"not an image", "image/jpeg")})
    assert bad.status_code == 422 and "não é uma foto" in bad.content.decode()
    broken = png()[:40]
    cut = client.post(URL, {**data, "photos": SimpleUploadedFile("foto.png", broken, "image/png")})
    assert cut.status_code == 422 and "corrompida" in cut.content.decode()
    assert not InfractionNotice.unscoped.filter(place="Av. Norte, 100").exists()

    photos = [
        SimpleUploadedFile("a.png", png("red"), "image/png"),
        SimpleUploadedFile("b.png", png("blue"), "image/png"),
    ]
    done = client.post(URL, {**data, "photos": photos})
    assert done.status_code == 302, done.content.decode()[:3000]
    notice = InfractionNotice.unscoped.get(place="Av. Norte, 100")
    kept = list(NoticePhoto.objects.filter(notice=notice))
    assert len(kept) == 2 and {p.content_type for p in kept} == {"image/png"}
    assert notice.evidence_image.startswith("foto ")
    page = client.get(done["Location"]).content.decode()
    url = f"/fiscalizacao/autos/fotos/{kept[0].pk}/"
    assert url in page
    image = client.get(url)
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert b"".join(image.streaming_content) == png("red")
    client.force_login(world.users["fiscal.esteio"])
    assert client.get(url).status_code == 404


# --- the API: plate links and the offline notice's key ------------------------------------------


def test_a_notice_kept_offline_is_drawn_up_once_with_its_key(marica: Any, client: Any) -> None:
    line = new_line("marica")
    suspended = permit("marica", line, status="suspended")
    agency_value("marica", "infraction.groups", {"art42-II": "B"})
    client.force_login(marica)
    drawn = (timezone.localtime() - dt.timedelta(hours=2)).replace(second=0, microsecond=0)
    body = {
        "jurisdiction": "marica",
        "drawn_up_at": drawn.isoformat(),
        "offender_kind": "permit_holder",
        "infraction_code": "art42-II",
        "place": "Praça Orlando de Barros Pimentel",
        "description": "Lavrado sem sinal",
        "plate": suspended.vehicle.plate.lower(),
        "link_by_plate": True,
        "evidence_latitude": "-22.919000",
        "evidence_longitude": "-42.818000",
    }

    def send() -> Any:
        return client.post(
            "/api/infraction-notices",
            json.dumps(body),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="offline-1",
        )

    first = send()
    assert first.status_code == 201, first.content.decode()
    again = send()
    assert again.status_code == 201 and again.content == first.content  # the page and the worker
    assert notices().count() == 1
    notice = notices().get()
    assert (notice.holder, notice.line, notice.permit) == (suspended.holder, line, suspended)
    assert notice.infraction_group == "B"


def test_the_service_worker_is_served_from_the_notice_pages(world: Any, client: Any) -> None:
    response = client.get("/fiscalizacao/autos/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert b"importScripts" in response.content and b"Idempotency-Key" not in response.content
    client.force_login(world.users["fiscal.recife"])
    page = client.get(URL).content.decode()
    assert 'data-sw="/fiscalizacao/autos/sw.js"' in page and 'data-scope="/fiscalizacao/autos/"' in page
    assert 'data-api="/api/infraction-notices"' in page
