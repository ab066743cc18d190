"""Pernambuco's chartering in the browser: a company files its CRC request in the portal and sends a
document, a clerk accepts it, the manager issues the CRC; the company declares a trip with 40
passengers from a spreadsheet; an inspector on a phone scans the manifest's QR code and opens the
passenger list (the opening is audited)."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from django.utils import timezone

from lotacao.demo.documents import pdf_bytes

pytestmark = pytest.mark.browser

PDF = pdf_bytes("Cadastur")


@pytest.fixture
def media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


def _pernambuco(bworld: Any) -> Any:
    from lotacao.accounts.models import HolderAccount, Role, StaffMembership, User
    from tests.chartering.conftest import PASSWORD, Pe, make_pernambuco

    j = make_pernambuco()
    users = {}
    for role in Role:
        user = User.objects.create_user(f"{role.value}.pernambuco", password=PASSWORD)
        StaffMembership.objects.create(user=user, jurisdiction=j, role=role.value)
        users[role.value] = user
    pe = Pe(jurisdiction=j, users=users)
    holder = pe.holder("Agreste Turismo")
    account = User.objects.create_user("empresa.pernambuco", password=PASSWORD)
    HolderAccount.objects.create(user=account, holder=holder)
    return pe, holder


def _spreadsheet(rows: list[tuple[str, str]]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Nome", "Documento"])
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_crc_request_review_issue_trip_and_the_inspectors_scan(
    media: None, page: Any, phone: Any, live_server: Any, bworld: Any, sign_in: Any
) -> None:
    from playwright.sync_api import expect

    from lotacao.audit.models import AuditEvent
    from lotacao.chartering.models import CharteringCompany, Crc, CrcApplication, Trip
    from lotacao.documents.models import Document

    url = live_server.url
    pe, holder = _pernambuco(bworld)

    # The company files its request in the portal (tourism) and sends the Cadastur registration.
    sign_in(page, "empresa.pernambuco")
    expect(page.locator("main")).to_contain_text("ainda não pediu o Certificado de Registro Cadastral")
    with page.expect_navigation():
        page.click("#enrol-form button[type=submit]")
    page.check("input[name=modalities][value=tourism]")
    with page.expect_navigation():
        page.click("#application-form button[type=submit]")
    application = CrcApplication.objects.get(company__holder=holder)
    expect(page.locator("#application-status")).to_contain_text("Protocolado")
    assert application.issue_due is not None
    expect(page.locator("#clocks")).to_contain_text(f"{application.issue_due:%d/%m/%Y}")
    company = CharteringCompany.objects.get(holder=holder)
    pe.accept_documents(company, ["tourism"])
    Document.objects.filter(company=holder.company, code="cadastur_registration").delete()
    page.goto(f"{url}/fretamento/empresas/{company.pk}/documentos/novo/")
    page.select_option("#id_code", "cadastur_registration")
    page.set_input_files(
        "#id_file", files=[{"name": "cadastur.pdf", "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.fill("#id_issued_on", (pe.today - dt.timedelta(days=5)).isoformat())
    page.fill("#id_valid_until", (pe.today + dt.timedelta(days=700)).isoformat())
    with page.expect_navigation():
        page.click("#upload-form button[type=submit]")
    expect(page.locator("#documentos")).to_contain_text("aguardando análise")
    for n in range(2):  # the fleet: own buses, insured and inspected
        pe.vehicle(company, f"PEB1A2{n}")

    # A clerk reviews the document.
    document = Document.objects.get(company=holder.company, code="cadastur_registration")
    page.context.clear_cookies()
    sign_in(page, "atendente.pernambuco")
    page.goto(f"{url}/documentos/{document.pk}/")
    page.select_option("#id_decision", "aceitar")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    document.refresh_from_db()
    assert document.status == Document.Status.ACCEPTED

    # The manager issues the CRC.
    page.context.clear_cookies()
    sign_in(page, "gestor.pernambuco")
    page.goto(f"{url}/fretamento/requerimentos/{application.pk}/")
    with page.expect_navigation():
        page.click("#issue-form button[type=submit]")
    expect(page.locator("#application-status")).to_contain_text("CRC emitido")
    crc = Crc.objects.get(company=company)
    assert crc.modalities == ["tourism"]

    # The company declares a trip with 40 passengers from a spreadsheet.
    page.context.clear_cookies()
    sign_in(page, "empresa.pernambuco")
    page.goto(f"{url}/fretamento/empresas/{company.pk}/viagens/nova/")
    departs = timezone.localtime(timezone.now() + dt.timedelta(hours=3)).replace(second=0, microsecond=0)
    page.select_option("#id_modality", "tourism")
    page.fill("#id_contractor_name", "Paróquia de São Sebastião")
    page.fill("#id_origin", "Caruaru")
    page.fill("#id_destination", "Juazeiro do Norte")
    page.fill("#id_itinerary", "BR-232, BR-116")
    page.fill("#id_departs_at", departs.strftime("%Y-%m-%dT%H:%M"))
    page.fill("#id_returns_at", (departs + dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("#id_driver_name", "Severino Ramos")
    page.fill("#id_driver_document", "01234567890")
    people = [(f"Romeiro {n:02d}", f"RG {5000 + n}") for n in range(40)]
    page.set_input_files(
        "#id_passengers_file",
        files=[
            {"name": "lista.xlsx", "mimeType": "application/octet-stream", "buffer": _spreadsheet(people)}
        ],
    )
    with page.expect_navigation():
        page.click("#main-form button[type=submit]")
    trip = Trip.objects.get(company=company)
    expect(page.locator("#passenger-count")).to_have_text("40")
    assert trip.passenger_count == 40 and trip.status == Trip.Status.DECLARED

    # The inspector on a phone scans the manifest's QR: the trip, the CRC and the passengers.
    sign_in(phone, "fiscal.pernambuco")
    phone.goto(f"{url}/publico/fretamento/viagens/{trip.token}/")
    phone.wait_for_url(f"{url}/fretamento/viagens/{trip.pk}/")
    expect(phone.locator("#manifest")).to_contain_text(crc.number)
    with phone.expect_navigation():
        phone.click("#open-list")
    expect(phone.locator("ol.passengers li")).to_have_count(40)
    expect(phone.locator("#autos")).to_contain_text("II-f")
    assert (
        AuditEvent.objects.filter(
            action="chartering.passenger_list_opened", actor_label="fiscal.pernambuco"
        ).count()
        == 1
    )
