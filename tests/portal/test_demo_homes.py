"""The five demo holders' homes (issue 21): each opens from `/` on what they must do and owe, only
their own; Maricá's fine in UFIMA is listed without a slip; Pernambuco's company reads CRC, fleet
and trips, never the permit regime's words."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from lotacao.accounts.models import HolderAccount
from lotacao.billing.models import Charge
from lotacao.registry.models import Vehicle

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]


@pytest.fixture
def demo(db: Any) -> None:
    call_command("load_demo", "--quiet-logins", stdout=StringIO())


def _text(html: str) -> str:
    main = html[html.find("<main") : html.find("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def test_every_demo_holder_opens_on_their_own_portal(demo: None, client: Any) -> None:
    for code in CODES:
        account = HolderAccount.objects.get(user__username=f"permissionario.{code}")
        client.force_login(account.user)
        response = client.get("/", follow=True)
        assert response.status_code == 200 and response.redirect_chain[-1][0] == "/portal/", code
        page = _text(response.content.decode())
        assert "O que fazer e até quando" in page and "O que devo" in page, code
        others = Vehicle.objects.filter(jurisdiction_id=code).exclude(holder=account.holder)
        assert not any(v.plate_display in page for v in others), code
        foreign = Charge.objects.exclude(holder=account.holder).exclude(description="")
        assert not any(f"guia nº {c.slip_code}" in page for c in foreign), code
        summary = client.get("/api/portal/summary").json()
        assert summary["holder"] == str(account.holder), code
        if code == "pernambuco":
            assert "Meu CRC" in page and "Frota" in page and "Viagens" in page
            assert "Permissionário" not in page and "permissão" not in page.lower()
            assert summary["regime"] == "chartering" and summary["permits"] == []
        else:
            assert "Minhas permissões" in page and summary["regime"] == "permits"


def test_marica_demo_fine_in_ufima_is_payable_at_the_demonstration_value(demo: None, client: Any) -> None:
    """The demo publishes a demonstration UFIMA (a fictitious act, never the law's value, art. 51),
    so the holder's fines in UFIMA are charged in R$ and paid by a slip with PIX, never R$ 0,00."""
    from decimal import Decimal

    from lotacao.demo.enforcement import FISCAL_UNITS, FISCAL_UNITS_ACT
    from lotacao.enforcement.models import Fine

    account = HolderAccount.objects.get(user__username="permissionario.marica")
    client.force_login(account.user)
    ledger = _text(client.get(f"/cobranca/permissionario/{account.holder_id}/").content.decode())
    assert "Nenhuma cobrança" not in ledger and "AI-2026-000003" in ledger
    assert "R$ 0,00" not in ledger and "valor fictício" in ledger
    home = _text(client.get("/portal/").content.decode())
    assert "AI-2026-000003" in home and "Pagar com PIX" in home
    assert "ainda não publicou o valor da UFIMA" not in home
    api = client.get("/api/portal/summary").json()
    fine = next(c for c in api["charges_due"] if "AI-2026-000003" in c["description"])
    units = Fine.unscoped.get(notice__number="AI-2026-000003", jurisdiction_id="marica").units
    rate = Decimal(FISCAL_UNITS["marica"]["fiscal_unit.UFIMA"])
    assert Decimal(str(fine["amount"])) == units * rate and fine["slip_url"]
    assert "UFIMA" in fine["description"] and "demonstração" in FISCAL_UNITS_ACT


def test_the_home_lists_pending_requests_and_the_operators_duties(demo: None, client: Any) -> None:
    """What the holder filed online (lotacao.holder_requests) and the duties the law puts on them
    (lotacao.duties: reports due, authorizations ending) are on the home and in the summary."""
    from lotacao.duties.selectors import holder_duties
    from lotacao.holder_requests.models import Request
    from tests import clock

    pending = Request.objects.filter(status=Request.Status.FILED).select_related("holder").first()
    assert pending is not None
    account = HolderAccount.objects.get(holder=pending.holder)
    client.force_login(account.user)
    page = _text(client.get("/portal/").content.decode())
    assert "Meus pedidos e comunicações" in page and pending.protocol in page
    assert "Comunicar um acidente ou uma ocorrência" in page
    summary = client.get("/api/portal/summary").json()
    assert pending.protocol in {r["protocol"] for r in summary["requests"]}
    duties = holder_duties(pending.holder, clock.today())
    wanted = {d["what"] for d in duties}
    assert wanted <= {d["what"] for d in summary["deadlines"]}
    seen = 0
    for code in ("recife", "esteio", "marica"):  # laws with periodic reports or authorizations
        holder = HolderAccount.objects.get(user__username=f"permissionario.{code}").holder
        client.force_login(HolderAccount.objects.get(holder=holder).user)
        deadlines = client.get("/api/portal/summary").json()["deadlines"]
        expected = {d["what"] for d in holder_duties(holder, clock.today())}
        assert expected <= {d["what"] for d in deadlines}, code
        seen += len(expected)
    assert seen, "the demo gives at least one holder a duty with a date"
