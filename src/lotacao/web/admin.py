"""The operator's admin for the jurisdictions (core has no admin of its own: it sits below audit)."""

from django.contrib import admin

from lotacao.audit.admin_base import AuditedAdmin
from lotacao.core.models import Jurisdiction


@admin.register(Jurisdiction)
class JurisdictionAdmin(AuditedAdmin):
    list_display = ["code", "name", "state", "timezone", "active"]
