from django.apps import AppConfig


class TendersConfig(AppConfig):
    name = "lotacao.tenders"
    label = "tenders"
    verbose_name = "Editais e seleção"
