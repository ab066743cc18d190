from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "lotacao.billing"
    label = "billing"
    verbose_name = "Cobranças"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.billing import queue
        from lotacao.core import providers
        from lotacao.workqueue import models as workqueue_models

        providers.provide("work_items", "billing", queue.items)
        # The queue shows a kind by its label; billing's kinds are named here, beside their provider.
        workqueue_models.KIND_LABELS.update(queue.KIND_LABELS)
