"""Forms of the life of a line: change requests, the hearing, the decision, the end of a line and
temporary changes (Portuguese labels)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from lotacao.core.dateinputs import DateField, DateInput
from lotacao.councils.models import Resolution
from lotacao.lines.forms import _json_list, reason_field
from lotacao.lines.models import ChangeRequest, LineEnd, TemporaryChange
from lotacao.registry.models import Company, Holder, Line

DATE = DateInput()
STUDY_HELP = "PDF, PNG ou JPEG, até 20 MB."


class RequestForm(forms.Form):
    kind = forms.ChoiceField(label="Pedido", choices=ChangeRequest.Kind.choices)
    origin = forms.ChoiceField(label="Quem pede", choices=ChangeRequest.Origin.choices)
    holder = forms.ModelChoiceField(
        label="Permissionário (se for ele quem pede)", queryset=Holder.objects.none(), required=False
    )
    requester_name = forms.CharField(label="Nome de quem pede (usuário)", max_length=200, required=False)
    requester_contact = forms.CharField(label="Contato (e-mail ou telefone)", max_length=200, required=False)
    proposal = forms.CharField(label="O que se pede", widget=forms.Textarea(attrs={"rows": 3}))
    reasons = forms.CharField(label="Motivos", widget=forms.Textarea(attrs={"rows": 3}))
    study = forms.CharField(
        label="Estudo de viabilidade (resumo ou referência)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    study_file = forms.FileField(label="Arquivo do estudo", required=False, help_text=STUDY_HELP)

    def __init__(self, *args: Any, holders: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["holder"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = holders


class PublicProposalForm(forms.Form):
    kind = forms.ChoiceField(
        label="O que você propõe",
        choices=[(k, v) for k, v in ChangeRequest.Kind.choices if k != ChangeRequest.Kind.CREATE],
    )
    proposal = forms.CharField(
        label="Sua proposta", max_length=3000, widget=forms.Textarea(attrs={"rows": 4})
    )
    reasons = forms.CharField(label="Por quê", max_length=3000, widget=forms.Textarea(attrs={"rows": 3}))
    requester_name = forms.CharField(label="Seu nome", max_length=200)
    requester_contact = forms.CharField(
        label="E-mail ou telefone para receber a resposta",
        max_length=200,
        help_text="Não aparece em nenhuma página pública.",
    )


class HearingForm(forms.Form):
    until = DateField(label="Prazo da oitiva (último dia para os operadores se manifestarem)", widget=DATE)
    reason = reason_field()


class AnswerForm(forms.Form):
    holder = forms.ModelChoiceField(label="Permissionário", queryset=Holder.objects.none(), required=False)
    entity = forms.ModelChoiceField(
        label="Entidade representativa dos permissionários", queryset=Company.objects.none(), required=False
    )
    party = forms.CharField(
        label="Quem se manifestou (se não estiver nas listas)", max_length=200, required=False
    )
    agrees = forms.TypedChoiceField(
        label="Posição", choices=[("1", "Concorda"), ("0", "Não concorda")], coerce=lambda v: v == "1"
    )
    text = forms.CharField(label="Manifestação", widget=forms.Textarea(attrs={"rows": 3}))
    answered_on = DateField(label="Data da manifestação", widget=DATE)

    def __init__(self, *args: Any, holders: Any, entities: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, queryset in (("holder", holders), ("entity", entities)):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = queryset

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not (data.get("holder") or data.get("entity") or (data.get("party") or "").strip()):
            raise ValidationError("Indique quem se manifestou.")
        return data


class StudyForm(forms.Form):
    study = forms.CharField(
        label="Estudo de viabilidade (resumo ou referência)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    file = forms.FileField(label="Arquivo do estudo", required=False, help_text=STUDY_HELP)
    reason = reason_field()


class StepForm(forms.Form):
    reason = reason_field()


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(label="Decisão", choices=[("approve", "Aprovar"), ("refuse", "Indeferir")])
    act = forms.CharField(label="Ato da decisão (número)", max_length=300)
    act_date = DateField(label="Data do ato", widget=DATE)
    effective_on = DateField(label="Em vigor a partir de (se aprovado)", widget=DATE, required=False)
    reasons = forms.CharField(label="Fundamentos da decisão", widget=forms.Textarea(attrs={"rows": 3}))
    resolution = forms.ModelChoiceField(
        label="Resolução do conselho", queryset=Resolution.objects.none(), required=False
    )

    def __init__(self, *args: Any, resolutions: Any, council: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["resolution"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = resolutions
        if council:
            field.help_text = council
        else:
            del self.fields["resolution"]


class EndForm(forms.Form):
    effective_on = DateField(label="Linha extinta a partir de", widget=DATE)
    act = forms.CharField(label="Ato de extinção (número)", max_length=300)
    act_date = DateField(label="Data do ato", widget=DATE)
    fate = forms.ChoiceField(
        label="Permissões da linha", choices=[("", "—"), *LineEnd.Fate.choices], required=False
    )
    target = forms.ModelChoiceField(
        label="Linha que recebe as permissões", queryset=Line.objects.none(), required=False
    )
    request = forms.ModelChoiceField(
        label="Pedido de extinção aprovado", queryset=ChangeRequest.objects.none(), required=False
    )
    resolution = forms.ModelChoiceField(
        label="Resolução do conselho", queryset=Resolution.objects.none(), required=False
    )
    reasons = forms.CharField(label="Motivos", widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(
        self,
        *args: Any,
        lines: Any,
        requests: Any,
        fate_help: str,
        resolutions: Any,
        council: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if council:
            self.fields["resolution"].help_text = council
        else:
            del self.fields["resolution"]
        for name, queryset in (("target", lines), ("request", requests), ("resolution", resolutions)):
            if name not in self.fields:
                continue
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = queryset
        self.fields["fate"].help_text = fate_help


class TemporaryForm(forms.Form):
    cause = forms.ChoiceField(label="Motivo", choices=TemporaryChange.Cause.choices)
    description = forms.CharField(label="Descrição", max_length=300)
    starts_on = DateField(label="De", widget=DATE)
    ends_on = DateField(label="Até", widget=DATE)
    suspended = forms.BooleanField(
        label="Linha suspensa no período (sem itinerário alternativo)", required=False
    )
    act = forms.CharField(label="Ato que autoriza", max_length=300)
    itinerary = forms.CharField(widget=forms.HiddenInput, required=False)
    stops = forms.CharField(widget=forms.HiddenInput, required=False)
    reason = reason_field()

    def clean_itinerary(self) -> list[Any]:
        return _json_list(self.cleaned_data.get("itinerary") or "[]", "Itinerário")

    def clean_stops(self) -> list[Any]:
        return _json_list(self.cleaned_data.get("stops") or "[]", "Pontos")
