"""Forms of the ombudsman: the manifestation (the public's and the clerk's) and the queue's steps."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone

from lotacao.core import dateinputs
from lotacao.ombudsman.models import DESCRIPTION_MAX, PLACE_MAX, Channel, Kind, Unit
from lotacao.ombudsman.services import ANSWER_MAX, MAX_PHOTOS


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class PhotosField(forms.FileField):
    widget = MultipleFileInput(attrs={"accept": "image/jpeg,image/png,image/webp", "capture": "environment"})

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        if not data:
            return []
        files = data if isinstance(data, list | tuple) else [data]
        if len(files) > MAX_PHOTOS:
            raise forms.ValidationError(f"Envie no máximo {MAX_PHOTOS} fotos.")
        return [super(PhotosField, self).clean(f, initial) for f in files]


class ComplaintForm(forms.Form):
    """Phone first: the kind and the story first; the subject and the identity are optional."""

    jurisdiction = forms.ChoiceField(label="Município ou órgão")
    kind = forms.ChoiceField(label="Tipo de manifestação", choices=Kind.choices, widget=forms.RadioSelect)
    description = forms.CharField(
        label="O que aconteceu",
        max_length=DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=f"Até {DESCRIPTION_MAX} caracteres.",
    )
    plate = forms.CharField(label="Placa do veículo (se souber)", max_length=10, required=False)
    line = forms.CharField(label="Linha (código, se souber)", max_length=20, required=False)
    occurred_at = dateinputs.DateTimeField(label="Data e hora do fato", required=False)
    place = forms.CharField(label="Local", max_length=PLACE_MAX, required=False)
    photos = PhotosField(label="Fotos (até 4)", required=False)
    name = forms.CharField(label="Seu nome (opcional)", max_length=200, required=False)
    email = forms.EmailField(
        label="Seu e-mail (opcional, para ser avisado da resposta)", max_length=200, required=False
    )
    phone = forms.CharField(label="Seu telefone (opcional)", max_length=30, required=False)

    def __init__(
        self, *args: Any, jurisdictions: list[tuple[str, str]], staff: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["jurisdiction"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = jurisdictions
        if staff:
            self.fields["channel"] = forms.ChoiceField(
                label="Canal",
                choices=[(Channel.PHONE, Channel.PHONE.label), (Channel.COUNTER, Channel.COUNTER.label)],
            )
            self.order_fields(["channel", "jurisdiction"])

    def clean_occurred_at(self) -> Any:
        value = self.cleaned_data.get("occurred_at")
        if value is not None and (value.year > timezone.now().year or value > timezone.now()):
            raise forms.ValidationError("A data e hora do fato está no futuro.")
        return value

    FILED: tuple[str, ...] = ("jurisdiction", "kind", "description", "plate", "line", "occurred_at")
    FILED += ("place", "name", "email", "phone", "photos")

    def filing(self) -> dict[str, Any]:
        """The cleaned fields as `services.file_complaint` takes them (web and staff intake alike)."""
        data = {key: self.cleaned_data[key] for key in self.FILED}
        if "channel" in self.cleaned_data:
            data["channel"] = self.cleaned_data["channel"]
        return data


class FollowForm(forms.Form):
    protocol = forms.CharField(label="Protocolo", max_length=20)
    code = forms.CharField(label="Código de acesso", max_length=20)


class NoteForm(forms.Form):
    note = forms.CharField(
        label="Observação", max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class ForwardForm(forms.Form):
    unit = forms.ChoiceField(label="Setor", choices=Unit.choices)
    note = forms.CharField(
        label="O que se pede ao setor", max_length=ANSWER_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )


class ExtendForm(forms.Form):
    note = forms.CharField(
        label="Motivo da prorrogação", max_length=ANSWER_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )


class AnswerForm(forms.Form):
    answer = forms.CharField(
        label="Resposta ao manifestante", max_length=ANSWER_MAX, widget=forms.Textarea(attrs={"rows": 5})
    )
    measures = forms.CharField(
        label="Providências adotadas",
        max_length=ANSWER_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class IdentityForm(forms.Form):
    reason = forms.CharField(label="Por que abre a identificação", max_length=500)


class InspectionForm(forms.Form):
    scheduled_for = dateinputs.DateField(label="Data da vistoria")
    place = forms.CharField(label="Local", max_length=200, required=False)
