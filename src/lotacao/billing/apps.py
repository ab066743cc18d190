from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "lotacao.billing"
    label = "billing"
    verbose_name = "Cobranças"
