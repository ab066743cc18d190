from django.apps import AppConfig


class OmbudsmanConfig(AppConfig):
    name = "lotacao.ombudsman"
    label = "ombudsman"
    verbose_name = "Ouvidoria"
