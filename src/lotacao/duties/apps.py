from django.apps import AppConfig


class DutiesConfig(AppConfig):
    name = "lotacao.duties"
    label = "duties"
    verbose_name = "Deveres do operador"
