from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "lotacao.documents"
    label = "documents"
    verbose_name = "Documentos"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.core import providers
        from lotacao.documents import queue

        providers.provide("work_items", "documents", queue.items)
