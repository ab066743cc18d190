"""Forms of the vehicle screens (register, edit, replace, insurance); the law is checked by services."""

from __future__ import annotations

from typing import Any

from django import forms

from lotacao.core.dateinputs import DateField, DateInput
from lotacao.registry.models import Holder, Vehicle

DATE = DateInput()


class VehicleFieldsForm(forms.Form):
    plate = forms.CharField(label="Placa", max_length=8, help_text="Antiga (ABC-1234) ou Mercosul (ABC1D23).")
    renavam = forms.CharField(label="RENAVAM", max_length=11, required=False)
    chassis = forms.CharField(label="Chassi", max_length=17, required=False)
    make_model = forms.CharField(label="Marca/modelo", max_length=100, required=False)
    manufacture_year = forms.IntegerField(label="Ano de fabricação", min_value=1950)
    model_year = forms.IntegerField(label="Ano do modelo", min_value=1950, required=False)
    category = forms.ChoiceField(label="Categoria", choices=Vehicle.Category.choices)
    seats = forms.IntegerField(label="Lugares (com motorista e cobrador)", min_value=1)
    doors = forms.IntegerField(label="Portas", min_value=0)
    tenure = forms.ChoiceField(label="Posse", choices=Vehicle.Tenure.choices, initial=Vehicle.Tenure.OWNED)
    owner_name = forms.CharField(label="Proprietário no CRLV", max_length=200, required=False)
    owner_document = forms.CharField(label="CPF/CNPJ do proprietário", max_length=18, required=False)

    def vehicle_data(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data.pop("reason", None)
        data.pop("jurisdiction", None)
        data.pop("holder", None)
        data.pop("decharacterization_proof", None)
        data["owner_document"] = "".join(ch for ch in data.get("owner_document", "") if ch.isdigit())
        if data.get("model_year") is None:
            data.pop("model_year", None)
        return data


class VehicleCreateForm(VehicleFieldsForm):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    holder = forms.ModelChoiceField(label="Permissionário", queryset=Holder.objects.none(), required=False)
    reason = forms.CharField(label="Motivo do registro", initial="Cadastro de veículo", max_length=300)

    field_order = ["jurisdiction", "holder"]

    def __init__(self, *args: Any, jurisdictions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["jurisdiction"].choices = jurisdictions  # type: ignore[attr-defined]
        if len(jurisdictions) == 1:
            self.fields["jurisdiction"].initial = jurisdictions[0][0]
        holder_field = self.fields["holder"]
        assert isinstance(holder_field, forms.ModelChoiceField)
        holder_field.queryset = Holder.objects.select_related("person", "company")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        holder = data.get("holder")
        if holder is not None and holder.jurisdiction_id != data.get("jurisdiction"):
            self.add_error("holder", "O permissionário pertence a outra jurisdição.")
        return data


class VehicleEditForm(forms.Form):
    make_model = forms.CharField(label="Marca/modelo", max_length=100, required=False)
    renavam = forms.CharField(label="RENAVAM", max_length=11, required=False)
    chassis = forms.CharField(label="Chassi", max_length=17, required=False)
    manufacture_year = forms.IntegerField(label="Ano de fabricação", min_value=1950)
    model_year = forms.IntegerField(label="Ano do modelo", min_value=1950, required=False)
    category = forms.ChoiceField(label="Categoria", choices=Vehicle.Category.choices)
    seats = forms.IntegerField(label="Lugares (com motorista e cobrador)", min_value=1)
    doors = forms.IntegerField(label="Portas", min_value=0)
    tenure = forms.ChoiceField(label="Posse", choices=Vehicle.Tenure.choices)
    owner_name = forms.CharField(label="Proprietário no CRLV", max_length=200, required=False)
    owner_document = forms.CharField(label="CPF/CNPJ do proprietário", max_length=18, required=False)
    reason = forms.CharField(label="Motivo da alteração", max_length=300)

    FIELDS = (
        "make_model",
        "renavam",
        "chassis",
        "manufacture_year",
        "model_year",
        "category",
        "seats",
        "doors",
        "tenure",
        "owner_name",
        "owner_document",
    )

    @classmethod
    def initial_for(cls, vehicle: Vehicle) -> dict[str, Any]:
        return {name: getattr(vehicle, name) for name in cls.FIELDS}

    def changes(self) -> dict[str, Any]:
        data = {name: self.cleaned_data[name] for name in self.FIELDS}
        data["owner_document"] = "".join(ch for ch in data["owner_document"] or "" if ch.isdigit())
        return data


class VehicleReplaceForm(VehicleFieldsForm):
    decharacterization_proof = forms.CharField(
        label="Comprovação da descaracterização do veículo substituído",
        max_length=300,
        required=False,
        help_text="Ex.: baixa da placa de aluguel no DETRAN, protocolo nº …",
    )
    reason = forms.CharField(
        label="Motivo da substituição", initial="Substituição de veículo", max_length=300
    )


class InsuranceForm(forms.Form):
    insurer = forms.CharField(label="Seguradora", max_length=120)
    number = forms.CharField(label="Número da apólice", max_length=60)
    civil_liability = forms.DecimalField(
        label="Responsabilidade civil (R$)", max_digits=14, decimal_places=2, required=False
    )
    death_per_passenger = forms.DecimalField(
        label="Morte por passageiro (R$)", max_digits=14, decimal_places=2, required=False
    )
    disability_per_passenger = forms.DecimalField(
        label="Invalidez por passageiro (R$)", max_digits=14, decimal_places=2, required=False
    )
    third_party = forms.DecimalField(
        label="Danos a terceiros (R$)", max_digits=14, decimal_places=2, required=False
    )
    valid_from = DateField(label="Início da vigência", widget=DATE)
    valid_until = DateField(label="Fim da vigência", widget=DATE)
    reason = forms.CharField(label="Motivo do registro", initial="Registro de apólice", max_length=300)


class ProvisionalForm(forms.Form):
    """The provisional authorization of an over-age vehicle (Maricá art. 25, § 6º)."""

    tender_act = forms.CharField(label="Certame licitatório e ato da seleção", max_length=200)
    selected_on = DateField(label="Data da seleção no certame", widget=DATE)
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 3}))


class ProvisionalEndForm(forms.Form):
    reason = forms.CharField(
        label="Motivo (a substituição do veículo)", widget=forms.Textarea(attrs={"rows": 2})
    )

