from django.apps import AppConfig


class OmbudsmanConfig(AppConfig):
    name = "lotacao.ombudsman"
    label = "ombudsman"
    verbose_name = "Ouvidoria"

    def ready(self) -> None:
        from lotacao.core import providers
        from lotacao.ombudsman import queue

        providers.provide("work_items", "ombudsman", queue.items)
