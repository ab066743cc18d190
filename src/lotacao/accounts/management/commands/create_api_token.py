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

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"], is_active=True).first()
        if user is None:
            raise CommandError(f"Usuário {options['username']} não encontrado ou inativo.")
        key = create_token(actor=None, user=user, label=options["label"])
        self.stdout.write(key)
