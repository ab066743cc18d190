"""The delegation API, mounted by lotacao.api.main."""

from ninja import Router

router = Router(tags=["delegacao do servico"])
