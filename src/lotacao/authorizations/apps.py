from django.apps import AppConfig


class AuthorizationsConfig(AppConfig):
    name = "lotacao.authorizations"
    label = "authorizations"
    verbose_name = "Autorizações de táxi, escolar e fretado"
