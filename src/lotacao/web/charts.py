"""The server-drawn SVG charts now live in `lotacao.core.charts`, so the public pages (below `web`)
draw them too; this name stays for the dashboard."""

from lotacao.core.charts import Bar, Chart, Row, layout

__all__ = ["Bar", "Chart", "Row", "layout"]
