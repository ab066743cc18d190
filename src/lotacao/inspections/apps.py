from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "lotacao.inspections"
    label = "inspections"
    verbose_name = "Vistorias"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.core import providers
        from lotacao.inspections import queue, selectors

        providers.provide("public_vehicle_info", "inspections", selectors.public_vehicle_info)
        providers.provide("public_vehicle_info_many", "inspections", selectors.public_vehicle_info_many)
        providers.provide("work_items", "inspections", queue.items)
