"""The billing pages read right (issue 24, defect 7): the basis shows the whole computation (the 4%
it applies), one click records one "execução", a run made after the due date says so and how
the due date follows the law, and a charge page shows no internal reference."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.test import Client

from lotacao.audit.models import AuditEvent
from lotacao.billing.ledger.services import issue_charge
from lotacao.billing.runs.models import BillingRun
from lotacao.billing.runs.planner import build_plan
from tests.billing.test_monthly_run import FEB, _recife_january
from tests.clock import days_from_today


def test_the_run_page_and_its_history(world: Any, agency: Any) -> None:
    _recife_january(world)
    agency("recife", "fee.base.management", dt.date(2026, 1, 1), {"method": "passengers_x_fare"})
    agency("recife", "fee.due_day.management", dt.date(2026, 1, 1), 15)
    client = Client()
    client.force_login(world.users["gestor.recife"])
    client.post(
        "/cobranca/faturamento/", {"jurisdiction": "recife", "period": "02/2027", "reason": "simulação"}
    )
    run = BillingRun.objects.get()
    page = client.get(f"/cobranca/faturamento/{run.pk}/").content.decode().replace("\xa0", " ")
    # 10.000 × R$ 4,00 = R$ 40.000,00; 4% of it is R$ 1.600,00 — every step on the page
    assert "10.000 passageiros pagantes × R$ 4,00" in page
    assert "R$ 40.000,00 × 4% = R$ 1.600,00" in page
    # another manager approves and executes (the agency separates the steps: one person each)
    from lotacao.accounts.models import StaffMembership, User

    other = User.objects.create_user("gestora2.recife", password="senha-de-teste-123")
    StaffMembership.objects.create(user=other, jurisdiction=world.a, role="gestor")
    client.force_login(other)
    client.post(f"/cobranca/faturamento/{run.pk}/", {"aprovar": "1"})
    client.post(f"/cobranca/faturamento/{run.pk}/", {"executar": "1"})
    run.refresh_from_db()
    assert run.status == BillingRun.Status.DONE
    actions = list(
        AuditEvent.objects.filter(object_type="billing.billingrun", object_id=str(run.pk)).values_list(
            "action", flat=True
        )
    )
    assert actions.count("billing_run.executed") == 1, actions
    page = client.get(f"/cobranca/faturamento/{run.pk}/").content.decode()
    assert page.count("execução do faturamento mensal") == 1


def test_a_late_run_says_how_the_due_date_follows_the_law(world: Any, agency: Any) -> None:
    _recife_january(world)
    agency("recife", "fee.base.management", dt.date(2026, 1, 1), {"method": "passengers_x_fare"})
    agency("recife", "fee.due_day.management", dt.date(2026, 1, 1), 15, cite="Portaria 1/2026")
    on_time = build_plan("recife", FEB, on=dt.date(2027, 2, 10))
    assert not [n for n in on_time.notes if "depois do vencimento" in n]
    late = build_plan("recife", FEB, on=dt.date(2027, 3, 1))
    (note,) = [n for n in late.notes if "depois do vencimento" in n]
    assert "15/02/2027" in note and "Portaria 1/2026" in note and "dia 15" in note
    assert "01/03/2027" in note and "saem vencidas" in note
    assert late.lines[0]["due_on"] == "2027-02-15"  # the law's due date, not one the system makes up


def test_a_charge_page_shows_no_internal_reference(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    internal = issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Recadastramento anual do veículo — 2026",
        amount="30.00",
        due_on=days_from_today(10),
        reason="teste",
        reference="recadastramento:2026:reregistration_vehicle",
    )
    notice = issue_charge(
        actor=None,
        holder=holder,
        kind="fine",
        description="Multa do auto",
        amount="250.00",
        due_on=days_from_today(10),
        reason="teste",
        reference="AI-2026-000009",
    )
    client = Client()
    client.force_login(world.users["gestor.recife"])
    page = client.get(f"/cobranca/{internal.pk}/").content.decode()
    assert "recadastramento:" not in page and "reregistration_vehicle" not in page
    assert "AI-2026-000009" in client.get(f"/cobranca/{notice.pk}/").content.decode()
