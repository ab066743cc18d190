from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "lotacao.training"
    label = "training"
    verbose_name = "Cursos e capacitação"
