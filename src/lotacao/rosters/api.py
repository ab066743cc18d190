"""The rosters API, mounted by lotacao.api.main."""

from ninja import Router

router = Router(tags=["escalas e jornadas"])
