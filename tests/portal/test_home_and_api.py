"""The holder's home (`/portal/`, where `/` leads a holder), `GET /api/portal/summary` (the holder's
own only; staff and anonymous refused with problem details), the menu's "Início", and a
chartering company that reads only chartering words (Pernambuco)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from lotacao.accounts.models import HolderAccount
from lotacao.accounts.tokens import create_token
from lotacao.billing import services as billing
from lotacao.billing.models import Charge
from tests import clock
from tests.chartering.conftest import company_account
from tests.portal.conftest import make_marica

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    main = html[html.find("<main") : html.find("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def test_home_of_a_holder_is_the_portal_with_deadlines_and_debts(db: Any, client: Any) -> None:
    marica = make_marica()
    client.force_login(marica.user)
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == reverse("portal:home")
    page = _text(client.get(reverse("portal:home")).content.decode())
    assert "O que fazer e até quando" in page and "O que devo" in page
    # the appeal deadline (art. 70) and the payment that must come first (art. 70, p.ú.), dated
    assert "Recurso contra o auto AI-2026-000003" in page and "art. 70" in page
    assert "Pagar a multa do auto AI-2026-000003 para o recurso ser julgado" in page
    assert "2 UFIMA" in page and "valor em reais ainda não publicado" in page
    assert "ainda não publicou o valor da UFIMA" in page and "Pagar com PIX" not in page
    menu = client.get(reverse("portal:home")).content.decode()
    assert f'href="{reverse("portal:home")}"' in menu and ">Início<" in menu


def test_staff_opening_the_portal_go_to_their_own_home(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    response = client.get(reverse("portal:home"))
    assert response.status_code == 302 and response["Location"] == reverse("web:home")


def test_summary_api_gives_the_holder_only_their_own(world: Any, client: Any) -> None:
    holder_a = world.objects["recife"]["registry.holder"]
    holder_b = HolderAccount.objects.get(user=world.users["holder1.recife"]).holder
    assert holder_b.pk != holder_a.pk
    mine = billing.issue_charge(
        actor=None,
        holder=holder_a,
        kind="fee",
        description="Taxa de segunda via (teste)",
        amount="25.00",
        due_on=clock.days_from_today(5),
        reason="teste",
    )
    theirs = billing.issue_charge(
        actor=None,
        holder=holder_b,
        kind="fee",
        description="Taxa de outro permissionário",
        amount="77.00",
        due_on=clock.days_from_today(5),
        reason="teste",
    )
    client.force_login(world.users["holder0.recife"])
    response = client.get("/api/portal/summary")
    assert response.status_code == 200, response.content
    body = response.json()
    assert {"charges_due", "deadlines", "permits", "vehicles", "notices"} <= set(body)
    descriptions = [c["description"] for c in body["charges_due"]]
    assert mine.description in descriptions and theirs.description not in descriptions
    assert not Charge.unscoped.filter(description__in=descriptions, holder=holder_b).exists()
    row = next(c for c in body["charges_due"] if c["description"] == mine.description)
    assert row["amount"] == "25.00" and row["due_on"] == mine.due_on.isoformat()
    assert set(row) >= {"description", "amount", "due_on", "slip_url"}
    for deadline in body["deadlines"]:
        assert set(deadline) >= {"what", "due", "citation"}
    # the other holder of the same jurisdiction reads theirs, never the first one's
    client.force_login(world.users["holder1.recife"])
    other_body = client.get("/api/portal/summary").json()
    other_descriptions = [c["description"] for c in other_body["charges_due"]]
    assert theirs.description in other_descriptions and mine.description not in other_descriptions


def test_summary_api_with_a_token_and_refusals_as_problem_details(world: Any) -> None:
    token = create_token(actor=None, user=world.users["holder0.recife"], label="celular")
    api = Client()
    response = api.get("/api/portal/summary", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200 and response.json()["regime"] == "permits"
    anonymous = Client().get("/api/portal/summary")
    assert anonymous.status_code == 401 and anonymous["Content-Type"] == "application/problem+json"
    staff = Client()
    staff.force_login(world.users["gestor.recife"])
    refused = staff.get("/api/portal/summary")
    assert refused.status_code == 403 and refused["Content-Type"] == "application/problem+json"
    assert "permissionário" in refused.json()["detail"]


def test_the_openapi_declares_the_summary_response(world: Any, client: Any) -> None:
    schema = client.get("/api/openapi.json").json()
    operation = schema["paths"]["/api/portal/summary"]["get"]
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["$ref"].endswith("/PortalSummary")
    summary = schema["components"]["schemas"]["PortalSummary"]
    assert {"charges_due", "deadlines"} <= set(summary["properties"])
    assert {"401", "403"} <= set(operation["responses"])
    charge = schema["components"]["schemas"]["PortalChargeDue"]["properties"]
    assert {"description", "amount", "due_on", "slip_url"} <= set(charge)


def test_a_chartering_company_reads_chartering_words_only(pe: Any, client: Any) -> None:
    company = pe.company(name="Rodrigues Turismo")
    user = company_account(company)
    charge = billing.issue_charge(
        actor=None,
        holder=company.holder,
        kind="fine",
        description="Multa do auto de infração AI-2026-000001",
        amount="900.00",
        due_on=pe.today - dt.timedelta(days=10),
        reason="teste",
    )
    client.force_login(user)
    ledger = client.get(reverse("billing:ledger", args=[company.holder.pk])).content.decode()
    text = _text(ledger)
    for word in ("Outorga de permissão", "Cadastro de preposto", "Renovação da permissão", "Permissionário"):
        assert word not in text, word
    assert "/cobranca/" not in text  # no raw paths in any sentence
    assert "Liberação do veículo apreendido: bloqueada" in text and f"guia nº {charge.slip_code}" in text
    assert "declaração de demanda" not in text.lower()
    detail = _text(client.get(reverse("billing:charge", args=[charge.pk])).content.decode())
    assert "Permissionário" not in detail and "Empresa" in detail
    home = _text(client.get("/", follow=True).content.decode())
    assert "Meu CRC" in home and "Frota" in home and "Viagens" in home
    assert "Permissionário" not in home and "Minhas permissões" not in home
    assert "Pedir a renovação do CRC" in home and "Comunicar um acidente ou uma ocorrência" in home
    # the permit regime's request forms lead the company back to its chartering requests
    for path in ("/requerimentos/", "/requerimentos/novo/permissao/", "/requerimentos/novo/vistoria/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"] == "/portal/#pedidos", path
    posted = client.post("/requerimentos/novo/renovacao/", {"permit": "1"})
    assert posted.status_code == 302 and posted["Location"] == "/portal/#pedidos"


def test_pernambuco_staff_pages_call_whoever_owes_a_company(pe: Any, client: Any) -> None:
    """The charges list, the demand declarations, an incident report and a billing run of
    Pernambuco (Lei 16.205/2017) name the chartering company "Empresa", never "Permissionário"."""
    from django.utils import timezone

    from lotacao.billing.models import BillingRun
    from lotacao.duties import services as duties
    from lotacao.registry.models import Vehicle

    company = pe.company(name="Rodrigues Turismo")
    charge = billing.issue_charge(
        actor=None,
        holder=company.holder,
        kind="fee",
        description="Taxa FUSP-F (teste)",
        amount="283.15",
        due_on=pe.today + dt.timedelta(days=10),
        reason="teste",
    )
    report = duties.report_incident(
        actor=None,
        holder=company.holder,
        vehicle=Vehicle.unscoped.filter(holder=company.holder).first(),
        kind="incident",
        occurred_at=timezone.now() - dt.timedelta(hours=2),
        description="Pneu furado na BR-232; passageiros seguiram em outro ônibus.",
    )
    run = BillingRun.unscoped.create(jurisdiction=pe.jurisdiction, period=pe.today.replace(day=1), plan=[])
    client.force_login(pe.users["gestor"])
    pages = {
        "cobranças": reverse("billing:charges"),
        "declarações": reverse("billing:declarations"),
        "ocorrência": f"/deveres/ocorrencias/{report.pk}/",
        "faturamento": reverse("billing:run", args=[run.pk]),
    }
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        text = _text(response.content.decode())
        assert "Permissionário" not in text, (name, text)
        assert "Empresa" in text, (name, text)
    assert charge.slip_code in _text(client.get(reverse("billing:charges")).content.decode())
