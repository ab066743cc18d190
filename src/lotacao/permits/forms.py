"""Forms of the permit screens (Portuguese labels; every transition asks for its reason)."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from lotacao.core.dateinputs import DateField, DateInput
from lotacao.permits.models import PermitAgent
from lotacao.permits.services import TRANSFER_CAUSES
from lotacao.registry.models import Line

DATE = DateInput()


def _date(label: str, required: bool = True, help_text: str = "") -> forms.DateField:
    return DateField(label=label, required=required, widget=DATE, help_text=help_text)


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 3}), max_length=1000)


class ApplicationForm(ReasonForm):
    cpf = forms.CharField(label="CPF do requerente", max_length=14)
    kind = forms.ChoiceField(label="Espécie", choices=[("regular", "Regular"), ("provisional", "Provisória")])
    residence_since = _date("Reside no município desde", required=False)
    existing_operator = forms.BooleanField(label="Já opera o serviço com alvará", required=False)
    association_member = forms.BooleanField(label="Organizado em associação", required=False)
    service_months = forms.IntegerField(label="Tempo de serviço no sistema (meses)", min_value=0, initial=0)
    infraction_count = forms.IntegerField(label="Infrações cometidas no sistema", min_value=0, initial=0)
    other_service = forms.CharField(
        label="Outra permissão, autorização ou vínculo (declaração)", required=False, max_length=300
    )
    field_order = [
        "cpf",
        "kind",
        "residence_since",
        "existing_operator",
        "association_member",
        "service_months",
        "infraction_count",
        "other_service",
        "reason",
    ]

    def clean_cpf(self) -> str:
        return re.sub(r"\D", "", self.cleaned_data["cpf"])


class GrantForm(ReasonForm):
    line = forms.ModelChoiceField(label="Linha", queryset=Line.objects.none())
    plate = forms.CharField(label="Placa do veículo", max_length=8)
    number = forms.CharField(label="Número (em branco: automático)", required=False, max_length=30)
    valid_until = _date(
        "Válida até",
        required=False,
        help_text="Em branco: o prazo da lei. Obrigatório onde a lei não fixa o prazo ou na provisória.",
    )
    field_order = ["line", "plate", "number", "valid_until", "reason"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["line"].queryset = Line.objects.filter(active=True)  # type: ignore[attr-defined]

    def clean_plate(self) -> str:
        return re.sub(r"[\s\-]", "", self.cleaned_data["plate"]).upper()


class SuspendForm(ReasonForm):
    until = _date("Suspensa até")
    field_order = ["until", "reason"]


class WithdrawForm(ReasonForm):
    notice_on = _date("Comunicada em")
    ceases_on = _date("Cessação da operação em")
    field_order = ["notice_on", "ceases_on", "reason"]


class RenewForm(ReasonForm):
    requested_on = _date("Pedido feito em")
    approval_reference = forms.CharField(label="Ato de aprovação (quando a lei exige)", required=False)
    users_heard = forms.BooleanField(label="A avaliação ouviu os usuários", required=False)
    valid_until = _date("Nova validade (onde a lei não fixa o prazo)", required=False)
    field_order = ["requested_on", "approval_reference", "users_heard", "valid_until", "reason"]


class TransferForm(ReasonForm):
    cpf = forms.CharField(label="CPF do novo titular", max_length=14)
    cause = forms.ChoiceField(label="Causa", choices=list(TRANSFER_CAUSES.items()))
    consent_reference = forms.CharField(label="Ato de anuência do órgão gestor", max_length=200)
    event_on = _date("Data do falecimento ou da invalidez", required=False)
    field_order = ["cpf", "cause", "consent_reference", "event_on", "reason"]

    def clean_cpf(self) -> str:
        return re.sub(r"\D", "", self.cleaned_data["cpf"])


class AgentForm(ReasonForm):
    cpf = forms.CharField(label="CPF do preposto", max_length=14)
    role = forms.ChoiceField(label="Função", choices=PermitAgent.Role.choices)
    starts_on = _date("Desde")
    field_order = ["cpf", "role", "starts_on", "reason"]

    def clean_cpf(self) -> str:
        return re.sub(r"\D", "", self.cleaned_data["cpf"])


ACTION_FORMS: dict[str, type[forms.Form]] = {
    "suspend": SuspendForm,
    "reinstate": ReasonForm,
    "revoke": ReasonForm,
    "withdraw": WithdrawForm,
    "renew": RenewForm,
    "transfer": TransferForm,
    "agent": AgentForm,
}
