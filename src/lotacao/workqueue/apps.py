from django.apps import AppConfig


class WorkqueueConfig(AppConfig):
    name = "lotacao.workqueue"
    label = "workqueue"
    verbose_name = "Fila de trabalho"

    def ready(self) -> None:
        from lotacao.core import providers
        from lotacao.workqueue import law_values

        providers.provide("work_items", "law_values", law_values.items)
