from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "lotacao.audit"
    label = "audit"
    verbose_name = "Auditoria"
