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
from django.core.cache import cache
from django.urls import path, reverse, reverse_lazy

from lotacao.outbox import services as outbox
from lotacao.outbox.models import Event


def _counted(kind: str, value: str) -> bool:
    """Count one request for this address or account in the window; False once over the limit.

    The cache keeps the counters (Redis or the database in production): `add` opens the window,
    `incr` counts atomically across processes.
    """
    window = max(1, int(settings.LOTACAO_PASSWORD_RESET_WINDOW_MINUTES)) * 60
    key = "senha:" + kind + ":" + hashlib.sha256(value.encode()).hexdigest()[:32]
    if cache.add(key, 1, timeout=window):
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window)
        return True
    return int(count) <= int(settings.LOTACAO_PASSWORD_RESET_LIMIT)


class ResetRequestForm(auth_forms.PasswordResetForm):
    """Throttled per address typed (a form error, the same whether or not an account has it: no
    enumeration) and per account (silently: the page still says "sent", so a limit reached on an
    account never tells that the account exists)."""

    email = forms.EmailField(
        label="E-mail cadastrado",
        max_length=254,
        error_messages={"required": "Informe o e-mail.", "invalid": "Informe um e-mail válido."},
    )

    def clean_email(self) -> str:
        address = str(self.cleaned_data["email"]).strip()
        if not _counted("endereco", address):
            minutes = int(settings.LOTACAO_PASSWORD_RESET_WINDOW_MINUTES)
            raise forms.ValidationError(
                "Já recebemos vários pedidos para este e-mail. Por segurança, espere "
                f"{minutes} minutos antes de pedir de novo e confira a sua caixa de entrada e o lixo "
                "eletrônico."
            )
        return address

    def get_users(self, email: str) -> Any:
        for user in super().get_users(email):
            if _counted("conta", str(user.pk)):
                yield user

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
