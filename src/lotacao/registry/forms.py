"""Forms of the people screens. They only parse input: the services validate the law and save."""

from __future__ import annotations

from typing import Any

from django import forms

from lotacao.core.dateinputs import DateField
from lotacao.registry.models import Company


def date_field(label: str, required: bool = False) -> DateField:
    return DateField(label=label, required=required)


class ReasonMixin(forms.Form):
    reason = forms.CharField(
        label="Motivo (fica no histórico)", max_length=300, initial="Atendimento no balcão"
    )


class PersonForm(ReasonMixin):
    cpf = forms.CharField(label="CPF", max_length=14)
    full_name = forms.CharField(label="Nome completo", max_length=200)
    birth_date = date_field("Data de nascimento")
    email = forms.EmailField(label="E-mail", required=False)
    phone = forms.CharField(label="Telefone", max_length=20, required=False)
    street = forms.CharField(label="Logradouro", max_length=200, required=False)
    number = forms.CharField(label="Número", max_length=20, required=False)
    complement = forms.CharField(label="Complemento", max_length=100, required=False)
    district = forms.CharField(label="Bairro", max_length=100, required=False)
    city = forms.CharField(label="Município", max_length=100, required=False)
    state = forms.CharField(label="UF", max_length=2, required=False)
    postal_code = forms.RegexField(
        label="CEP", regex=r"^\d{5}-?\d{3}$", required=False, error_messages={"invalid": "CEP com 8 dígitos."}
    )
    residence_since = date_field("Reside no município desde")
    cnh_number = forms.RegexField(
        label="Número da CNH",
        regex=r"^\d{9,11}$",
        required=False,
        error_messages={"invalid": "O número da CNH tem de 9 a 11 dígitos, sem pontos."},
    )
    cnh_category = forms.ChoiceField(
        label="Categoria da CNH",
        required=False,
        choices=[("", "—"), *[(c, c) for c in ("A", "B", "C", "D", "E", "AB", "AC", "AD", "AE")]],
    )
    cnh_expiry = date_field("Validade da CNH")

    def clean_postal_code(self) -> str:
        return str(self.cleaned_data.get("postal_code") or "").replace("-", "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        cnh = [data.get("cnh_number"), data.get("cnh_category"), data.get("cnh_expiry")]
        if any(cnh) and not all(cnh):
            raise forms.ValidationError("Informe número, categoria e validade da CNH (ou nenhum deles).")
        return data

    def person_fields(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data.pop("reason", None)
        return {k: ("" if v is None and k not in NULLABLE else v) for k, v in data.items()}


NULLABLE = {"birth_date", "residence_since", "cnh_expiry"}


class CompanyForm(ReasonMixin):
    kind = forms.ChoiceField(label="Natureza", choices=Company.Kind.choices)
    cnpj = forms.CharField(label="CNPJ", max_length=18)
    legal_name = forms.CharField(label="Razão social", max_length=200)
    trade_name = forms.CharField(label="Nome fantasia", max_length=200, required=False)
    email = forms.EmailField(label="E-mail", required=False)
    phone = forms.CharField(label="Telefone", max_length=20, required=False)
    city = forms.CharField(label="Município", max_length=100, required=False)
    state = forms.CharField(label="UF", max_length=2, required=False)


class RepresentativeForm(ReasonMixin):
    cpf = forms.CharField(label="CPF do representante", max_length=14)
    position = forms.ChoiceField(label="Função")
    organization_cnpj = forms.CharField(
        label="CNPJ da associação ou cooperativa", max_length=18, required=False
    )
    term_start = date_field("Início do mandato", required=True)

    def __init__(self, *args: Any, positions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["position"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = positions
