"""The billing screens: the manager's run, the clerk's counter, the holder's portal, the reports."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from typing import Any

from django.urls import reverse

from lotacao.billing.ledger.models import Account, Charge
from lotacao.billing.ledger.services import issue_charge
from lotacao.billing.runs.models import BillingRun, DemandDeclaration
from tests import clock

STAFF_PAGES = [
    "billing:charges",
    "billing:runs",
    "billing:declarations",
    "billing:imports",
    "billing:fares",
    "billing:studies",
    "billing:funds",
]


def test_staff_pages_answer_and_speak_portuguese(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    for name in STAFF_PAGES:
        body = client.get(reverse(name)).content.decode()
        assert "<h1>" in body and "_" not in body.split("<h1>")[1].split("</h1>")[0], name
    assert client.get(reverse("billing:readjustment_new")).status_code == 200


def test_clerk_issues_a_fee_and_records_its_payment(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    client.force_login(world.users["atendente.recife"])
    url = reverse("billing:ledger", args=[holder.pk])
    response = client.post(url, {"taxa": "1", "fee": "certificate", "reason": "balcão"})
    charge = Charge.objects.get(holder=holder, fee="certificate")
    assert response.status_code == 302 and charge.amount == Decimal("10.00")
    today = clock.today().isoformat()
    client.post(
        reverse("billing:charge", args=[charge.pk]), {"paid_on": today, "reference": "R1", "reason": "pago"}
    )
    charge.refresh_from_db()
    assert charge.paid_on is not None
    # a fiscal sees the charge but may not record payments
    client.force_login(world.users["fiscal.recife"])
    other = issue_charge(
        actor=None, holder=holder, kind="fee", description="x", amount="5", due_on=clock.today(), reason="t"
    )
    assert (
        client.post(reverse("billing:charge", args=[other.pk]), {"paid_on": today, "reason": "x"}).status_code
        == 403
    )


def test_clerk_enrols_a_holder_and_bad_dates_are_refused(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    client.force_login(world.users["atendente.recife"])
    url = reverse("billing:ledger", args=[holder.pk])
    client.post(url, {"inscrever": "1", "on": "2026-01-01", "reason": "outorga"})
    assert Account.objects.get(holder=holder).opened_on == dt.date(2026, 1, 1)
    body = client.post(url, {"encerrar": "1", "on": "2025-01-01", "reason": "x"}).content.decode()
    assert "não pode ser anterior" in body and Account.objects.get(holder=holder).closed_on is None


def test_manager_simulates_approves_and_executes_on_screen(
    world: Any, client: Any, place: Any, new_holder: Any
) -> None:
    from lotacao.accounts.models import StaffMembership, User
    from lotacao.billing.ledger.services import open_account

    pe = place("pernambuco")
    StaffMembership.objects.create(user=world.users["gestor.recife"], jurisdiction=pe, role="gestor")
    company = new_holder(pe, company=True, vehicles=2)
    open_account(actor=None, holder=company, on=dt.date(2026, 1, 1), reason="CRC")
    client.force_login(world.users["gestor.recife"])
    response = client.post(
        reverse("billing:runs"), {"jurisdiction": "pernambuco", "period": "03/2027", "reason": "simulação"}
    )
    run = BillingRun.objects.get()
    assert response.status_code == 302 and run.status == "simulado"
    assert "R$\xa080,90" in client.get(reverse("billing:run", args=[run.pk])).content.decode()
    # who simulated does not approve (separation of duties, on by default): another manager does
    client.post(reverse("billing:run", args=[run.pk]), {"aprovar": "1"})
    run.refresh_from_db()
    assert run.status == "simulado"
    second = User.objects.create_user("gestora2.pernambuco", password="senha-de-teste-123")
    StaffMembership.objects.create(user=second, jurisdiction=pe, role="gestor")
    client.force_login(second)
    client.post(reverse("billing:run", args=[run.pk]), {"aprovar": "1"})
    client.force_login(world.users["gestor.recife"])
    client.post(reverse("billing:run", args=[run.pk]), {"executar": "1"})
    run.refresh_from_db()
    assert run.status == "concluido" and Charge.objects.get(holder=company).amount == Decimal("80.90")
    # a clerk reads the run but may not approve
    client.force_login(world.users["atendente.recife"])
    assert client.get(reverse("billing:run", args=[run.pk])).status_code == 404  # no role in Pernambuco


def test_holder_portal_sees_own_charges_files_demand_and_downloads_slips(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    line = world.objects["recife"]["registry.line"]
    mine = issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Minha taxa",
        amount="10",
        due_on=clock.today(),
        reason="t",
    )
    theirs = issue_charge(
        actor=None,
        holder=world.objects["esteio"]["registry.holder"],
        kind="fee",
        description="Taxa alheia",
        amount="10",
        due_on=clock.today(),
        reason="t",
    )
    client.force_login(world.users["holder0.recife"])
    body = client.get(reverse("billing:ledger", args=[holder.pk])).content.decode()
    assert "Minha taxa" in body and "Emitir taxa" not in body
    assert "Taxa alheia" not in client.get(reverse("billing:charges")).content.decode()
    assert client.get(reverse("billing:charge", args=[theirs.pk])).status_code == 404
    pdf = client.get(reverse("billing:slip", args=[mine.pk]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    month = (clock.today().replace(day=1) - dt.timedelta(days=1)).strftime("%m/%Y")
    client.post(
        reverse("billing:declarations"),
        {
            "line": str(line.pk),
            "month": month,
            "full_passengers": "900",
            "reduced_passengers": "0",
            "free_passengers": "12",
            "km": "3000",
            "reason": "declaração",
        },
    )
    declaration = DemandDeclaration.objects.get(holder=holder)
    assert declaration.source == "permissionario" and declaration.full_passengers == 900
    future = clock.today().strftime("%m/%Y")
    body = client.post(
        reverse("billing:declarations"),
        {
            "line": str(line.pk),
            "month": future,
            "full_passengers": "1",
            "reduced_passengers": "0",
            "free_passengers": "0",
            "km": "0",
            "reason": "x",
        },
    ).content.decode()
    assert "ainda não terminou" in body
    assert client.get(reverse("billing:month_slip", args=[holder.pk])).status_code == 200
    assert client.get(reverse("billing:runs")).content.decode().count("Simular") == 0


def test_clerk_imports_a_statement_on_screen(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="x",
        amount="10",
        due_on=clock.today(),
        reason="t",
    )
    client.force_login(world.users["atendente.recife"])
    upload = io.BytesIO(f"data;valor;codigo\n{clock.today():%d/%m/%Y};10,00;{charge.slip_code}\n".encode())
    upload.name = "extrato.csv"
    response = client.post(
        reverse("billing:imports"), {"jurisdiction": "recife", "file": upload, "reason": "x"}
    )
    assert response.status_code == 302
    body = client.get(response["Location"]).content.decode()
    assert "Conciliadas (1)" in body and f"cobrança {charge.slip_code} quitada" in body
    # the same file again is refused by its hash, in Portuguese, and nothing changes
    upload.seek(0)
    again = client.post(reverse("billing:imports"), {"jurisdiction": "recife", "file": upload, "reason": "x"})
    assert again.status_code == 200 and "Este arquivo já foi importado" in again.content.decode()
    assert charge.payments.count() == 1


def test_funds_report_exports_csv_and_xlsx(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    issue_charge(
        actor=None,
        holder=holder,
        kind="fine",
        description="Multa",
        amount="100",
        due_on=dt.date(2026, 1, 5),
        reason="t",
    )
    client.force_login(world.users["gestor.recife"])
    body = client.get(reverse("billing:funds")).content.decode()
    assert "Gerenciamento do STM/Recife" in body and "art. 46" in body
    csv_text = b"".join(client.get(reverse("billing:funds"), {"formato": "csv"})).decode("utf-8-sig")
    assert "Recife;Gerenciamento do STM/Recife;01/2026;100,00;0,00;100,00" in csv_text
    xlsx = client.get(reverse("billing:funds"), {"formato": "xlsx"})
    assert xlsx.content[:2] == b"PK"
    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet is not None
    assert [c.value for c in sheet[1]][:3] == ["Jurisdição", "Destinação", "Mês"]


def test_manager_sets_a_fare_and_a_study_on_screen(world: Any, client: Any) -> None:
    line = world.objects["esteio"]["registry.line"]
    client.force_login(world.users["gestor.esteio"])
    body = client.post(
        reverse("billing:fares"),
        {
            "line": str(line.pk),
            "valid_from": "2027-01-01",
            "amount": "5.20",
            "act": "Decreto 1/2027",
            "reason": "x",
        },
    ).content.decode()
    assert "depende da oitiva do CMTT (Lei Municipal 3.839/2004, art. 34)" in body
    response = client.post(
        reverse("billing:studies"),
        {
            "jurisdiction": "esteio",
            "title": "Revisão",
            "revision": "on",
            "reason": "x",
            "fleet": "1",
            "km_per_vehicle": "100",
            "equivalent_passengers": "100",
        },
    )
    assert "depende de pedido" in response.content.decode()
