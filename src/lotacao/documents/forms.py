from __future__ import annotations

from typing import Any

from django import forms

from lotacao.registry.forms import date_field


class UploadForm(forms.Form):
    code = forms.ChoiceField(label="Documento")
    file = forms.FileField(label="Arquivo (PDF, PNG ou JPEG)")
    issued_on = date_field("Emitido em")
    valid_until = date_field("Válido até (se o documento tiver validade)")
    reason = forms.CharField(
        label="Motivo (fica no histórico)", max_length=300, initial="Entrega de documento"
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["code"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices


class ReviewForm(forms.Form):
    decision = forms.ChoiceField(label="Decisão", choices=[("aceitar", "Aceitar"), ("recusar", "Recusar")])
    reason = forms.CharField(label="Motivo (obrigatório na recusa)", max_length=500, required=False)
    valid_until = date_field("Válido até (corrigir, se preciso)")
