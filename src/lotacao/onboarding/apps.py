from django.apps import AppConfig


class OnboardingConfig(AppConfig):
    name = "lotacao.onboarding"
    label = "onboarding"
    verbose_name = "Implantação"
