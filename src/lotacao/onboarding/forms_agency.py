"""The operator's form for an agency coming in: the same values as `manage.py setup_agency`."""

from __future__ import annotations

from typing import Any

from django import forms

from lotacao.onboarding.agency import FIELDS, packs


class AgencyForm(forms.Form):
    jurisdiction = forms.ChoiceField(
        label="Lei do órgão gestor (pacote)",
        error_messages={"invalid_choice": "Escolha uma das leis da lista.", "required": "Escolha a lei."},
    )
    manager = forms.CharField(label="Usuário do gestor", max_length=150)
    email = forms.CharField(label="E-mail do gestor", max_length=254)
    manager_name = forms.CharField(label="Nome completo do gestor", max_length=300)
    name = forms.CharField(
        label="Nome da jurisdição", max_length=120, required=False, help_text="Em branco: o da lei."
    )
    official_name = forms.CharField(
        label="Nome oficial do órgão gestor", max_length=200, required=False, help_text="Em branco: o da lei."
    )
    state = forms.CharField(label="UF", max_length=2, required=False, help_text="Em branco: a da lei.")
    timezone = forms.CharField(
        label="Fuso horário",
        max_length=64,
        required=False,
        help_text="Em branco: o da lei, como America/Recife.",
    )
    population = forms.IntegerField(label="População (IBGE)", min_value=1, required=False)
    address = forms.CharField(label="Endereço de atendimento", max_length=300, required=False)
    phone = forms.CharField(label="Telefone de atendimento", max_length=40, required=False)
    agency_email = forms.CharField(label="E-mail de atendimento", max_length=254, required=False)
    website = forms.CharField(label="Sítio do órgão", max_length=200, required=False)
    hours = forms.CharField(label="Horário de atendimento", max_length=120, required=False)
    ombudsman_phone = forms.CharField(label="Telefone da ouvidoria", max_length=40, required=False)
    ombudsman_email = forms.CharField(label="E-mail da ouvidoria", max_length=254, required=False)
    ombudsman_url = forms.CharField(label="Página da ouvidoria", max_length=200, required=False)
    reset_password = forms.BooleanField(
        label="Emitir nova senha provisória para um gestor que já existe", required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice = self.fields["jurisdiction"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = [("", "Escolha a lei"), *packs()]

    # form field -> the jurisdiction's field
    AGENCY = {**{name: name for name in FIELDS if name != "email"}, "agency_email": "email"}

    def agency_values(self) -> dict[str, Any]:
        """Only what was typed: a blank field keeps what exists (or takes the law's default)."""
        return {
            target: self.cleaned_data[source]
            for source, target in self.AGENCY.items()
            if self.cleaned_data.get(source) not in (None, "")
        }
