"""Small helpers shared by the billing screens (thin views over the scoped managers)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import Form
from django.http import HttpRequest
from django.utils import timezone

from lotacao.billing import permissions
from lotacao.core.models import Jurisdiction


def access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def require(request: HttpRequest, jurisdiction: str, roles: tuple[str, ...], what: str) -> None:
    if not permissions.has(access(request), jurisdiction, roles):
        raise PermissionDenied(f"Seu perfil não permite {what}.")


def jurisdictions(request: HttpRequest, roles: tuple[str, ...]) -> list[tuple[str, str]]:
    """The jurisdictions where the user holds one of `roles` (all, for the operator)."""
    acc = access(request)
    rows = Jurisdiction.objects.filter(active=True).order_by("name")
    return [(j.code, j.name) for j in rows if permissions.has(acc, j.code, roles)]


def today() -> Any:
    return timezone.localdate()


def attempt(request: HttpRequest, form: Form, action: Any, success: str) -> Any:
    """Run a service; its Portuguese refusal becomes a form error (nothing changed)."""
    try:
        result = action()
    except ValidationError as error:
        for message in error.messages:
            form.add_error(None, message)
        return None
    messages.success(request, success)
    return result
