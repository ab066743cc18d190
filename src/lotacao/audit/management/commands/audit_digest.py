"""`manage.py audit_digest [--database ALIAS]`: the audit log's count, last id and chained SHA-256
as one JSON line (lotacao.audit.integrity), to compare a restored copy with its source."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DEFAULT_DB_ALIAS

from lotacao.audit.integrity import audit_digest


class Command(BaseCommand):
    help = "Resumo encadeado (SHA-256) do registro de auditoria, para conferir uma cópia restaurada."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args: Any, **options: Any) -> None:
        digest = audit_digest(options["database"])
        self.stdout.write(json.dumps(digest.as_dict(), ensure_ascii=False))
