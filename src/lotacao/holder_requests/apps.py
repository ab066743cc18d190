from django.apps import AppConfig


class HolderRequestsConfig(AppConfig):
    name = "lotacao.holder_requests"
    label = "holder_requests"
    verbose_name = "Requerimentos"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.core import providers
        from lotacao.holder_requests import queue

        providers.provide("work_items", "holder_requests", queue.items)
