"""A month's billing end to end: the manager simulates and approves the run, the holder pays by
the slip's PIX code, the clerk imports the bank statement, and the clearance turns green."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from tests import clock

pytestmark = pytest.mark.browser


def _fare_council(code: str, on: dt.date) -> int | None:
    from lotacao.councils.testing import resolution_if_gated

    found = resolution_if_gated(code, "fare.change", on)
    return found.pk if found is not None else None


def _prepare(bworld: Any, last_month: dt.date) -> Any:
    """What the agency set up before (fare, acts for what the law leaves open) and the holder's
    declaration of the month before the billed one."""
    from lotacao.billing.fares.services import set_fare
    from lotacao.billing.ledger.services import open_account
    from lotacao.billing.models import Charge, DemandDeclaration, FareAct, Payment
    from lotacao.billing.runs.declarations import declare_demand
    from lotacao.web.agency_values import set_agency_value

    holder = bworld.objects["recife"]["registry.holder"]
    line = bworld.objects["recife"]["registry.line"]
    base_month = (last_month - dt.timedelta(days=1)).replace(day=1)
    for model in (Payment, Charge, DemandDeclaration, FareAct):  # the shared world's rows (tenancy walk)
        model.unscoped.all().delete()
    for parameter, value in (
        ("fee.base.management", {"method": "passengers_x_fare"}),
        ("fee.due_day.management", 1),
        ("billing.pix", {"key": "pix@cttu.recife.pe.gov.br", "beneficiary": "CTTU", "city": "Recife"}),
    ):
        set_agency_value(
            actor=None,
            jurisdiction=bworld.a,
            parameter=parameter,
            valid_from=dt.date(2020, 1, 1),
            value=value,
            cite="Portaria CTTU nº 1/2020",
            reason="configuração",
        )
    set_fare(
        actor=None,
        line=line,
        valid_from=dt.date(2020, 1, 1),
        amount="4.00",
        act="Decreto nº 1/2020",
        resolution=_fare_council("recife", dt.date(2020, 1, 1)),
        reason="tarifa",
    )
    open_account(actor=None, holder=holder, on=dt.date(2020, 1, 1), reason="outorga")
    declare_demand(
        actor=None,
        holder=holder,
        line=line,
        month=base_month,
        full_passengers=10_000,
        source="permissionario",
        reason="declaração",
        today=last_month,
    )
    return holder


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    made: list[Any] = []

    def _new() -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR")
        made.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield _new
    for context in made:
        context.close()


def test_run_pay_by_pix_import_statement_clearance_turns_green(
    page: Any, contexts: Any, live_server: Any, bworld: Any, sign_in: Any, tmp_path: Any
) -> None:
    from lotacao.billing.payments import pix

    url = live_server.url
    today = clock.today()
    last_month = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    holder = _prepare(bworld, last_month)

    # the manager simulates last month's run, reads why each charge, approves and executes it
    sign_in(page, "gestor.recife")
    page.goto(f"{url}/cobranca/faturamento/")
    page.select_option("#id_jurisdiction", "recife")
    page.fill("#id_period", f"{last_month:%m/%Y}")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    body = page.inner_text("main")
    assert "Simulado" in body and "R$\xa01.600,00" in body and "art. 25, § 1º, I" in body, body
    # who simulated may not approve (separation of duties): the button says why; another manager approves
    assert page.is_disabled("button[name=aprovar]") and "outro gestor" in page.inner_text("#approve-blocked")
    from lotacao.accounts.models import StaffMembership, User

    second = User.objects.create_user("gestora2.recife", password="senha-de-teste-123")
    StaffMembership.objects.create(user=second, jurisdiction_id="recife", role="gestor")
    run_url = page.url
    page.context.clear_cookies()
    sign_in(page, "gestora2.recife")
    page.goto(run_url)
    with page.expect_navigation():
        page.click("button[name=aprovar]")
    assert "Aprovado pelo gestor" in page.inner_text("#situacao")
    with page.expect_navigation():
        page.click("button[name=executar]")
    assert "Concluído" in page.inner_text("#situacao")

    # the holder sees the block, opens the slip and copies the PIX code
    holder_page = contexts()
    sign_in(holder_page, "permissionario0.recife")
    holder_page.goto(f"{url}/cobranca/permissionario/{holder.pk}/")
    assert "Recadastramento: bloqueada" in holder_page.inner_text("main")
    with holder_page.expect_navigation():
        holder_page.click("text=ver código PIX")
    code = holder_page.inner_text("#pix").strip()
    assert pix.is_valid(code) and "54071600.00" in code
    txid = pix.txid(code)  # the slip's code travels as the PIX transaction id

    # the bank's statement brings the credit back; the clerk imports it
    statement = tmp_path / "extrato.csv"
    statement.write_text(f"data;valor;codigo;id_transacao\n{today:%d/%m/%Y};1.600,00;{txid};E2E-1\n")
    clerk = contexts()
    sign_in(clerk, "atendente.recife")
    clerk.goto(f"{url}/cobranca/extratos/")
    clerk.select_option("#id_jurisdiction", "recife")
    clerk.set_input_files("#id_file", str(statement))
    with clerk.expect_navigation():
        clerk.click("main form button[type=submit]")
    assert "Conciliadas (1)" in clerk.inner_text("main")

    # the clearance is green for the holder now
    holder_page.goto(f"{url}/cobranca/permissionario/{holder.pk}/")
    assert holder_page.locator(".refusal").count() == 0
    assert "Recadastramento" in holder_page.inner_text("#quitacao")
