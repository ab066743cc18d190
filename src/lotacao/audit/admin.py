from django.contrib import admin

from lotacao.audit.models import AuditEvent
from lotacao.core.admin_base import ReadOnlyAdmin


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "actor_label", "action", "object_type", "object_id", "jurisdiction"]
    list_filter = ["jurisdiction", "action"]
    search_fields = ["object_id", "actor_label", "reason"]
