from django.contrib import admin

from lotacao.audit.admin_base import ReadOnlyAdmin
from lotacao.audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "actor_label", "get_action_display", "object_type", "object_id", "jurisdiction"]
    list_filter = ["jurisdiction", "action"]
    search_fields = ["object_id", "actor_label", "reason"]
