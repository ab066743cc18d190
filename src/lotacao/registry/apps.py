from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "lotacao.registry"
    label = "registry"
    verbose_name = "Cadastro"
