from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "lotacao.portal"
    label = "portal"
    verbose_name = "Portal do permissionário"
