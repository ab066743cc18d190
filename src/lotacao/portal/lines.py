"""The holder's page about their lines (`/portal/linhas/`): the hearings open on a line where the
holder has a place (Esteio art. 26, parágrafo único: "apreciação prévia dos permissionários";
answered here as themselves), their own requests to change a line, and a form to file one. Only
the signed-in holder's rows; the request to answer comes in the form and is checked against the
hearings this holder may answer."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from lotacao.lines import life
from lotacao.lines.models import ChangeRequest, Place
from lotacao.registry.models import Holder, Line


class AnswerForm(forms.Form):
    request = forms.IntegerField(widget=forms.HiddenInput)
    agrees = forms.TypedChoiceField(
        label="Sua posição", choices=[("1", "Concordo"), ("0", "Não concordo")], coerce=lambda v: v == "1"
    )
    text = forms.CharField(label="Sua manifestação", widget=forms.Textarea(attrs={"rows": 3}))


class FileForm(forms.Form):
    line = forms.ModelChoiceField(label="Linha", queryset=Line.objects.none())
    kind = forms.ChoiceField(
        label="Pedido", choices=[c for c in ChangeRequest.Kind.choices if c[0] != ChangeRequest.Kind.CREATE]
    )
    proposal = forms.CharField(label="O que você pede", widget=forms.Textarea(attrs={"rows": 3}))
    reasons = forms.CharField(label="Motivos", widget=forms.Textarea(attrs={"rows": 3}))


def _lines(holder: Holder) -> Any:
    today = timezone.localdate()
    places = Place.unscoped.filter(permit__holder=holder, starts_on__lte=today).filter(
        Q(ends_on__isnull=True) | Q(ends_on__gte=today)
    )
    return Line.unscoped.filter(pk__in=places.values("line_id"), active=True).order_by("code")


def _hearings(holder: Holder, lines: Any) -> Any:
    return ChangeRequest.unscoped.filter(
        jurisdiction_id=holder.jurisdiction_id, status=ChangeRequest.Status.HEARING, line__in=lines
    ).order_by("hearing_until")


@login_required
def lines_page(request: HttpRequest) -> HttpResponse:
    access = request.access  # type: ignore[attr-defined]
    if not access.is_holder:
        return HttpResponseRedirect(reverse("web:home"))
    holder = Holder.objects.select_related("person", "company").get(pk=access.holder_id)
    lines = _lines(holder)
    hearings = _hearings(holder, lines)
    answer_form = AnswerForm(request.POST if request.POST.get("step") == "answer" else None)
    file_form = FileForm(request.POST if request.POST.get("step") == "file" else None)
    file_field = file_form.fields["line"]
    assert isinstance(file_field, forms.ModelChoiceField)
    file_field.queryset = lines
    status = 200
    if request.method == "POST":
        try:
            text = _post(request, holder, hearings, answer_form, file_form)
        except ValidationError as error:
            form = answer_form if request.POST.get("step") == "answer" else file_form
            for message in error.messages:
                form.add_error(None, message)
            status = 422
        else:
            if text:
                messages.success(request, text)
                return HttpResponseRedirect(reverse("portal:lines"))
            status = 422
    context = {
        "title": "Minhas linhas",
        "holder": holder,
        "lines": lines,
        "hearings": hearings,
        "answered": set(ChangeRequest.unscoped.filter(answers__holder=holder).values_list("pk", flat=True)),
        "mine": ChangeRequest.unscoped.filter(holder=holder).select_related("line").order_by("-filed_on"),
        "answer_form": answer_form,
        "file_form": file_form,
    }
    return render(request, "portal/lines.html", context, status=status)


def _post(request: HttpRequest, holder: Holder, hearings: Any, answer_form: Any, file_form: Any) -> str:
    step = request.POST.get("step")
    if step == "answer" and answer_form.is_valid():
        data = answer_form.cleaned_data
        found = hearings.filter(pk=data["request"]).first()
        if found is None:
            raise ValidationError("Este pedido não está em oitiva numa linha sua.")
        life.record_answer(
            actor=request.user,
            request=found,
            party=str(holder),
            agrees=data["agrees"],
            text=data["text"],
            holder=holder,
        )
        return "Sua manifestação foi registrada."
    if step == "file" and file_form.is_valid():
        data = file_form.cleaned_data
        req = life.file_request(
            actor=request.user,
            jurisdiction_code=holder.jurisdiction_id,
            kind=data["kind"],
            origin="holder",
            holder=holder,
            line=data["line"],
            proposal=data["proposal"],
            reasons=data["reasons"],
        )
        return f"Pedido nº {req.number} protocolado."
    return ""
