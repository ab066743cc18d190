from django.apps import AppConfig


class HolderRequestsConfig(AppConfig):
    name = "lotacao.holder_requests"
    label = "holder_requests"
    verbose_name = "Requerimentos"
