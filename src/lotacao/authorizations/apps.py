from django.apps import AppConfig


class AuthorizationsConfig(AppConfig):
    name = "lotacao.authorizations"
    label = "authorizations"
    verbose_name = "Autorizações de táxi, escolar e fretado"

    def ready(self) -> None:
        # Answer the plate checks' seams (lotacao.core.providers): a vehicle authorized for its kind.
        from lotacao.authorizations import selectors
        from lotacao.core import providers

        providers.provide("public_vehicle_info", "authorizations", selectors.public_vehicle_info)
        providers.provide("public_vehicle_info_many", "authorizations", selectors.public_vehicle_info_many)
