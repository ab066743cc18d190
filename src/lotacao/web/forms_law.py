from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError


def parse_value(kind: str, text: str) -> Any:
    """What a manager typed, as the pack parameter's type wants it (Portuguese errors)."""
    raw = (text or "").strip()
    if not raw:
        raise ValidationError("Informe o valor.")
    if kind in ("money", "decimal"):
        number = raw.replace("R$", "").replace(" ", "")
        if "," in number:
            number = number.replace(".", "").replace(",", ".")
        try:
            return str(Decimal(number))
        except InvalidOperation as error:
            raise ValidationError(f"“{raw}” não é um número (use 1.234,56 ou 1234.56).") from error
    if kind == "integer":
        try:
            return int(raw)
        except ValueError as error:
            raise ValidationError(f"“{raw}” não é um número inteiro.") from error
    if kind == "boolean":
        lowered = raw.lower()
        if lowered in {"sim", "true", "verdadeiro", "1"}:
            return True
        if lowered in {"não", "nao", "false", "falso", "0"}:
            return False
        raise ValidationError("Responda sim ou não.")
    if kind == "string":
        return raw
    try:  # duration, list, mapping: JSON, e.g. {"days": 30} or ["07-16"]
        return json.loads(raw)
    except ValueError as error:
        raise ValidationError(
            'Escreva o valor em JSON, por exemplo {"days": 30}, ["07-16", "2025-12-08"] ou {"A": 1}.'
        ) from error


class AgencyValueForm(forms.Form):
    parameter = forms.ChoiceField(label="Parâmetro")
    valid_from = forms.DateField(
        label="Em vigor desde", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    value = forms.CharField(label="Valor", widget=forms.Textarea(attrs={"rows": 3}))
    cite = forms.CharField(
        label="Ato que fixou o valor", max_length=300, help_text="Ex.: Portaria nº 12/2025, art. 3º"
    )
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, parameters: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["parameter"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = parameters


class AnnulForm(forms.Form):
    reason = forms.CharField(label="Motivo da anulação", widget=forms.Textarea(attrs={"rows": 2}))


class ReadjustmentForm(forms.Form):
    """A fare readjustment that corrects the fine base (Recife art. 36, § 1º; art. 45, parágrafo
    único): the day it took effect, its percentage and the act that fixed it — typed, not JSON."""

    prefix = "reajuste"  # beside the generic form on the same page

    valid_from = forms.DateField(
        label="Data em que o reajuste passou a valer",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    percent = forms.CharField(
        label="Percentual do reajuste (%)",
        max_length=12,
        help_text="Ex.: 8 ou 7,35 (negativo para uma redução).",
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    cite = forms.CharField(
        label="Ato que fixou o reajuste", max_length=300, help_text="Ex.: Decreto nº 100/2026"
    )
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 2}))

    def clean_percent(self) -> str:
        raw = (self.cleaned_data.get("percent") or "").strip().replace("%", "").replace(" ", "")
        number = raw.replace(".", "").replace(",", ".") if "," in raw else raw
        try:
            value = Decimal(number)
        except InvalidOperation as error:
            raise ValidationError(f"“{raw}” não é um percentual (use 8 ou 7,35).") from error
        if not value.is_finite() or value <= -100 or value > 100:
            raise ValidationError("O percentual deve ser maior que -100% e no máximo 100%.")
        return str(value)
