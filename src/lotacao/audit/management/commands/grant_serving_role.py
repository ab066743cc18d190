"""`manage.py grant_serving_role ROLE --database owner`: give the serving role its privileges.

Run as the owner of the tables (MIGRATE_DATABASE_URL, alias ``owner``) after `migrate`. With
`--create` it also creates the role (the connection must be allowed to create roles); its password
is read from the environment variable named by `--password-env`, never from the command line.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from lotacao.audit.roles import create_role, grant_serving_role


class Command(BaseCommand):
    help = "Concede ao papel que serve a aplicação o que ele precisa; na auditoria, só INSERT e SELECT."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="nome do papel que serve a aplicação (o usuário de DATABASE_URL)")
        parser.add_argument(
            "--database",
            default="owner" if "owner" in connections else DEFAULT_DB_ALIAS,
            help="conexão do dono das tabelas (padrão: owner, de MIGRATE_DATABASE_URL)",
        )
        parser.add_argument("--create", action="store_true", help="cria o papel se ele não existir")
        parser.add_argument(
            "--password-env",
            default="LOTACAO_SERVING_PASSWORD",
            help="variável de ambiente com a senha do papel criado (padrão: LOTACAO_SERVING_PASSWORD)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        role = options["role"]
        try:
            with transaction.atomic(using=connection.alias):
                if options["create"] and create_role(
                    connection, role, os.environ.get(options["password_env"]) or None
                ):
                    self.stdout.write(f"Papel “{role}” criado.")
                statements = grant_serving_role(connection, role)
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Papel “{role}” pode ler e escrever nas tabelas da aplicação e só incluir e ler na "
            f"auditoria ({len(statements)} comandos aplicados)."
        )
