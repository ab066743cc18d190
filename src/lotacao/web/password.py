"""Password reset by e-mail ("Esqueci minha senha"), sent through the outbox.

Django's views and token (it expires after PASSWORD_RESET_TIMEOUT and once the password changes);
the form answers the same whether or not the address has an account (no enumeration), and the
e-mail goes out as an outbox message, so a mail server's outage delays it instead of losing it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.urls import path, reverse, reverse_lazy

from lotacao.outbox import services as outbox
from lotacao.outbox.models import Event


class ResetRequestForm(auth_forms.PasswordResetForm):
    email = forms.EmailField(
        label="E-mail cadastrado",
        max_length=254,
        error_messages={"required": "Informe o e-mail.", "invalid": "Informe um e-mail válido."},
    )

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        link = reverse("password:confirm", kwargs={"uidb64": context["uid"], "token": context["token"]})
        user = context["user"]
        fingerprint = hashlib.sha256(context["token"].encode()).hexdigest()[:20]
        outbox.enqueue(
            event=Event.ACCOUNT,
            template="outbox/password_reset",
            user=user,
            email=to_email,
            dedup_key=f"senha:{user.pk}:{fingerprint}",
            context={
                "name": str(user),
                "username": user.get_username(),
                "link": f"{context['protocol']}://{context['domain']}{link}",
                "hours": max(1, int(context.get("timeout_hours", 2))),
            },
        )


class ResetConfirmForm(auth_forms.SetPasswordForm):  # type: ignore[type-arg]
    error_messages = {"password_mismatch": "As duas senhas não são iguais."}


class ResetView(auth_views.PasswordResetView):
    form_class = ResetRequestForm
    template_name = "web/password/request.html"
    success_url = reverse_lazy("password:sent")

    def form_valid(self, form: Any) -> Any:
        self.extra_email_context = {"timeout_hours": max(1, int(settings.PASSWORD_RESET_TIMEOUT) // 3600)}
        return super().form_valid(form)


app_name = "password"
urlpatterns = [
    path("", ResetView.as_view(), name="reset"),
    path(
        "enviado/",
        auth_views.PasswordResetDoneView.as_view(template_name="web/password/sent.html"),
        name="sent",
    ),
    path(
        "nova/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="web/password/confirm.html",
            form_class=ResetConfirmForm,
            success_url=reverse_lazy("password:done"),
        ),
        name="confirm",
    ),
    path(
        "alterada/",
        auth_views.PasswordResetCompleteView.as_view(template_name="web/password/done.html"),
        name="done",
    ),
]
