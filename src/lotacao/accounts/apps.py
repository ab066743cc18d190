from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "lotacao.accounts"
    label = "accounts"
    verbose_name = "Contas e papéis"
