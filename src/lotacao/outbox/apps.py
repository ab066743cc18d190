from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "lotacao.outbox"
    label = "outbox"
    verbose_name = "Mensagens (e-mail e SMS)"
