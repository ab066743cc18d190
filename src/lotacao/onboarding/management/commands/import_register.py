"""`manage.py import_register --jurisdiction J --dir DIR [--dry-run] [--json] [--reason R] [--user U]`

Imports the agency's existing register (one file per kind: pessoas, empresas, permissionarios,
linhas, veiculos, seguros, permissoes, prepostos, vistorias, autos, debitos — .csv, .xlsx or .ods)
in one transaction: nothing is saved on --dry-run or when any row is refused. With --json it prints
{"created": {kind: n}, "updated": {…}, "unchanged": {…}, "errors": [...]} and nothing else.
`--templates DIR` writes the blank files with one example row each instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lotacao.core.models import Jurisdiction
from lotacao.onboarding.register.files import write_templates
from lotacao.onboarding.register.importer import DEFAULT_REASON, import_register
from lotacao.onboarding.register.spec import BY_NAME, FORMATS


class Command(BaseCommand):
    help = "Importa o cadastro existente de um órgão gestor (simulação com --dry-run)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--jurisdiction", help="código da jurisdição (ex.: recife)")
        parser.add_argument("--dir", help="pasta com os arquivos (pessoas.csv, veiculos.xlsx, …)")
        parser.add_argument("--dry-run", action="store_true", help="mostra o que seria feito, sem gravar")
        parser.add_argument("--json", action="store_true", help="saída em JSON")
        parser.add_argument("--reason", default=DEFAULT_REASON, help="motivo registrado na auditoria")
        parser.add_argument("--user", default="", help="usuário que responde pela importação (auditoria)")
        parser.add_argument("--templates", default="", help="grava nesta pasta os modelos dos arquivos e sai")
        parser.add_argument("--format", default="csv", choices=FORMATS, help="formato dos modelos")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["templates"]:
            paths = write_templates(Path(options["templates"]), options["format"])
            self.stdout.write(f"{len(paths)} modelos gravados em {options['templates']}.")
            return
        if not options["jurisdiction"] or not options["dir"]:
            raise CommandError("Informe --jurisdiction e --dir (ou --templates PASTA).")
        jurisdiction = Jurisdiction.objects.filter(code=options["jurisdiction"]).first()
        if jurisdiction is None:
            raise CommandError(f"Jurisdição desconhecida: {options['jurisdiction']}.")
        directory = Path(options["dir"])
        if not directory.is_dir():
            raise CommandError(f"Pasta não encontrada: {directory}.")
        actor = None
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"Usuário desconhecido: {options['user']}.")
        report = import_register(
            jurisdiction=jurisdiction,
            directory=directory,
            actor=actor,
            reason=options["reason"],
            dry_run=options["dry_run"],
        )
        if options["json"]:
            self.stdout.write(json.dumps(report.as_json(), ensure_ascii=False))
        else:
            self._text(report)
        if report.errors:
            raise CommandError(f"{len(report.errors)} erro(s): nada foi gravado.")

    def _text(self, report: Any) -> None:
        for name in report.created:
            label = BY_NAME[name].label
            self.stdout.write(
                f"{label}: {report.created[name]} a criar, {report.updated[name]} a alterar, "
                f"{report.unchanged[name]} sem alteração"
                if not report.saved
                else f"{label}: {report.created[name]} criados, {report.updated[name]} alterados, "
                f"{report.unchanged[name]} sem alteração"
            )
        for problem in report.errors:
            self.stderr.write(str(problem))
        if report.saved:
            self.stdout.write("Importação gravada.")
        elif report.dry_run and not report.errors:
            self.stdout.write("Simulação: nada foi gravado.")
