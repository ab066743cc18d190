"""What the enforcement screens of every wing share: a signed-in view of one object read through
its scoped manager (a row outside the user's scope is a 404, like a row that does not exist), and
the law's refusals shown on a form. (The generic list and detail pages: `lotacao.audit.views_base`.)"""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.db import models
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.views import View


class ObjectView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]]
    related: ClassVar[tuple[str, ...]] = ()  # select_related of the object

    def get_object(self, pk: int) -> Any:
        manager = self.model._default_manager
        rows = manager.select_related(*self.related) if self.related else manager.all()
        return get_object_or_404(rows, pk=pk)


def access_of(request: HttpRequest) -> Any:
    """The signed-in user's roles and holder (set by `accounts.middleware`), or None."""
    return getattr(request, "access", None)


def show_refusal(form: forms.Form, error: ValidationError) -> None:
    """The law's refusal (Portuguese messages) on top of the form."""
    for message in error.messages:
        form.add_error(None, message)
