from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "lotacao.web"
    label = "web"
    verbose_name = "Interface"
