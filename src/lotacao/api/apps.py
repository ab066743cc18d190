from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "lotacao.api"
    label = "api"
    verbose_name = "API"
