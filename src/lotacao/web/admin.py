"""The operator's admin for the jurisdictions (core has no admin of its own: it sits below audit)."""

from django.contrib import admin

from lotacao.audit.admin_base import AuditedAdmin
from lotacao.core.models import Jurisdiction


@admin.register(Jurisdiction)
class JurisdictionAdmin(AuditedAdmin):
    list_display = ["code", "name", "state", "timezone", "active"]
    fieldsets = [
        (None, {"fields": ["code", "name", "official_name", "state", "timezone", "population", "active"]}),
        (
            "Atendimento e ouvidoria (rodapé das páginas e consulta pública)",
            {
                "fields": [
                    "address",
                    "phone",
                    "hours",
                    "email",
                    "website",
                    "ombudsman_phone",
                    "ombudsman_email",
                    "ombudsman_url",
                ]
            },
        ),
        (
            "Separação de funções (quem faz a primeira etapa não faz a segunda)",
            {"fields": ["separate_billing_steps", "separate_document_review"]},
        ),
        (
            "Autorizações de táxi, escolar e fretado (serviços que o órgão registra no sistema)",
            {
                "fields": [
                    "authorize_taxi_common",
                    "authorize_taxi_special",
                    "authorize_school",
                    "authorize_chartered",
                ]
            },
        ),
    ]
