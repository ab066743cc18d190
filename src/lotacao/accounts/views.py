"""The signed-in user's own password change (and the forced one after a one-time password)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.http import HttpResponse
from django.urls import reverse_lazy

from lotacao.audit.services import record


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("web:home")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["forced"] = bool(getattr(self.request.user, "must_change_password", False))
        return context

    def form_valid(self, form: Any) -> HttpResponse:
        with transaction.atomic():
            user = form.user
            forced = bool(user.must_change_password)
            user.must_change_password = False
            response = super().form_valid(form)  # saves the new password, keeps the session
            user.save(update_fields=["must_change_password"])
            record(
                actor=user,
                action="account.password_changed",
                instance=user,
                reason="senha provisória trocada pelo próprio usuário"
                if forced
                else "senha trocada pelo próprio usuário",
            )
        messages.success(self.request, "Senha trocada.")
        return response
