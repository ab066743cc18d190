from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "lotacao.enforcement"
    label = "enforcement"
    verbose_name = "Fiscalização"
