"""The preferences page (`/lembretes/preferencias/`): every signed-in person (holder or staff)
chooses, per kind of message, e-mail and SMS, and the phone number SMS go to. The account's own
messages (password reset) always go by e-mail and are not listed."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views import View

from lotacao.accounts.models import User
from lotacao.outbox.models import Preference
from lotacao.reminders.forms import PreferencesForm, choosable
from lotacao.reminders.models import Contact


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)


def _initial(user: Any) -> dict[str, Any]:
    saved = {p.event: p for p in Preference.objects.filter(user=user)}
    initial: dict[str, Any] = {
        "phone": Contact.objects.filter(user=user).values_list("phone", flat=True).first()
    }
    for value, _label in choosable():
        choice = saved.get(value)
        initial[f"{value}_email"] = choice.email if choice else True
        initial[f"{value}_sms"] = choice.sms if choice else False
    return initial


class PreferencesView(LoginRequiredMixin, View):
    template_name = "reminders/preferences.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        form = PreferencesForm(initial=_initial(request.user))
        return render(request, self.template_name, {"form": form, "email": _user(request).email})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = PreferencesForm(request.POST)
        if not form.is_valid():
            return render(
                request, self.template_name, {"form": form, "email": _user(request).email}, status=400
            )
        data = form.cleaned_data
        with transaction.atomic():
            for value, _label in choosable():
                Preference.objects.update_or_create(
                    user=_user(request),
                    event=value,
                    defaults={"email": bool(data[f"{value}_email"]), "sms": bool(data[f"{value}_sms"])},
                )
            Contact.objects.update_or_create(user=_user(request), defaults={"phone": data["phone"]})
        messages.success(request, "Preferências de aviso salvas.")
        return redirect("reminders:preferences")
