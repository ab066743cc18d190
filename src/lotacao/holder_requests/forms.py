"""Forms of online requests: one per procedure for the holder, the clerk's decision, a slot."""

from __future__ import annotations

from typing import Any

from django import forms

from lotacao.councils.forms import add_resolution_field
from lotacao.registry.forms import date_field
from lotacao.registry.models import Vehicle

STATEMENT = "Justificativa ou observações (opcional)"


class _Base(forms.Form):
    statement = forms.CharField(
        label=STATEMENT, max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


class ApplicationForm(_Base):
    confirm = forms.BooleanField(
        label=(
            "Declaro que as informações do meu cadastro são verdadeiras e peço a permissão que a lei admite."
        ),
        error_messages={"required": "Confirme a declaração para protocolar o pedido."},
    )


class RenewalForm(_Base):
    permit = forms.ChoiceField(label="Permissão a renovar")

    def __init__(self, *args: Any, permits: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["permit"].choices = permits  # type: ignore[attr-defined]


class DocumentForm(_Base):
    code = forms.ChoiceField(label="Documento")
    vehicle = forms.ChoiceField(label="Veículo (para documento do veículo)", required=False)
    file = forms.FileField(label="Arquivo (PDF, PNG ou JPEG)")
    issued_on = date_field("Emitido em")
    valid_until = date_field("Válido até (se o documento tiver validade)")

    def __init__(
        self, *args: Any, codes: list[tuple[str, str]], vehicles: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["code"].choices = codes  # type: ignore[attr-defined]
        self.fields["vehicle"].choices = [("", "—"), *vehicles]  # type: ignore[attr-defined]


class SubstitutionForm(_Base):
    vehicle = forms.ChoiceField(label="Veículo a substituir")
    plate = forms.CharField(label="Placa do veículo novo", max_length=8)
    category = forms.ChoiceField(label="Categoria do veículo novo", choices=Vehicle.Category.choices)
    manufacture_year = forms.IntegerField(label="Ano de fabricação", min_value=1950, max_value=2100)
    seats = forms.IntegerField(label="Lugares (com o motorista)", min_value=1, max_value=99)
    doors = forms.IntegerField(label="Portas", min_value=1, max_value=9)
    decharacterization_proof = forms.CharField(
        label="Comprovação da descaracterização do veículo substituído (quando a lei exige)",
        max_length=300,
        required=False,
    )

    def __init__(self, *args: Any, vehicles: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["vehicle"].choices = vehicles  # type: ignore[attr-defined]


class BookingForm(_Base):
    vehicle = forms.ChoiceField(label="Veículo")
    slot = forms.ChoiceField(label="Horário", widget=forms.RadioSelect)

    def __init__(
        self, *args: Any, vehicles: list[tuple[str, str]], slots: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["vehicle"].choices = vehicles  # type: ignore[attr-defined]
        self.fields["slot"].choices = slots  # type: ignore[attr-defined]


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label="Decisão", choices=[("deferir", "Deferir"), ("indeferir", "Indeferir")]
    )
    reasons = forms.CharField(
        label="Fundamentação", max_length=4000, widget=forms.Textarea(attrs={"rows": 4})
    )
    citation = forms.CharField(label="Fundamento legal (artigos)", max_length=500, required=False)
    approval_reference = forms.CharField(
        label="Ato de aprovação da renovação (quando a lei exige)", max_length=200, required=False
    )
    users_heard = forms.BooleanField(label="Os usuários foram ouvidos (quando a lei exige)", required=False)
    valid_until = date_field("Nova validade (quando a lei não a fixa) ou validade do documento")

    def __init__(self, *args: Any, code: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if code:  # the council's resolution, where the law submits the decision to one
            add_resolution_field(self, code, ("permit.renew", "fleet.change"))


class SlotForm(forms.Form):
    day = date_field("Data", required=True)
    time = forms.TimeField(
        label="Hora",
        widget=forms.TimeInput(attrs={"type": "time"}),
        error_messages={"required": "Informe a hora.", "invalid": "Informe a hora como 09:30."},
    )
    place = forms.CharField(label="Local", max_length=200)
    capacity = forms.IntegerField(label="Vagas", min_value=1, max_value=200)
