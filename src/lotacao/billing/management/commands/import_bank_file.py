"""`manage.py import_bank_file --jurisdiction J FILE [--json]`: import a bank file (OFX, CNAB 240,
CNAB 400 or CSV) as the screen does, and print the reconciliation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from lotacao.billing.payments.bank import SECTIONS, import_statement
from lotacao.core.models import Jurisdiction

LABELS = {
    "matched": "conciliados",
    "partial": "pagamentos parciais",
    "unmatched": "enviados à fila de conciliação",
    "duplicates": "duplicados",
}


class Command(BaseCommand):
    help = "Importa um arquivo do banco (OFX, retorno CNAB 240 ou 400, CSV) e concilia os créditos."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")
        parser.add_argument("--jurisdiction", required=True)
        parser.add_argument("--reason", default="Importação do arquivo do banco")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        jurisdiction = Jurisdiction.objects.filter(code=options["jurisdiction"]).first()
        if jurisdiction is None:
            raise CommandError(f"Jurisdição {options['jurisdiction']} não encontrada.")
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"Arquivo {path} não encontrado.")
        try:
            done = import_statement(
                actor=None,
                jurisdiction=jurisdiction,
                filename=path.name,
                content=path.read_bytes(),
                reason=options["reason"],
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        if options["json"]:
            self.stdout.write(json.dumps({"import": done.pk, **done.report}, ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"{done.report.get('format', '')}: {done.filename}")
        for section in SECTIONS:
            rows = done.report.get(section, [])
            self.stdout.write(f"{len(rows)} {LABELS[section]}")
            for row in rows:
                self.stdout.write(
                    f"  {row['linha']}: {row['data']} R$ {row['valor']} {row['codigo']} — {row['motivo']}"
                )
