from django.apps import AppConfig


class GovbrConfig(AppConfig):
    name = "lotacao.govbr"
    label = "govbr"
    verbose_name = "Login gov.br"
