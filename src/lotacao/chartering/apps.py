from django.apps import AppConfig


class CharteringConfig(AppConfig):
    name = "lotacao.chartering"
    label = "chartering"
    verbose_name = "Fretamento"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.chartering import fees, queue, selectors
        from lotacao.core import providers

        providers.provide("fee_vehicles", "chartering", fees.authorized_vehicles)
        providers.provide("vehicle_modalities", "chartering", selectors.vehicle_modalities)
        providers.provide("public_vehicle_info", "chartering", selectors.public_vehicle_info)
        providers.provide("public_vehicle_info_many", "chartering", selectors.public_vehicle_info_many)
        providers.provide("work_items", "chartering", queue.items)
