from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "lotacao.public"
    label = "public"
    verbose_name = "Consulta pública"

    def ready(self) -> None:
        from lotacao.public import readmodel

        readmodel.connect()
