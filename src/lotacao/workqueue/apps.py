from django.apps import AppConfig


class WorkqueueConfig(AppConfig):
    name = "lotacao.workqueue"
    label = "workqueue"
    verbose_name = "Fila de trabalho"
