from django.apps import AppConfig


class RemindersConfig(AppConfig):
    name = "lotacao.reminders"
    label = "reminders"
    verbose_name = "Lembretes"
