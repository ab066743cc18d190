from django.apps import AppConfig


class LinesConfig(AppConfig):
    name = "lotacao.lines"
    label = "lines"
    verbose_name = "Linhas"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.core import providers
        from lotacao.lines import lifecycle, queue, selectors

        providers.provide("work_items", "lines", queue.items)
        providers.provide("permit_lifecycle", "lines", lifecycle.on_permit)
        providers.provide("vehicle_line", "lines", selectors.vehicle_place)
