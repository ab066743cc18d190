from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "lotacao.inspections"
    label = "inspections"
    verbose_name = "Vistorias"
