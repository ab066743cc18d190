"""Forms of the councils' screens, and the resolution select other apps' decision forms add."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q

from lotacao.core.dateinputs import DateInput
from lotacao.core.formats import lower_first

from . import gates
from .models import Attendance, Member, Resolution, Seat, Session

DATE = DateInput()


class ResolutionChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.citation} — {obj.subject}"


def add_resolution_field(form: forms.Form, code: str, gate_keys: tuple[str, ...]) -> None:
    """Add a `resolution` select of the jurisdiction's acts when its law has one of the gates;
    the help text says what the law submits to the council and where."""
    found = [g for g in (gates.gate(code, k) for k in gate_keys) if g is not None]
    if not found:
        return
    queryset = (
        Resolution.objects.filter(
            jurisdiction_id=code, council__key__in={g.council for g in found}, revoked_on__isnull=True
        )
        .filter(Q(gate__in=[g.key for g in found]) | Q(gate=""))
        .select_related("council")
        .order_by("-dated_on", "-number")
    )
    form.fields["resolution"] = ResolutionChoice(
        label="Resolução do conselho",
        queryset=queryset,
        required=False,
        empty_label="Nenhuma",
        help_text=" ".join(gates.explain(code, g.key) for g in found),
    )


def reason_field() -> forms.CharField:
    return forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 2}))


class SeatForm(forms.Form):
    number = forms.IntegerField(label="Número da cadeira", min_value=1)
    represents = forms.CharField(label="Representação", max_length=300)
    reason = reason_field()


class MemberForm(forms.Form):
    seat = forms.ModelChoiceField(label="Cadeira", queryset=Seat.objects.none(), empty_label=None)
    name = forms.CharField(label="Nome", max_length=200)
    role = forms.ChoiceField(label="Função", choices=Member.Role.choices)
    starts_on = forms.DateField(label="Início do mandato", widget=DATE)
    ends_on = forms.DateField(
        label="Fim do mandato",
        widget=DATE,
        required=False,
        help_text="Em branco, vale a duração que a lei fixa (quando fixa).",
    )
    appointed_by = forms.CharField(label="Ato de nomeação", max_length=300, required=False)
    reason = reason_field()

    def __init__(self, *args: Any, seats: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["seat"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = seats


class SessionForm(forms.Form):
    held_on = forms.DateField(label="Data", widget=DATE)
    kind = forms.ChoiceField(label="Tipo", choices=Session.Kind.choices)
    agenda = forms.CharField(label="Pauta", widget=forms.Textarea(attrs={"rows": 3}))
    reason = reason_field()


class AttendanceForm(forms.Form):
    reason = reason_field()

    def __init__(self, *args: Any, members: list[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.members = members
        for m in members:
            self.fields[f"status_{m.pk}"] = forms.ChoiceField(
                label=f"{m.name} ({lower_first(m.get_role_display())}, cadeira {m.seat.number})",
                choices=Attendance.Status.choices,
                initial=Attendance.Status.PRESENT,
            )
            self.fields[f"justification_{m.pk}"] = forms.CharField(
                label=f"Justificativa da falta de {m.name}", max_length=500, required=False
            )

    def entries(self) -> dict[int, tuple[str, str]]:
        data = self.cleaned_data
        return {m.pk: (data[f"status_{m.pk}"], data.get(f"justification_{m.pk}") or "") for m in self.members}


class ResolutionForm(forms.Form):
    kind = forms.ChoiceField(label="Tipo", choices=Resolution.Kind.choices)
    number = forms.IntegerField(label="Número", min_value=1)
    dated_on = forms.DateField(label="Data", widget=DATE)
    subject = forms.CharField(label="Assunto", max_length=300)
    text = forms.CharField(label="Texto", widget=forms.Textarea(attrs={"rows": 5}))
    session = forms.ModelChoiceField(
        label="Sessão que votou", queryset=Session.objects.none(), required=False, empty_label="Nenhuma"
    )
    gate = forms.ChoiceField(label="Matéria que a lei submete ao colegiado", required=False)
    favorable = forms.BooleanField(
        label="Favorável (aprova o que foi submetido)", required=False, initial=True
    )
    reason = reason_field()

    def __init__(self, *args: Any, sessions: Any, gate_choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["session"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = sessions
        choice = self.fields["gate"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = [("", "Outra matéria"), *gate_choices]
