from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "lotacao.documents"
    label = "documents"
    verbose_name = "Documentos"
