from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from lotacao.accounts.models import User
from lotacao.accounts.tokens import create_token


class Command(BaseCommand):
    help = "Cria um token de API para um usuário e o mostra uma única vez."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument("--label", default="token de API")
        parser.add_argument(
            "--pix-webhook",
            metavar="JURISDICAO",
            help="token só para as notificações Pix do banco desta jurisdição",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"], is_active=True).first()
        if user is None:
            raise CommandError(f"Usuário {options['username']} não encontrado ou inativo.")
        jurisdiction = None
        if options.get("pix_webhook"):
            from lotacao.core.models import Jurisdiction

            jurisdiction = Jurisdiction.objects.filter(code=options["pix_webhook"]).first()
            if jurisdiction is None:
                raise CommandError(f"Jurisdição {options['pix_webhook']} não encontrada.")
        key = create_token(
            actor=None,
            user=user,
            label=options["label"],
            scope="pix_webhook" if jurisdiction is not None else "",
            jurisdiction=jurisdiction,
        )
        self.stdout.write(key)
