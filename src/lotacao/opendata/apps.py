from django.apps import AppConfig


class OpendataConfig(AppConfig):
    name = "lotacao.opendata"
    label = "opendata"
    verbose_name = "Dados abertos"
