"""Every list exports what its filters show, as CSV, XLSX and ODS, in Portuguese (issue 20, item 5).

Each export is parsed back (csv, openpyxl, tablib/odfpy) and compared with the page: the same
rows (the page's own filtered queryset, within the user's scope), Portuguese headers, values as
people read them; staff of another agency get nothing of this one, a holder only their own; an
export of personal data is audited; a bad format is a Portuguese 400."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from decimal import Decimal
from typing import Any

import pytest
import tablib
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from lotacao.audit.models import AuditEvent
from lotacao.core import exports
from lotacao.inspections.models import Inspection
from lotacao.registry import services as registry

# list url name -> (file stem, its first headers)
LISTS: dict[str, tuple[str, list[str]]] = {
    "registry:persons": ("pessoas", ["Nome", "CPF", "Município"]),
    "registry:holders": ("permissionarios", ["Permissionário", "Natureza", "CPF ou CNPJ"]),
    "registry:vehicles": (
        "veiculos",
        ["Placa", "Categoria", "Ano de fabricação", "Lugares", "Permissionário"],
    ),
    "people:companies": ("pessoas-juridicas", ["Razão social", "CNPJ", "Natureza"]),
    "permits:list": ("permissoes", ["Número", "Permissionário", "CPF ou CNPJ", "Espécie", "Linha"]),
    "inspections:agenda": ("vistorias-agendadas", ["Data marcada", "Veículo", "Permissionário", "Tipo"]),
    "enforcement:notices": ("autos-de-infracao", ["Número", "Data e hora", "Placa", "Enquadramento"]),
    "enforcement:fines": ("multas", ["Auto de infração", "Placa", "Devedor", "CPF ou CNPJ do devedor"]),
    "billing:charges": ("cobrancas", ["Guia", "Permissionário", "Natureza", "Descrição", "Valor (R$)"]),
    "billing:payments": ("pagamentos", ["Guia", "Permissionário", "Pago em", "Valor pago (R$)"]),
    "billing:funds": ("fundos", ["Jurisdição", "Destinação", "Mês", "Emitido (R$)"]),
    "lines:list": ("linhas", ["Linha", "Nome", "Jurisdição", "Versão em vigor"]),
    "chartering:companies": ("empresas-de-fretamento", ["Empresa", "CNPJ", "Jurisdição"]),
    "chartering:trips": ("viagens-de-fretamento", ["Viagem", "Empresa", "Veículo", "Situação"]),
}
PERSONAL = {
    "registry:persons",
    "registry:holders",
    "registry:vehicles",
    "permits:list",
    "inspections:agenda",
    "enforcement:notices",
    "enforcement:fines",
    "billing:charges",
    "billing:payments",
}
FORMATS = ["csv", "xlsx", "ods"]
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def content(response: Any) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else bytes(response.content)


def parse(response: Any, fmt: str) -> tuple[list[str], list[list[Any]]]:
    data = content(response)
    if fmt == "csv":
        assert data.startswith("\ufeff".encode()), "CSV sem BOM: o Excel brasileiro erra os acentos"
        table = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
        return table[0], table[1:]
    if fmt == "xlsx":
        sheet = load_workbook(io.BytesIO(data), read_only=True).active
        assert sheet is not None
        values = [["" if v is None else v for v in row] for row in sheet.iter_rows(values_only=True)]
        return [str(v) for v in values[0]], values[1:]
    dataset = tablib.Dataset().load(io.BytesIO(data), format="ods")
    return list(dataset.headers or []), [list(row) for row in dataset]


def page_rows(response: Any) -> int:
    """How many rows the list page shows for the same filters."""
    ctx = response.context
    if "page" in ctx and ctx["page"] is not None:
        return int(ctx["page"].paginator.count)
    for key in ("charges", "scheduled", "rows"):
        if key in ctx:
            return len(list(ctx[key]))
    raise AssertionError("lista sem linhas no contexto")


@pytest.fixture
def scheduled(world: Any) -> None:
    for code in ("recife", "esteio"):
        vehicle = world.objects[code]["registry.vehicle"]
        Inspection.objects.create(
            jurisdiction=vehicle.jurisdiction,
            vehicle=vehicle,
            scheduled_for=timezone.localdate() + dt.timedelta(days=3),
            place="Pátio da agência",
        )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", list(LISTS))
def test_each_list_exports_the_rows_its_page_shows(
    world: Any, client: Any, scheduled: None, name: str, fmt: str
) -> None:
    stem, first_headers = LISTS[name]
    client.force_login(world.users["gestor.recife"])
    page = client.get(reverse(name))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Exportar:" in html and f"formato={fmt}" in html
    response = client.get(reverse(name), {exports.PARAM: fmt})
    assert response.status_code == 200, content(response)[:300]
    today = timezone.localdate()
    assert response["Content-Disposition"] == f'attachment; filename="{stem}-{today:%Y-%m-%d}.{fmt}"'
    assert response["Content-Type"] == exports.FORMATS[fmt][1]
    headers, rows = parse(response, fmt)
    assert headers[: len(first_headers)] == first_headers
    assert len(rows) == page_rows(page) > 0
    for row in rows:
        for value in row:
            text = str(value)
            assert not ISO_DATE.search(text), f"{name}: data ISO na exportação: {text}"
            assert not SNAKE.search(text), f"{name}: código interno na exportação: {text}"
            assert "Esteio" not in text, f"{name}: linha de outra agência: {text}"


@pytest.mark.parametrize("name", list(LISTS))
def test_staff_of_another_agency_export_nothing_of_this_one(world: Any, client: Any, name: str) -> None:
    client.force_login(world.users["gestor.esteio"])
    text = content(client.get(reverse(name), {exports.PARAM: "csv"})).decode("utf-8-sig")
    recife = world.objects["recife"]
    for needle in ("Recife", "de Recife", recife["registry.vehicle"].plate_display, "ABA1C23"):
        assert needle not in text, f"{name}: exportou dado de Recife para Esteio ({needle})"


@pytest.mark.parametrize("name", list(LISTS))
def test_a_bad_format_is_a_portuguese_400(world: Any, client: Any, name: str) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get(reverse(name), {exports.PARAM: "pdf"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Formato de exportação desconhecido" in body and "Escolha CSV, XLSX ou ODS" in body
    assert not AuditEvent.objects.filter(action="export.list").exists()


def test_the_export_carries_the_search_and_the_filters(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    _, rows = parse(client.get(reverse("registry:persons"), {"q": "pessoa 1", "formato": "csv"}), "csv")
    assert [r[0] for r in rows] == ["Pessoa 1 de Recife"]
    page = client.get(reverse("registry:persons"), {"q": "pessoa 1"}).content.decode()
    assert "?q=pessoa+1&amp;formato=xlsx" in page  # the page's links carry its search
    # a page number is not a filter: the export has every row
    assert "pagina" not in re.findall(r'href="(\?[^"]*formato=ods)"', page)[0]
    _, paid = parse(client.get(reverse("billing:charges"), {"situacao": "pagas", "formato": "csv"}), "csv")
    assert paid and all(r[6] == "Paga" for r in paid)
    _, everything = parse(client.get(reverse("billing:charges"), {"formato": "csv"}), "csv")
    assert len(everything) > len(paid)


def test_values_read_as_people_read_them(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.recife"])
    _, rows = parse(client.get(reverse("billing:payments"), {"formato": "csv"}), "csv")
    payment = world.objects["recife"]["billing.payment"]
    assert rows == [
        [
            payment.charge.slip_code,
            "Pessoa 0 de Recife",
            payment.paid_on.strftime("%d/%m/%Y"),
            "25,50",  # CSV for Excel in Brazil: decimal comma
            "0,00",
            "Registrado pelo atendimento",  # the method in words, not "balcao"
            "REC-recife",
        ]
    ]
    _, sheet = parse(client.get(reverse("billing:payments"), {"formato": "xlsx"}), "xlsx")
    assert sheet[0][3] == 25.5  # a number the spreadsheet sums
    _, ods = parse(client.get(reverse("billing:payments"), {"formato": "ods"}), "ods")
    assert ods[0][3] == 25.5
    _, vehicles = parse(client.get(reverse("registry:vehicles"), {"formato": "csv"}), "csv")
    assert vehicles == [["ABA1C23", "Van / kombi", "2020", "16", "Pessoa 0 de Recife"]]  # category in words


def test_cells_of_each_type() -> None:
    assert exports.cell(dt.date(2026, 3, 9), "csv") == "09/03/2026"
    moment = dt.datetime(2026, 3, 9, 14, 5, tzinfo=dt.UTC)
    assert exports.cell(moment, "xlsx") == "09/03/2026 11:05"  # local time (America/Recife)
    assert exports.cell(Decimal("1234.5"), "csv") == "1234,50"
    assert exports.cell(Decimal("1234.5"), "ods") == 1234.5
    assert exports.cell(True, "csv") == "Sim" and exports.cell(False, "xlsx") == "Não"
    assert exports.cell(None, "csv") == ""


def test_a_holder_exports_only_their_own(world: Any, client: Any, scheduled: None) -> None:
    other = world.objects["recife"]["registry.holder"]
    registry.create_vehicle(
        actor=None,
        jurisdiction=world.a,
        plate="QQQ9Z99",
        manufacture_year=2021,
        category="van",
        seats=12,
        doors=3,
        holder=None,
        reason="teste",
    )
    client.force_login(world.users["holder0.recife"])  # the world's holder: vehicle, permit, charge…
    for name in (
        "registry:vehicles",
        "permits:list",
        "billing:charges",
        "billing:payments",
        "enforcement:fines",
    ):
        page = client.get(reverse(name))
        headers, rows = parse(client.get(reverse(name), {"formato": "csv"}), "csv")
        assert len(rows) == page_rows(page) > 0, name
        column = headers.index("Permissionário") if "Permissionário" in headers else headers.index("Devedor")
        assert {r[column] for r in rows} == {str(other)}, name
    client.force_login(world.users["holder1.recife"])  # a holder with nothing
    for name in ("registry:vehicles", "permits:list", "billing:charges", "billing:payments"):
        _, rows = parse(client.get(reverse(name), {"formato": "csv"}), "csv")
        assert rows == [], name


def test_exports_of_personal_data_are_audited(world: Any, client: Any) -> None:
    user = world.users["atendente.recife"]
    client.force_login(user)
    response = client.get(reverse("registry:persons"), {"q": "Pessoa", "formato": "xlsx"})
    assert response.status_code == 200
    event = AuditEvent.objects.get(action="export.list")
    assert event.actor_id == user.pk and event.jurisdiction_id == "recife"
    assert event.after == {
        "lista": "Pessoas",
        "caminho": reverse("registry:persons"),
        "filtros": {"q": "Pessoa"},
        "formato": "xlsx",
        "linhas": 2,
        "jurisdicoes": ["recife"],
    }
    assert "Pessoas" in event.reason and "2 linhas" in event.reason
    from lotacao.audit.actions import label

    assert label("export.list") == "exportação de lista com dados pessoais"
    for name in sorted(PERSONAL):
        before = AuditEvent.objects.filter(action="export.list").count()
        b"".join([content(client.get(reverse(name), {"formato": "csv"}))])
        assert AuditEvent.objects.filter(action="export.list").count() == before + 1, name
    before = AuditEvent.objects.filter(action="export.list").count()
    for name in sorted(set(LISTS) - PERSONAL):  # companies, lines, funds: no personal data
        content(client.get(reverse(name), {"formato": "csv"}))
    assert AuditEvent.objects.filter(action="export.list").count() == before


@pytest.mark.parametrize(
    "name", ["registry:vehicles", "permits:list", "billing:charges", "enforcement:fines"]
)
def test_an_export_reads_in_a_fixed_number_of_queries(world: Any, client: Any, name: str) -> None:
    """No query per row: ten rows or forty cost the same."""
    from lotacao.billing.ledger.models import Charge
    from lotacao.enforcement.models import Fine, InfractionNotice
    from lotacao.permits.models import Permit

    client.force_login(world.users["gestor.recife"])

    def add(n: int) -> None:
        holder = world.objects["recife"]["registry.holder"]
        start = Vehicle_count()
        for i in range(n):
            vehicle = registry.create_vehicle(
                actor=None,
                jurisdiction=world.a,
                plate=f"EXP{(start + i) % 10}{chr(65 + (start + i) // 10 % 26)}{(start + i) % 100:02d}",
                manufacture_year=2020,
                category="van",
                seats=10,
                doors=3,
                holder=holder,
                reason="teste",
            )
            Permit.objects.create(
                jurisdiction=world.a, holder=holder, vehicle=vehicle, applied_on=dt.date(2026, 1, 2)
            )
            Charge.objects.create(
                jurisdiction=world.a,
                holder=holder,
                kind="fee",
                description="Taxa",
                amount=Decimal("1"),
                due_on=dt.date(2026, 1, 2),
            )
            notice = InfractionNotice.objects.get(
                pk=world.objects["recife"]["enforcement.infractionnotice"].pk
            )
            notice.pk = None
            notice.number = f"EXP-{start + i}"
            notice.save()
            Fine.objects.create(jurisdiction=world.a, notice=notice, holder=holder, payer_name="Fulano")

    def Vehicle_count() -> int:
        from lotacao.registry.models import Vehicle

        return int(Vehicle.objects.count())

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            response = client.get(reverse(name), {"formato": "csv"})
            content(response)
        return len(seen.captured_queries)

    add(10)
    few = queries()
    add(30)
    assert queries() == few
