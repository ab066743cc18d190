"""The server-drawn SVG charts now live in `lotacao.core.charts`, so the public pages (below `web`)
draw them too; this name stays for the dashboard."""

from lotacao.core.charts import (
    BAR_H,
    COLOURS,
    GAP,
    LABEL_H,
    LABEL_W,
    ROW_PAD,
    VALUE_W,
    WIDTH,
    Bar,
    Chart,
    Row,
    layout,
)

__all__ = [
    "BAR_H",
    "COLOURS",
    "GAP",
    "LABEL_H",
    "LABEL_W",
    "ROW_PAD",
    "VALUE_W",
    "WIDTH",
    "Bar",
    "Chart",
    "Row",
    "layout",
]
