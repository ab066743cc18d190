"""REST endpoints of the inspections app (mounted by lotacao.api.main)."""

from ninja import Router

router = Router(tags=["inspections"])
