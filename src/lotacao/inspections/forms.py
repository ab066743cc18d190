"""Forms of the inspection screens: schedule, result (checklist from the pack), campaign, re-registration."""

from __future__ import annotations

from typing import Any

from django import forms

from lotacao.core.dateinputs import DateField, DateInput
from lotacao.inspections.models import Inspection, Reregistration
from lotacao.registry.models import Vehicle

DATE = DateInput()


class ScheduleForm(forms.Form):
    kind = forms.ChoiceField(label="Tipo de vistoria", choices=Inspection.Kind.choices)
    scheduled_for = DateField(label="Data marcada", widget=DATE)
    place = forms.CharField(label="Local", max_length=200, required=False)
    reason = forms.CharField(label="Motivo", initial="Agendamento de vistoria", max_length=300)


class ResultForm(forms.Form):
    """One checkbox per checklist item the law names; free-text faults always allowed."""

    performed_on = DateField(label="Data da vistoria", widget=DATE)
    performed_at = forms.TimeField(
        label="Hora", required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    faults = forms.CharField(
        label="Falhas constatadas (uma por linha)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    representation_due = DateField(
        label="Reapresentar o veículo até (se reprovado)", required=False, widget=DATE
    )
    notes = forms.CharField(label="Observações", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    reason = forms.CharField(label="Motivo", initial="Registro de vistoria", max_length=300)

    def __init__(self, *args: Any, checklist: list[dict[str, str]] | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.items = checklist or []
        for item in self.items:
            self.fields[f"item_{item['id']}"] = forms.BooleanField(
                label=item["label"], required=False, help_text=item["cite"]
            )
        order = [f"item_{item['id']}" for item in self.items]
        self.order_fields(["performed_on", "performed_at", *order])

    def checklist_answers(self) -> dict[str, bool]:
        return {item["id"]: bool(self.cleaned_data.get(f"item_{item['id']}")) for item in self.items}

    def fault_lines(self) -> list[str]:
        return [line.strip() for line in (self.cleaned_data.get("faults") or "").splitlines() if line.strip()]


class ConfirmForm(forms.Form):
    reason = forms.CharField(label="Motivo", max_length=300)


class CampaignForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    year = forms.IntegerField(label="Exercício", min_value=2000, max_value=2100)
    starts_on = DateField(label="Início", widget=DATE)
    ends_on = DateField(label="Fim", widget=DATE)
    notes = forms.CharField(label="Observações", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    reason = forms.CharField(label="Motivo", initial="Calendário de recadastramento", max_length=300)

    def __init__(self, *args: Any, jurisdictions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["jurisdiction"].choices = jurisdictions  # type: ignore[attr-defined]


class ReregistrationForm(forms.Form):
    vehicle = forms.ModelChoiceField(label="Veículo", queryset=Vehicle.objects.none())
    registered_on = DateField(label="Data do recadastramento", widget=DATE)
    exemption = forms.ChoiceField(
        label="Isenção da multa (fora do calendário)",
        choices=Reregistration.Exemption.choices,
        required=False,
    )
    exemption_filed_on = DateField(label="Ocorrido formalizado em", required=False, widget=DATE)
    exemption_reason = forms.CharField(
        label="Justificativa da isenção", required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    reason = forms.CharField(label="Motivo", initial="Recadastramento anual", max_length=300)

    def __init__(self, *args: Any, jurisdiction: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["vehicle"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Vehicle.objects.filter(jurisdiction_id=jurisdiction, deregistered_on__isnull=True)
