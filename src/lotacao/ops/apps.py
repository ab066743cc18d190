from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "lotacao.ops"
    label = "ops"
    verbose_name = "Operação"
