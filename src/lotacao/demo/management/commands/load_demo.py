from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from lotacao.demo import base as demo


class Command(BaseCommand):
    help = "Carrega os dados de demonstração das cinco jurisdições (pode ser executado de novo)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--quiet-logins", action="store_true", help="Não lista os usuários de demonstração."
        )
        parser.add_argument("--address", default="http://127.0.0.1:8000/", help="Endereço a anunciar.")

    def handle(self, *args: Any, **options: Any) -> None:
        summary = demo.load()
        self.stdout.write(
            f"Dados de demonstração: {summary.created} registros criados, {summary.existing} já existiam."
        )
        if options["quiet_logins"]:
            return
        self.stdout.write("")
        self.stdout.write(f"Endereço: {options['address']}")
        self.stdout.write(f"Senha de todos os usuários de demonstração: {demo.DEMO_PASSWORD}")
        for username, label in demo.logins():
            self.stdout.write(f"  {username:<28} {label}")
