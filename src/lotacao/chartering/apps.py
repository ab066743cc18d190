from django.apps import AppConfig


class CharteringConfig(AppConfig):
    name = "lotacao.chartering"
    label = "chartering"
    verbose_name = "Fretamento"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.chartering import queue, selectors
        from lotacao.core import providers

        providers.provide("public_vehicle_info", "chartering", selectors.public_vehicle_info)
        providers.provide("work_items", "chartering", queue.items)
