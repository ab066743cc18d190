"""`manage.py export_register --jurisdiction J --dir DIR [--format csv|xlsx|ods]`

Writes the register of a jurisdiction in the files `import_register` reads (same columns), so
that an export imported into an empty agency reproduces it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lotacao.core.models import Jurisdiction
from lotacao.onboarding.register.exporter import export_register
from lotacao.onboarding.register.spec import BY_NAME, FORMATS


class Command(BaseCommand):
    help = "Exporta o cadastro de uma jurisdição nos arquivos que a importação lê."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--jurisdiction", required=True, help="código da jurisdição (ex.: recife)")
        parser.add_argument("--dir", required=True, help="pasta onde gravar os arquivos")
        parser.add_argument("--format", default="csv", choices=FORMATS, help="csv, xlsx ou ods")

    def handle(self, *args: Any, **options: Any) -> None:
        if not Jurisdiction.objects.filter(code=options["jurisdiction"]).exists():
            raise CommandError(f"Jurisdição desconhecida: {options['jurisdiction']}.")
        counts = export_register(
            code=options["jurisdiction"], directory=Path(options["dir"]), fmt=options["format"]
        )
        for name, n in counts.items():
            self.stdout.write(f"{BY_NAME[name].label}: {n}")
