from django.apps import AppConfig


class DelegationConfig(AppConfig):
    name = "lotacao.delegation"
    label = "delegation"
    verbose_name = "Delegação do serviço"
