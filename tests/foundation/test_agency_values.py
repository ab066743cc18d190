"""Values the agency supplies to its law: validated by the pack, dated, cited, audited, used."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.services import history
from lotacao.core import law
from lotacao.core.models import AgencyValue
from lotacao.web.agency_values import annul_agency_value, set_agency_value


def test_an_undefined_value_supplied_by_the_agency_is_used_by_the_engine(world: Any) -> None:
    from lotacao.core.models import Jurisdiction

    pe = Jurisdiction.objects.create(code="pernambuco", name="Pernambuco", official_name="EPTI", state="PE")
    case = {
        "jurisdiction": "pernambuco",
        "kind": "penalty",
        "date": "2025-06-16",
        "offender": "company",
        "infraction": {"code": "I-a"},
        "history": [],
    }
    before = law.evaluate_case(case)
    assert "penalty.fine.I" in before["missing_parameters"]
    gestor = world.users["gestor.recife"]
    row = set_agency_value(
        actor=gestor,
        jurisdiction=pe,
        parameter="penalty.fine.I",
        valid_from=dt.date(2025, 1, 1),
        value={"amount": "500.00"},
        cite="Portaria EPTI nº 1/2025",
        reason="Fixação do valor das multas leves",
    )
    after = law.evaluate_case(case)
    assert {"type": "fine", "amount": "500.00"} in after["penalties"]
    assert "penalty.fine.I" not in after["missing_parameters"]
    assert "Portaria EPTI nº 1/2025" in " ".join(after["citations"]) + after["explanation"]
    [event] = history(row)
    assert event.action == "agency_value.created" and event.actor == gestor
    # before its date the law's own (undefined) value still applies
    earlier = law.evaluate_case({**case, "date": "2024-12-31"})
    assert "penalty.fine.I" in earlier["missing_parameters"]


def test_municipal_holidays_of_the_agency_move_deadlines(world: Any) -> None:
    from lotacao.law.evaluate import evaluate_case as law_only

    assert law.value("recife", "calendar.municipal_holidays", dt.date(2025, 7, 1)) == ["07-16"]
    case = {"jurisdiction": "esteio", "kind": "deadline", "deadline": "defense", "date": "2025-01-06"}
    # 15 business days after Monday 06/01/2025: 27/01 by the law alone; Esteio's agency declared
    # 20/01 a municipal holiday (world fixture), so the product counts to 28/01.
    assert law_only(case)["due"] == "2025-01-27"
    assert law.evaluate_case(case)["due"] == "2025-01-28"


@pytest.mark.parametrize(
    ("parameter", "value", "cite", "message"),
    [
        ("penalty.fine.nao-existe", "1.00", "Portaria", "não tem esse valor"),
        ("calendar.municipal_holidays", "07-16", "Portaria", "Valor inválido"),
        ("calendar.municipal_holidays", ["07-16"], " ", "Cite o ato"),
    ],
)
def test_invalid_values_are_refused_in_portuguese_and_change_nothing(
    world: Any, parameter: str, value: Any, cite: str, message: str
) -> None:
    count = AgencyValue.objects.count()
    with pytest.raises(ValidationError, match=message):
        set_agency_value(
            actor=None,
            jurisdiction=world.a,
            parameter=parameter,
            valid_from=dt.date(2025, 1, 1),
            value=value,
            cite=cite,
            reason="teste",
        )
    assert AgencyValue.objects.count() == count


def test_a_value_is_annulled_not_deleted_and_the_law_applies_again(world: Any) -> None:
    row = world.objects["recife"]["core.agencyvalue"]
    with pytest.raises(ValidationError, match="motivo"):
        annul_agency_value(actor=None, value=row, reason="")
    annul_agency_value(actor=world.users["gestor.recife"], value=row, reason="Lei revogada")
    assert law.value("recife", "calendar.municipal_holidays", dt.date(2025, 7, 1)) == []
    assert AgencyValue.objects.filter(pk=row.pk, annulled_at__isnull=False).exists()
    with pytest.raises(ValidationError, match="já foi anulado"):
        annul_agency_value(actor=None, value=row, reason="de novo")


def test_only_managers_use_the_screen(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    assert client.get("/lei/").status_code == 404
    client.force_login(world.users["gestor.recife"])
    page = client.get("/lei/").content.decode()
    assert "Feriados municipais" in page or "feriados" in page.lower()
    assert "calendar.municipal_holidays</" not in page  # ids stay in addresses, never in the text
    url = "/lei/parametro/?j=recife&p=calendar.municipal_holidays"
    act = {"cite": "Lei Municipal nº 1/2026", "reason": "Novo feriado"}
    body = {"j": "recife", "valid_from": "01/01/2026", **act}
    response = client.post(url, {**body, "rows": "3", "r0_day": "16/07", "r1_day": "08/12"})
    assert response.status_code == 302
    assert law.value("recife", "calendar.municipal_holidays", dt.date(2026, 2, 1)) == ["07-16", "12-08"]
    bad = client.post(url, {**body, "valid_from": "01/02/2026", "rows": "3", "r0_day": "31/02"})
    assert bad.status_code == 400 and "não é um dia" in bad.content.decode()
    assert "JSON" not in bad.content.decode()
    client.force_login(world.users["gestor.esteio"])
    assert client.get("/lei/?j=recife").status_code == 404


def test_a_manager_registers_a_fare_readjustment_on_its_typed_form(world: Any, client: Any) -> None:
    """Recife (art. 36, § 1º; art. 45, parágrafo único): a dated percentage with its act, not JSON;
    the engine corrects the base from that date and the result names the act."""
    from lotacao.core.law import evaluate_case

    client.force_login(world.users["gestor.recife"])
    page = client.get("/lei/?j=recife").content.decode()
    assert "Reajustes tarifários do valor base das multas" in page and "Nenhum reajuste registrado" in page
    body = {
        "j": "recife",
        "form": "readjustment",
        "reajuste-valid_from": "2026-01-01",
        "reajuste-percent": "8,5",
        "reajuste-cite": "Decreto nº 100/2025",
        "reajuste-reason": "Reajuste tarifário de 2026",
    }
    refused = client.post("/lei/", {**body, "reajuste-percent": "oito"})
    assert refused.status_code == 400 and "não é um percentual" in refused.content.decode()
    too_early = client.post("/lei/", {**body, "reajuste-valid_from": "2003-04-16"})
    assert too_early.status_code == 400 and "posterior a essa data" in too_early.content.decode()
    assert client.post("/lei/", body).status_code == 302
    row = AgencyValue.objects.get(jurisdiction=world.a, parameter="penalty.base_fine_readjustment")
    assert row.value == "8.5" and row.cite == "Decreto nº 100/2025"
    page = client.get("/lei/?j=recife").content.decode()
    assert "8,50%" in page and "Decreto nº 100/2025" in page
    result = evaluate_case(
        {
            "jurisdiction": "recife",
            "kind": "penalty",
            "date": "2026-02-02",
            "offender": "permit_holder",
            "infraction": {"code": "G2-a"},
            "history": [],
        }
    )
    assert result["base_fine"]["amount"] == "54.25" and result["base_fine"]["act"] == "Decreto nº 100/2025"
    assert result["penalties"] == [{"type": "fine", "amount": "108.50"}]
    client.force_login(world.users["gestor.esteio"])
    assert "Reajustes tarifários" not in client.get("/lei/?j=esteio").content.decode()  # not in its law
    assert client.post("/lei/", {**body, "j": "esteio"}).status_code == 404
