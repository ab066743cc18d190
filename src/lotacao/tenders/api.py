"""The tenders API, mounted by lotacao.api.main."""

from ninja import Router

router = Router(tags=["editais e selecao"])
