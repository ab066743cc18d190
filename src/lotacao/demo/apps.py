from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "lotacao.demo"
    label = "demo"
    verbose_name = "Dados de demonstração"
