from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "lotacao.core"
    label = "core"
    verbose_name = "Jurisdições"
