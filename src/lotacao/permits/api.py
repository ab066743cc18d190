"""REST endpoints of the permits app (mounted by lotacao.api.main)."""

from ninja import Router

router = Router(tags=["permits"])
