"""Role-shaped menus and homes, the gov.br frame (agency contacts and ombudsman) and the manager's
charts, on the demo of the five jurisdictions (issue 11, items 5, 8 and 10; issue 13, item 8)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from lotacao.accounts.models import User
from lotacao.web import dashboard, menu

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]
ROLES = ["gestor", "atendente", "fiscal", "comissao", "ouvidor"]
NAV = re.compile(r'<nav id="menu-principal".*?</nav>', re.S)
HREF = re.compile(r'href="([^"]+)"')


@pytest.fixture
def demo(db: Any) -> None:
    call_command("load_demo", stdout=StringIO())


def menu_links(body: str) -> list[str]:
    found = NAV.search(body)
    return HREF.findall(found.group(0)) if found else []


def test_every_menu_link_of_every_role_opens_and_refused_ones_are_absent(demo: None, client: Any) -> None:
    staff_urls = {reverse(item.url_name): item.label for item in menu.STAFF_ITEMS}
    problems = []
    for code in CODES:
        for username in [f"{role}.{code}" for role in ROLES] + [f"permissionario.{code}"]:
            client.force_login(User.objects.get(username=username))
            home = client.get("/", follow=True)
            assert home.status_code == 200, username
            links = menu_links(home.content.decode())
            assert links, f"{username} sem menu"
            for url in links:
                status = client.get(url).status_code
                if status != 200:
                    problems.append(f"{username}: {url} → {status} no menu")
            # Every staff screen this person may not open is out of their menu (and off their home).
            for url, label in staff_urls.items():
                if url in links:
                    continue
                status = client.get(url).status_code
                assert status != 500, (username, url)
                if status in (403, 404):
                    assert url not in home.content.decode(), f"{username}: {label} recusado e ainda ligado"
    assert not problems, problems


@pytest.mark.parametrize("code", ["recife", "pernambuco"])
def test_menus_are_shaped_by_role(demo: None, client: Any, code: str) -> None:
    def links_of(role: str) -> tuple[list[str], str]:
        client.force_login(User.objects.get(username=f"{role}.{code}"))
        body = client.get("/").content.decode()
        return menu_links(body), body

    notice = reverse("enforcement:notice_create")
    fiscal, _ = links_of("fiscal")
    assert notice in fiscal
    for name in ("workqueue:queue", "enforcement:bodies", "people:companies", "lines:list"):
        assert reverse(name) not in fiscal, name
    assert reverse("chartering:companies") not in fiscal
    for role in ("atendente", "comissao"):
        links, body = links_of(role)
        assert notice not in links and "Lavrar auto de infração" not in body, role
    clerk, _ = links_of("atendente")
    assert reverse("workqueue:queue") in clerk and reverse("law:values") not in clerk
    judge, _ = links_of("comissao")
    assert reverse("enforcement:bodies") in judge and reverse("billing:charges") not in judge
    manager, _ = links_of("gestor")
    assert {reverse("law:values"), reverse("billing:funds"), notice} <= set(manager)
    # What a regime lacks is absent: no lines where the law has no permits, no CRCs where it has
    # no chartering.
    assert (reverse("lines:list") in manager) == (code != "pernambuco")
    assert (reverse("chartering:companies") in manager) == (code == "pernambuco")


def test_holder_menu_is_their_own_pages(demo: None, client: Any) -> None:
    client.force_login(User.objects.get(username="permissionario.recife"))
    links = menu_links(client.get("/", follow=True).content.decode())
    assert reverse("enforcement:notices") in links and reverse("permits:list") in links
    office = {"workqueue:queue", "billing:charges", "law:values", "registry:holders", "enforcement:bodies"}
    assert not set(links) & {reverse(name) for name in office}
    client.force_login(User.objects.get(username="permissionario.pernambuco"))
    links = menu_links(client.get("/", follow=True).content.decode())
    assert reverse("permits:list") not in links and reverse("billing:declarations") not in links


def test_header_and_footer_show_the_user_role_and_agency_contacts(demo: None, client: Any) -> None:
    client.force_login(User.objects.get(username="fiscal.marica"))
    body = client.get("/").content.decode()
    assert 'class="br-header"' in body and "gov<span>.br</span>" in body
    assert "EPT — Autarquia Empresa Pública de Transportes" in body and "Fiscal" in body
    assert "Ouvidoria" in body and "ouvidoria@marica.example.org" in body
    assert "ouvidoria@recife.example.org" not in body  # another agency's
    # The public pages show every agency's channels; the login page leads to the public check.
    client.logout()
    public = client.get(reverse("public:search")).content.decode()
    assert all(f"ouvidoria@{code}.example.org" in public for code in CODES)
    login = client.get(reverse("accounts:login")).content.decode()
    assert f'href="{reverse("public:search")}"' in login
    # What the agency has not informed is said to be missing, never made up.
    from lotacao.core.models import Jurisdiction

    blank = dict.fromkeys(("phone", "email", "address", "website", "ombudsman_phone", "ombudsman_email"), "")
    Jurisdiction.objects.filter(code="cabo").update(ombudsman_url="", **blank)
    client.force_login(User.objects.get(username="gestor.cabo"))
    body = client.get("/").content.decode()
    assert "Contatos de atendimento não informados pelo órgão." in body
    assert "Canal da ouvidoria não informado pelo órgão." in body


def test_pernambuco_home_counts_what_the_state_regulates(demo: None, client: Any) -> None:
    client.force_login(User.objects.get(username="gestor.pernambuco"))
    body = client.get("/").content.decode()
    for label in (
        "Empresas de fretamento",
        "CRCs válidos",
        "CRCs suspensos",
        "CRCs vencendo em 60 dias",
        "Veículos na frota de fretamento",
        "Viagens hoje",
    ):
        assert label in body, label
    assert "Permissões ativas" not in body and "Linhas" not in menu_links(body)


def test_manager_home_has_every_chart_with_its_table_and_others_none(demo: None, client: Any) -> None:
    client.force_login(User.objects.get(username="gestor.recife"))
    body = client.get("/").content.decode()
    for title in (
        "Autos de infração por mês e grupo",
        "Multas emitidas e pagas por mês (R$)",
        "Permissões por situação",
        "Documentos e selos de vistoria a vencer",
        "Fila de trabalho por tempo de espera",
        "Arrecadação e inadimplência por destinação (R$)",
    ):
        assert title in body, title
    assert body.count('class="chart-drawing" aria-hidden="true"') == body.count(
        'class="chart-table"'
    )
    # A permits-by-status figure opens the list filtered to that status.
    assert f'href="{reverse("permits:list")}?situacao=active"' in body
    for role in ("fiscal", "atendente", "comissao"):
        client.force_login(User.objects.get(username=f"{role}.recife"))
        assert "Painel do gestor" not in client.get("/").content.decode(), role


def test_chart_figures_are_the_database_counts(demo: None) -> None:
    from lotacao.billing.reports import fund_rows
    from lotacao.enforcement.models import InfractionNotice
    from lotacao.permits.models import Permit
    from lotacao.workqueue.models import WorkItem

    today = timezone.localdate()
    start = dt.date(*dashboard.months(today)[0], 1)
    notices = dashboard.notices_by_group("recife", today)
    assert (
        sum(sum(r.values) for r in notices.rows)
        == InfractionNotice.objects.filter(jurisdiction_id="recife", drawn_up_at__date__gte=start).count()
    )
    permits = dashboard.permits_by_status("recife", today)
    assert permits is not None
    assert sum(r.values[0] for r in permits.rows) == Permit.objects.filter(jurisdiction_id="recife").count()
    assert dashboard.permits_by_status("pernambuco", today) is None  # no permits in that law
    queue = dashboard.queue_by_age("recife", today)
    assert (
        sum(r.values[0] for r in queue.rows)
        == WorkItem.objects.filter(jurisdiction_id="recife", status="aberto").count()
    )
    funds = dashboard.funds("pernambuco", today)
    months = {f"{m:02d}/{y}" for y, m in dashboard.months(today)}
    expected = [r for r in fund_rows(["pernambuco"], today) if r["month"] in months]
    assert [r.values for r in funds.rows] == [[r["paid"], r["overdue"]] for r in expected]


def test_chart_layout_scales_bars_to_the_largest_value() -> None:
    from lotacao.web.charts import LABEL_W, VALUE_W, WIDTH, Chart, Row, layout

    chart = layout(
        Chart(key="k", title="t", series=["a", "b"], rows=[Row("x", [Decimal("10"), 0]), Row("y", [5, 20])])
    )
    bars = [bar for row in chart.rows for bar in row.bars]
    span = WIDTH - LABEL_W - VALUE_W
    assert [b.width for b in bars] == [span // 2, 0, span // 4, span]
    assert chart.rows[0].texts == ["10", "0"] and chart.has_data
    assert not layout(Chart(key="e", title="t", series=["a"], rows=[Row("x", [0])])).has_data
    assert dashboard.group_label("A") == "Grupo A" and dashboard.group_label("") == "Sem grupo"


def _figure(body: str, label: str) -> int:
    found = re.search(rf"<strong>(\d+)</strong> {label}</", body)
    assert found, label
    return int(found.group(1))


def test_the_home_kept_in_the_cache_shows_every_change_at_once(demo: None, client: Any) -> None:
    """The home's figures and charts are cached under the audit log's last id (issue 25: the
    manager's home had 32 queries): an audited change shows on the next request, and the work
    queue, written unaudited by the nightly run, is counted live."""
    from lotacao.audit.services import update_audited
    from lotacao.permits.models import Permit
    from lotacao.workqueue.models import WorkItem

    client.force_login(User.objects.get(username="gestor.recife"))
    before = client.get("/").content.decode()
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    again = client.get("/").content.decode()
    assert token.sub("", again) == token.sub("", before)  # the second answer comes from the cache
    active = _figure(before, "Permissões ativas")
    permit = Permit.objects.filter(jurisdiction_id="recife", status="active").first()
    assert permit is not None
    update_audited(actor=None, instance=permit, changes={"status": "suspended"}, reason="teste")
    after = client.get("/").content.decode()
    assert _figure(after, "Permissões ativas") == active - 1
    assert _figure(after, "Permissões suspensas") == _figure(before, "Permissões suspensas") + 1

    queue = _figure(after, "Itens na fila de trabalho")
    item = WorkItem.objects.filter(jurisdiction_id="recife", status="aberto").first()
    assert item is not None
    WorkItem.objects.filter(pk=item.pk).update(status=WorkItem.Status.CLOSED)
    assert _figure(client.get("/").content.decode(), "Itens na fila de trabalho") == queue - 1
