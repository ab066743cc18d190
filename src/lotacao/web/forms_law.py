from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError

from lotacao.core.dateinputs import DateField


class AnnulForm(forms.Form):
    reason = forms.CharField(label="Motivo da anulação", widget=forms.Textarea(attrs={"rows": 2}))


class ReadjustmentForm(forms.Form):
    """A fare readjustment that corrects the fine base (Recife art. 36, § 1º; art. 45, parágrafo
    único): the day it took effect, its percentage and the act that fixed it — typed, not JSON."""

    prefix = "reajuste"  # beside the generic form on the same page

    valid_from = DateField(
        label="Data em que o reajuste passou a valer",
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
