from django.contrib import admin

from lotacao.govbr.models import GovbrLink


@admin.register(GovbrLink)
class GovbrLinkAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "level", "linked_at", "last_login_at")
    readonly_fields = ("level", "acr", "amr", "linked_at", "last_login_at")
    search_fields = ("user__username",)
