from django.apps import AppConfig


class RemindersConfig(AppConfig):
    name = "lotacao.reminders"
    label = "reminders"
    verbose_name = "Lembretes"

    def ready(self) -> None:
        from lotacao.core import providers
        from lotacao.reminders import services

        # The domains (requests, complaints) tell a holder of the day's events through this seam.
        providers.provide("notify_holder", "reminders", services.notify_holder)
