"""The API of lotacao.holder_requests (mounted in lotacao.api.main at the root: each operation's path is whole)."""

from ninja import Router

router = Router()
