from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.conf import settings

from lotacao.core.formats import br_date, brl


@pytest.mark.parametrize(
    ("value", "shown"),
    [(Decimal("1234.56"), "R$\xa01.234,56"), ("0.005", "R$\xa00,01"), (50, "R$\xa050,00"), (None, "—")],
)
def test_money_is_shown_the_brazilian_way(value: object, shown: str) -> None:
    assert brl(value) == shown  # type: ignore[arg-type]


def test_dates_are_day_month_year() -> None:
    assert br_date(dt.date(2025, 6, 16)) == "16/06/2025"


def test_portuguese_and_recife_time_are_the_defaults() -> None:
    assert settings.LANGUAGE_CODE == "pt-br" and settings.TIME_ZONE == "America/Recife"


def test_health_answers_without_signing_in(client: object) -> None:
    response = client.get("/saude/")  # type: ignore[attr-defined]
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_years_are_not_shown_with_a_thousands_separator(world: object, client: object) -> None:
    body = client.get("/publico/veiculos/ABA1C23/").content.decode()  # type: ignore[attr-defined]
    assert "fabricação 2020" in body and "2.020" not in body


def test_history_reads_in_portuguese_and_years_plainly(world: object, client: object) -> None:
    vehicle = world.objects["recife"]["registry.vehicle"]  # type: ignore[attr-defined]
    client.force_login(world.users["atendente.recife"])  # type: ignore[attr-defined]
    body = client.get(f"/cadastro/veiculos/{vehicle.pk}/ficha/").content.decode()  # type: ignore[attr-defined]
    assert "sistema: cadastro — teste" in body and "vehicle.created" not in body
    assert "2020" in body and "2.020" not in body


def test_money_formatting_is_cached_by_its_text_not_its_value() -> None:
    # Decimal("-0.00") == Decimal("0.00"): a cache keyed by the value would answer one for the other
    assert brl("-0.001") == "-R$\xa00,00"
    assert brl(0) == "R$\xa00,00" and brl("0.00") == "R$\xa00,00"
    assert brl("4.1") == brl("4.10") == "R$\xa04,10"
