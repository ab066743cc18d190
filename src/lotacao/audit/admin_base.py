"""Admin for the installation's operator (superusers only): changes are audited too."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest

from lotacao.audit.services import record, snapshot


def _operator(request: HttpRequest) -> AbstractBaseUser | None:
    """The signed-in operator (the admin never serves anonymous users)."""
    user = request.user
    return user if isinstance(user, AbstractBaseUser) else None


class AuditedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        before = snapshot(type(obj)._base_manager.get(pk=obj.pk)) if change and obj.pk else None
        super().save_model(request, obj, form, change)
        record(
            actor=_operator(request),
            action=f"{obj._meta.model_name}.{'updated' if change else 'created'}",
            instance=obj,
            reason="Alteração pela administração do sistema",
            before=before,
            after=snapshot(obj),
        )

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        record(
            actor=_operator(request),
            action=f"{obj._meta.model_name}.deleted",
            instance=obj,
            reason="Exclusão pela administração do sistema",
            before=snapshot(obj),
        )
        super().delete_model(request, obj)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Legal records change only through the product's services, never by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
