from django.apps import AppConfig


class RostersConfig(AppConfig):
    name = "lotacao.rosters"
    label = "rosters"
    verbose_name = "Escalas e jornadas"
