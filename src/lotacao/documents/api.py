"""REST endpoints of the documents app (mounted by lotacao.api.main)."""

from ninja import Router

router = Router(tags=["documents"])
