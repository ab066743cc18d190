from django.apps import AppConfig


class DutiesConfig(AppConfig):
    name = "lotacao.duties"
    label = "duties"
    verbose_name = "Deveres do operador"

    def ready(self) -> None:
        from lotacao.core import providers
        from lotacao.duties import selectors

        providers.provide("work_items", "duties", selectors.work_items)
