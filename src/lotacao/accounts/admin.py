from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from lotacao.accounts.models import HolderAccount, StaffMembership, User
from lotacao.audit.admin_base import AuditedAdmin


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = StaffMembership
    extra = 0


@admin.register(User)
class LotacaoUserAdmin(UserAdmin):  # type: ignore[type-arg]
    inlines = [MembershipInline]


@admin.register(StaffMembership)
class StaffMembershipAdmin(AuditedAdmin):
    list_display = ["user", "jurisdiction", "role", "active"]
    list_filter = ["jurisdiction", "role", "active"]


@admin.register(HolderAccount)
class HolderAccountAdmin(AuditedAdmin):
    list_display = ["user", "holder"]
