"""Charts drawn on the server — the dashboard's, the public statistics' — (no library, no script,
nothing from a CDN; attributes only, so the strict Content-Security-Policy holds), each with the
same numbers as a table beside it for screen readers (the drawing itself is hidden from them).

The bars are SVG rectangles; every text (a row's label, a bar's value) is HTML on the figure's white,
so a contrast checker measures it (axe left 41 SVG texts "to review": no background it could read).

A chart is rows of labelled values in one or more series, drawn as horizontal grouped bars.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

# The Design System's palette, each at least 3:1 against white (WCAG 1.4.11).
BLUE, GREEN, RED = "#1351b4", "#168821", "#b51d09"
COLOURS = (BLUE, GREEN, RED, "#8a5a00", "#5c2d91", "#0c326f", "#555555")

# One colour per meaning across every chart (the dashboard, the funds page, the public statistics):
# what was issued is blue, what was paid green, what is overdue red. A series of one of these names
# is drawn in its colour wherever it appears; green and red mean nothing else in any chart.
ISSUED, PAID, OVERDUE = BLUE, GREEN, RED
MEANINGS = {
    "Emitido": ISSUED,
    "Emitidas": ISSUED,
    "Arrecadado": PAID,
    "Pagas": PAID,
    "Inadimplente": OVERDUE,
    "Vencidas": OVERDUE,
}
RESERVED = frozenset({PAID, OVERDUE})
OTHER_COLOURS = tuple(c for c in COLOURS if c not in RESERVED)


def series_colours(series: list[str]) -> list[str]:
    """Each series' colour: its meaning's, or the next of the palette that means nothing."""
    out: list[str] = []
    spare = [c for c in OTHER_COLOURS if c not in {MEANINGS.get(n) for n in series}] or list(OTHER_COLOURS)
    index = 0
    for name in series:
        if name in MEANINGS:
            out.append(MEANINGS[name])
        else:
            out.append(spare[index % len(spare)])
            index += 1
    return out

WIDTH = 640  # the viewBox's width; the drawing scales to its box
LABEL_W = 0  # each row's label is printed above its bars, whole
LABEL_H = 16
VALUE_W = 120
BAR_H = 14
GAP = 3
ROW_PAD = 8
BAR_MAX_PERCENT = 65  # the rest of the row holds the value's text, printed as HTML after the bar


@dataclass
class Bar:
    x: int
    y: int
    width: int
    colour: str
    text: str
    text_x: int
    text_y: int
    percent: int = 0  # the bar's length in % of its row (the longest is BAR_MAX_PERCENT)


@dataclass
class Row:
    label: str
    values: list[Decimal | int]
    texts: list[str] = field(default_factory=list)
    url: str = ""  # the list this row's figure opens, filtered to it
    bars: list[Bar] = field(default_factory=list)
    label_y: int = 0
    short: str = ""  # the label as the drawing prints it (the table has it whole)


@dataclass
class Chart:
    key: str
    title: str
    series: list[str]
    rows: list[Row]
    note: str = ""
    empty: str = "Nada a mostrar ainda."
    link: tuple[str, str] | None = None  # (url, words): the screen with the details
    row_header: str = "Período"
    money: bool = False
    height: int = 0
    colours: list[tuple[str, str]] = field(default_factory=list)

    @property
    def has_data(self) -> bool:
        return any(value for row in self.rows for value in row.values)


def _text(value: Decimal | int, money: bool) -> str:
    if money:
        from lotacao.core.formats import brl

        return brl(value)
    return str(value)


def layout(chart: Chart) -> Chart:
    """Compute each bar's geometry (in the viewBox's units) and the texts of the values."""
    top = max((value for row in chart.rows for value in row.values), default=0) or 1
    span = WIDTH - LABEL_W - VALUE_W
    colours = series_colours(chart.series)
    y = ROW_PAD
    for row in chart.rows:
        row.texts = [_text(value, chart.money) for value in row.values]
        row.short = row.label if len(row.label) <= 80 else row.label[:79] + "…"
        row.bars = []
        row.label_y = y + LABEL_H - 4
        y += LABEL_H
        for index, value in enumerate(row.values):
            width = int(span * Decimal(value) / Decimal(top)) if value else 0
            width = max(width, 1) if value else 0
            percent = max(int(BAR_MAX_PERCENT * Decimal(value) / Decimal(top)), 1) if value else 0
            row.bars.append(
                Bar(
                    x=LABEL_W,
                    y=y,
                    width=width,
                    colour=colours[index % len(colours)],
                    text=row.texts[index],
                    text_x=LABEL_W + width + 6,
                    text_y=y + BAR_H - 3,
                    percent=percent,
                )
            )
            y += BAR_H + GAP
        y += ROW_PAD
    chart.height = y + ROW_PAD
    chart.colours = list(zip(chart.series, colours, strict=True))
    return chart
