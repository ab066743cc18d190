"""The preferences form: e-mail and SMS per kind of message, and the phone for SMS."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from lotacao.outbox.models import MANDATORY_EVENTS, Event


def choosable() -> list[tuple[str, str]]:
    return [(value, label) for value, label in Event.choices if value not in MANDATORY_EVENTS]


def normalize_phone(value: str) -> str:
    """A Brazilian mobile number as +55DDNNNNNNNNN; raises ValueError in Portuguese."""
    digits = re.sub(r"\D", "", value or "")
    if not digits:
        return ""
    if len(digits) in (12, 13) and digits.startswith("55"):
        digits = digits[2:]
    if len(digits) != 11 or digits[2] != "9" or digits[:2].startswith("0"):
        raise ValueError("Informe o celular com DDD, por exemplo (81) 98765-4321.")
    return f"+55{digits}"


class PreferencesForm(forms.Form):
    phone = forms.CharField(label="Celular para SMS (com DDD)", max_length=20, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for value, label in choosable():
            self.fields[f"{value}_email"] = forms.BooleanField(label=f"{label}: por e-mail", required=False)
            self.fields[f"{value}_sms"] = forms.BooleanField(label=f"{label}: por SMS", required=False)

    def clean_phone(self) -> str:
        try:
            return normalize_phone(self.cleaned_data.get("phone", ""))
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        wants_sms = any(data.get(f"{value}_sms") for value, _ in choosable())
        if wants_sms and not data.get("phone") and "phone" not in self.errors:
            self.add_error("phone", "Para receber SMS, informe o celular.")
        return data

    def rows(self) -> list[dict[str, Any]]:
        return [
            {"label": label, "email": self[f"{value}_email"], "sms": self[f"{value}_sms"]}
            for value, label in choosable()
        ]
