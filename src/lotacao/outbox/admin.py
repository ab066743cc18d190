from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from lotacao.audit.admin_base import ReadOnlyAdmin
from lotacao.outbox.models import Message, Preference
from lotacao.outbox.services import requeue


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
    actions = ["send_again"]

    @admin.action(description="Pôr de novo na fila as mensagens que falharam")
    def send_again(self, request: HttpRequest, queryset: Any) -> None:
        count = requeue(actor=request.user, messages=list(queryset))
        self.message_user(
            request,
            "Nenhuma mensagem com falha entre as escolhidas."
            if not count
            else ("Uma mensagem voltou" if count == 1 else f"{count} mensagens voltaram") + " para a fila.",
            messages.SUCCESS if count else messages.WARNING,
        )


@admin.register(Preference)
class PreferenceAdmin(ReadOnlyAdmin):
    list_display = ["user", "event", "email", "sms"]
    list_filter = ["event"]
