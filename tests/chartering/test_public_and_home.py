"""The public register and plate check (no personal data), Pernambuco's home page and menus, the
company portal, the CRC certificate and the manifest PDFs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.chartering import sanctions, trips
from lotacao.chartering.models import Crc, FleetVehicle
from tests.chartering.conftest import company_account
from tests.chartering.test_trips import PEOPLE, _data


def test_the_public_api_lists_companies_with_their_crc_status(pe: Any, client: Any) -> None:
    valid = pe.company(["eventual", "tourism"], name="Viação Agreste")
    suspended = pe.company(["own"], name="Usina Tracunhaém")
    sanctions.apply_sanction(
        actor=None, company=suspended, kind="suspension", starts_on=pe.today, grounds="x", reason="t"
    )
    pe.company(issue=False, name="Sem CRC")
    rows = client.get("/api/public/chartering/companies", {"jurisdiction": "pernambuco"}).json()
    by_cnpj = {r["cnpj"]: r for r in rows}
    assert len(rows) == 2
    first = by_cnpj[valid.party.cnpj_display]
    assert first["crc_status"] == "valid" and first["modalities"] == ["eventual", "tourism"]
    assert first["name"] == valid.party.trade_name
    assert first["valid_until"] == Crc.objects.get(company=valid).valid_until.isoformat()
    assert by_cnpj[suspended.party.cnpj_display]["crc_status"] == "suspended"
    assert set(first) == {
        "cnpj",
        "name",
        "crc_status",
        "modalities",
        "valid_until",
        "crc_number",
        "jurisdiction",
    }
    page = client.get("/publico/fretamento/").content.decode()
    assert "Viação" in page and "suspenso" in page


def test_the_plate_check_shows_a_chartering_vehicles_company_crc_and_modality(pe: Any, client: Any) -> None:
    company = pe.company(["tourism"], name="Turismo Sertão")
    entry = FleetVehicle.objects.filter(company=company).first()
    result = client.get(f"/api/public/vehicles/{entry.vehicle.plate}").json()
    (record,) = result["records"]
    assert record["authorized"] is True, record
    assert record["company_name"] == company.party.trade_name and record["crc_status"] == "valid"
    assert record["modalities"] == "turístico"
    assert "permit_number" not in record or record["permit_number"] is None
    body = client.get(f"/publico/veiculos/{entry.vehicle.plate}/").content.decode()
    assert "Empresa de fretamento" in body and "Autorizado" in body


def test_the_manifest_qr_takes_an_inspector_to_the_trip_and_the_public_to_no_names(
    pe: Any, client: Any
) -> None:
    company = pe.company(["tourism"])
    entry = FleetVehicle.objects.filter(company=company).first()
    trip = trips.declare_trip(
        actor=None, company=company, data=_data(entry, "tourism"), passengers=PEOPLE[:3], reason="t"
    )
    url = f"/publico/fretamento/viagens/{trip.token}/"
    body = client.get(url).content.decode()
    assert PEOPLE[0][0] not in body and "Passageiros na lista" in body
    pe.login(client, "fiscal")
    response = client.get(url)
    assert response.status_code == 302 and response["Location"] == f"/fretamento/viagens/{trip.pk}/"
    pdf = client.get(f"/fretamento/viagens/{trip.pk}/manifesto.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_crc_certificate_is_a_pdf_with_a_public_page(pe: Any, client: Any) -> None:
    company = pe.company()
    crc = Crc.objects.get(company=company)
    pe.login(client, "atendente")
    pdf = client.get(f"/fretamento/crc/{crc.pk}/certificado.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    client.logout()
    page = client.get(f"/publico/fretamento/crc/{crc.token}/").content.decode()
    assert crc.number in page and "válido" in page and company.party.cnpj_display in page


def test_pernambucos_home_counts_what_the_state_regulates(pe: Any, client: Any) -> None:
    company = pe.company()
    entry = FleetVehicle.objects.filter(company=company).first()
    trips.declare_trip(
        actor=None,
        company=company,
        passengers=[],
        reason="t",
        data=_data(entry, departs_at=timezone.now() + dt.timedelta(minutes=5), returns_at=None),
    )
    pe.login(client, "gestor")
    body = client.get("/").content.decode()
    assert "<strong>1</strong> Empresas de fretamento" in body
    assert "<strong>1</strong> CRCs válidos" in body
    assert "Viagens hoje" in body and "CRCs vencendo em 60 dias" in body
    assert "Permissões ativas" not in body and "Linhas" not in body and "Pessoas cadastradas" not in body
    assert "Empresas de fretamento" in body and ">Linhas<" not in body and ">Pessoas<" not in body


def test_a_municipal_manager_keeps_permits_and_lines(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    body = client.get("/").content.decode()
    assert "Permissões ativas" in body and ">Linhas<" in body and "Fretamento" not in body


def test_the_company_portal_shows_its_crc_fleet_and_trips_and_nothing_of_others(pe: Any, client: Any) -> None:
    mine = pe.company(name="Minha Viação")
    other = pe.company(name="Outra Viação")
    user = company_account(mine)
    client.force_login(user)
    body = client.get("/", follow=True).content.decode()
    assert "Meu CRC" in body and Crc.objects.get(company=mine).number in body
    assert Crc.objects.get(company=other).number not in body
    assert client.get(f"/fretamento/empresas/{other.pk}/").status_code == 404
    assert client.get(f"/fretamento/empresas/{mine.pk}/").status_code == 200


def test_the_road_check_by_plate(pe: Any, client: Any) -> None:
    company = pe.company()
    entry = FleetVehicle.objects.filter(company=company).first()
    pe.login(client, "fiscal")
    body = client.get("/fretamento/fiscalizacao/", {"placa": entry.vehicle.plate_display}).content.decode()
    assert "CRC VÁLIDO" in body and company.party.cnpj_display in body
    response = client.get("/fretamento/fiscalizacao/", {"placa": "12"})
    assert response.status_code == 422 and "inválida" in response.content.decode()


def test_the_inspectors_plate_check_reads_the_same_verdict_as_the_public(pe: Any) -> None:
    """One rule for both: a chartering vehicle is authorized by its CRC, not asked for a permit."""
    from lotacao.enforcement.notices import intake

    company = pe.company(["tourism"], name="Turismo Agreste")
    entry = FleetVehicle.objects.filter(company=company).first()
    (record,) = intake.plate_check(entry.vehicle.plate, "pernambuco")["here"]
    assert record["authorized"] is True, record
    assert record["crc_status"] == "valid"
