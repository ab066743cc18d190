from django.apps import AppConfig


class CouncilsConfig(AppConfig):
    name = "lotacao.councils"
    label = "councils"
    verbose_name = "Conselhos e comissões"
