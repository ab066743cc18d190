from django.contrib import admin

from lotacao.audit.admin_base import ReadOnlyAdmin
from lotacao.outbox.models import Message, Preference


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = [
        "subject",
        "channel",
        "address",
        "status",
        "attempts",
        "next_attempt_at",
        "sent_at",
        "last_error",
    ]
    list_filter = ["status", "channel", "event"]
    search_fields = ["address", "subject"]
    date_hierarchy = "created_at"
    exclude = ["body", "html"]  # a reset link must not be read from the admin


@admin.register(Preference)
class PreferenceAdmin(ReadOnlyAdmin):
    list_display = ["user", "event", "email", "sms"]
    list_filter = ["event"]
