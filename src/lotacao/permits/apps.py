from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "lotacao.permits"
    label = "permits"
    verbose_name = "Permissões"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.core import providers
        from lotacao.permits import queue, selectors

        providers.provide("public_vehicle_info", "permits", selectors.public_vehicle_info)
        providers.provide("public_vehicle_info_many", "permits", selectors.public_vehicle_info_many)
        providers.provide("work_items", "permits", queue.items)
        providers.provide("vehicle_permit", "permits", selectors.vehicle_permit)
        providers.provide("person_roles", "permits", selectors.person_roles)
