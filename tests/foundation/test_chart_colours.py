"""One colour per meaning across charts (issue 24, defect 8): the dashboard drew "Inadimplente" in
green while the funds page drew it red; the fines chart drew "Pagas" green and the funds page drew
"Arrecadado" blue. Issued is blue, paid green, overdue red, everywhere; green and red mean nothing
else."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.charts import GREEN, ISSUED, OVERDUE, PAID, RED, Chart, Row, layout, series_colours


def _colours(series: list[str]) -> dict[str, str]:
    return dict(layout(Chart(key="k", title="t", series=series, rows=[Row("x", [1] * len(series))])).colours)


def test_each_state_has_one_colour_in_every_chart() -> None:
    assert _colours(["Arrecadado", "Inadimplente"]) == {"Arrecadado": PAID, "Inadimplente": OVERDUE}
    assert _colours(["Emitidas", "Pagas"]) == {"Emitidas": ISSUED, "Pagas": PAID}
    assert OVERDUE == RED and PAID == GREEN


def test_other_series_never_take_the_green_or_the_red() -> None:
    names = [f"Grupo {letter}" for letter in "ABCDE"]
    colours = series_colours(names)
    assert GREEN not in colours and RED not in colours
    assert len(set(colours)) == len(names)


def test_the_bars_are_drawn_in_their_series_colour() -> None:
    chart = layout(Chart(key="k", title="t", series=["Arrecadado", "Inadimplente"], rows=[Row("x", [3, 4])]))
    assert [bar.colour for bar in chart.rows[0].bars] == [PAID, OVERDUE]


def test_the_funds_page_and_the_dashboard_agree(world: Any, client: Any) -> None:
    from lotacao.accounts.models import User

    client.force_login(User.objects.get(username="gestor.recife"))
    body = client.get("/cobranca/fundos/").content.decode()
    assert "inadimplente (vermelho)" in body and "arrecadado (verde)" in body
    from lotacao.web import dashboard

    chart = dashboard.funds("recife", dt.date(2026, 1, 1))
    assert dict(chart.colours)["Inadimplente"] == OVERDUE
