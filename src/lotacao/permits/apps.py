from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "lotacao.permits"
    label = "permits"
    verbose_name = "Permissões"
