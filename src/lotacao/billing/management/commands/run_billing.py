"""`manage.py run_billing --jurisdiction <id> --period YYYY-MM [--dry-run] [--json]`

Bills a jurisdiction's month as the system (audited as "sistema"): the same plan the manager
simulates on screen; a value the law leaves open and the agency has not supplied stops it, naming
the value. With --json it prints the charges it created (or, with --dry-run, would create) as a
JSON array of {holder, kind, amount, due_on, citation}; a month already billed prints [].
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lotacao.billing.runs import services
from lotacao.core.formats import brl
from lotacao.core.models import Jurisdiction

REASON = "Faturamento mensal pelo comando run_billing"


def _period(text: str) -> dt.date:
    try:
        year, month = text.split("-")
        return dt.date(int(year), int(month), 1)
    except ValueError as error:
        raise CommandError(f"Competência inválida: {text!r} (use AAAA-MM, por exemplo 2027-02).") from error


def _row(line: dict[str, Any]) -> dict[str, Any]:
    return {
        "holder": line["holder"],
        "kind": line["fee"] or line["kind"],
        "amount": line["amount"],
        "due_on": line["due_on"],
        "citation": line["citation"],
    }


class Command(BaseCommand):
    help = "Faturamento mensal de uma jurisdição (simulação com --dry-run)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--jurisdiction", required=True, help="código da jurisdição (ex.: recife)")
        parser.add_argument("--period", required=True, help="competência AAAA-MM")
        parser.add_argument("--dry-run", action="store_true", help="mostra o que seria cobrado, sem cobrar")
        parser.add_argument("--json", action="store_true", help="saída em JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        period = _period(options["period"])
        jurisdiction = Jurisdiction.objects.filter(code=options["jurisdiction"]).first()
        if jurisdiction is None:
            raise CommandError(f"Jurisdição desconhecida: {options['jurisdiction']}.")
        try:
            rows = self._run(jurisdiction, period, dry_run=options["dry_run"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        if options["json"]:
            self.stdout.write(json.dumps(rows, ensure_ascii=False))
            return
        verb = "seriam criadas" if options["dry_run"] else "criadas"
        self.stdout.write(f"{len(rows)} cobranças {verb} para {period:%m/%Y} em {jurisdiction.name}.")
        for row in rows:
            self.stdout.write(
                f"- {row['holder']}: {brl(row['amount'])}, vencimento {row['due_on']} ({row['citation']})"
            )

    def _run(self, jurisdiction: Jurisdiction, period: dt.date, *, dry_run: bool) -> list[dict[str, Any]]:
        if dry_run:
            plan = services.preview(jurisdiction.code, period)
            if plan.refusals:
                raise CommandError("Faturamento recusado: " + " ".join(plan.refusals))
            return [_row(line) for line in plan.lines]
        run = services.simulate(actor=None, jurisdiction=jurisdiction, period=period, reason=REASON)
        if run.refusals:
            raise CommandError("Faturamento recusado: " + " ".join(run.refusals))
        run = services.approve(actor=None, run=run, reason=REASON)
        made = services.execute(actor=None, run=run, reason=REASON)
        keys = {c.key for c in made}
        return [_row(line) for line in run.plan if line["key"] in keys]
