"""`manage.py setup_agency --jurisdiction <pack> --manager <username> --email <address> [...]`

Step 2 of the production install (README "Running in production", docs/deployment.md): the
agency's jurisdiction with its law pack, channels and ombudsman, and its first manager with a
one-time password printed once. Running it again with the same arguments changes nothing and says
so; `--reset-password` issues a new one-time password. Runs as the serving role (DATABASE_URL).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lotacao.onboarding.agency import REASON, set_up_agency, summary

# option -> the jurisdiction's field
AGENCY_OPTIONS = {
    "name": "name",
    "official_name": "official_name",
    "state": "state",
    "timezone": "timezone",
    "population": "population",
    "address": "address",
    "phone": "phone",
    "agency_email": "email",
    "website": "website",
    "hours": "hours",
    "ombudsman_phone": "ombudsman_phone",
    "ombudsman_email": "ombudsman_email",
    "ombudsman_url": "ombudsman_url",
}


class Command(BaseCommand):
    help = (
        "Implanta um órgão gestor: a jurisdição com a sua lei, os canais de atendimento e o primeiro gestor."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--jurisdiction", required=True, help="pacote de lei (src/lotacao/packs/<id>)")
        parser.add_argument("--manager", required=True, help="nome de usuário do primeiro gestor")
        parser.add_argument("--email", required=True, help="e-mail do gestor")
        parser.add_argument("--manager-name", default="", help="nome completo do gestor")
        parser.add_argument("--name", help="nome da jurisdição (padrão: o do pacote)")
        parser.add_argument("--official-name", help="nome oficial do órgão gestor (padrão: o do pacote)")
        parser.add_argument("--state", help="UF (padrão: a do pacote)")
        parser.add_argument("--timezone", help="fuso horário (padrão: o do pacote)")
        parser.add_argument(
            "--population", type=int, help="população (IBGE), para as cotas que dependem dela"
        )
        parser.add_argument("--address", help="endereço de atendimento")
        parser.add_argument("--phone", help="telefone de atendimento")
        parser.add_argument("--agency-email", help="e-mail de atendimento do órgão")
        parser.add_argument("--website", help="sítio do órgão")
        parser.add_argument("--hours", help="horário de atendimento")
        parser.add_argument("--ombudsman-phone", help="telefone da ouvidoria")
        parser.add_argument("--ombudsman-email", help="e-mail da ouvidoria")
        parser.add_argument("--ombudsman-url", help="página da ouvidoria")
        parser.add_argument(
            "--reset-password",
            action="store_true",
            help="emite nova senha provisória para um gestor existente",
        )
        parser.add_argument("--reason", default=REASON, help="motivo registrado na auditoria")
        parser.add_argument("--json", action="store_true", help="saída em JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        agency = {
            field: options[option]
            for option, field in AGENCY_OPTIONS.items()
            if options.get(option) is not None
        }
        try:
            result = set_up_agency(
                actor=None,
                pack_id=options["jurisdiction"],
                manager=options["manager"],
                email=options["email"],
                manager_name=options["manager_name"],
                agency=agency,
                reset_password=options["reset_password"],
                reason=options["reason"],
            )
        except ValidationError as error:
            messages = (
                [m for ms in error.message_dict.values() for m in ms]
                if hasattr(error, "error_dict")
                else error.messages
            )
            raise CommandError(" ".join(messages)) from error
        if options["json"]:
            self.stdout.write(json.dumps(result.as_json(), ensure_ascii=False))
            return
        for line in summary(result):
            self.stdout.write(line)
