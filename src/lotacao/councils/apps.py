from django.apps import AppConfig


class CouncilsConfig(AppConfig):
    name = "lotacao.councils"
    label = "councils"
    verbose_name = "Conselhos e comissões"

    def ready(self) -> None:
        from lotacao.core import providers

        from . import gates

        providers.provide("council_gate", "councils", gates.require_by_id)
        providers.provide("council_gate_choices", "councils", gates.resolution_choices)
