"""Screens of fares, readjustments and fare studies."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from lotacao.audit.services import history
from lotacao.billing import permissions
from lotacao.billing.fares import services, studies
from lotacao.billing.fares.models import FareAct, FareStudy, Readjustment
from lotacao.billing.forms import STUDY_FIELDS, FareForm, ReadjustmentForm, StudyForm
from lotacao.billing.viewkit import access, attempt, jurisdictions, require, today
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Line


def _lines(request: HttpRequest) -> list[tuple[str, str]]:
    codes = {c for c, _ in jurisdictions(request, permissions.MANAGER)}
    return [
        (str(line.pk), f"{line} ({line.jurisdiction_id})")
        for line in Line.objects.filter(jurisdiction_id__in=codes)
    ]


def _council(request: HttpRequest) -> tuple[str, list[tuple[str, str]]]:
    """What the laws of the user's agencies submit to a council about the fare, and the
    resolutions that may be cited (each labelled with its agency when there are several)."""
    places = jurisdictions(request, permissions.MANAGER)
    helps: list[str] = []
    choices: list[tuple[str, str]] = []
    for code, name in places:
        help_text, rows = services.fare_council(code, today())
        if help_text and help_text not in helps:
            helps.append(help_text)
        prefix = f"{name}: " if len(places) > 1 else ""
        choices += [(pk, f"{prefix}{label}") for pk, label in rows]
    return " ".join(helps), choices


def _studies(request: HttpRequest) -> list[tuple[str, str]]:
    return [(str(s.pk), str(s)) for s in FareStudy.objects.filter(status=FareStudy.Status.FROZEN)]


class FareList(LoginRequiredMixin, View):
    def render(self, request: HttpRequest, form: FareForm | None = None) -> HttpResponse:
        manager = bool(jurisdictions(request, permissions.MANAGER))
        return render(
            request,
            "billing/fares.html",
            {
                "title": "Tarifas e reajustes",
                "fares": FareAct.objects.select_related("line")[:300],
                "readjustments": Readjustment.objects.all()[:50],
                "form": form
                or (
                    FareForm(lines=_lines(request), studies=_studies(request), council=_council(request))
                    if manager
                    else None
                ),
            },
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request)

    def post(self, request: HttpRequest) -> HttpResponse:
        form = FareForm(
            request.POST, lines=_lines(request), studies=_studies(request), council=_council(request)
        )
        if form.is_valid():
            data = form.cleaned_data
            line = Line.objects.get(pk=int(data["line"]))
            require(request, line.jurisdiction_id, permissions.MANAGER, "fixar tarifas")
            study = FareStudy.objects.get(pk=int(data["study"])) if data["study"] else None
            fare = attempt(
                request,
                form,
                lambda: services.set_fare(
                    actor=request.user,
                    line=line,
                    valid_from=data["valid_from"],
                    amount=data["amount"],
                    reduced_amount=data["reduced_amount"],
                    act=data["act"],
                    council_opinion=data["council_opinion"],
                    resolution=data.get("resolution") or None,
                    study=study,
                    reason=data["reason"],
                ),
                "Tarifa registrada.",
            )
            if fare is not None:
                return redirect("billing:fare", fare.pk)
        return self.render(request, form)


class FareDetail(LoginRequiredMixin, View):
    model = FareAct

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        fare = get_object_or_404(FareAct.objects.select_related("line", "study"), pk=pk)
        return render(
            request, "billing/fare.html", {"title": str(fare), "fare": fare, "events": history(fare)[:20]}
        )


class ReadjustmentNew(LoginRequiredMixin, View):
    def render(self, request: HttpRequest, form: ReadjustmentForm | None = None) -> HttpResponse:
        places = jurisdictions(request, permissions.MANAGER)
        return render(
            request,
            "billing/form.html",
            {
                "title": "Registrar reajuste tarifário",
                "form": form or ReadjustmentForm(jurisdictions=places, council=_council(request)),
                "button": "Registrar reajuste",
                "help": "Onde a lei manda corrigir taxas e o valor base das multas pelo reajuste, os valores "
                "corrigidos passam a valer na mesma data.",
            },
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request)

    def post(self, request: HttpRequest) -> HttpResponse:
        form = ReadjustmentForm(
            request.POST, jurisdictions=jurisdictions(request, permissions.MANAGER), council=_council(request)
        )
        if form.is_valid():
            data = form.cleaned_data
            jurisdiction = Jurisdiction.objects.get(code=data["jurisdiction"])
            row = attempt(
                request,
                form,
                lambda: services.record_readjustment(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    valid_from=data["valid_from"],
                    percent=data["percent"],
                    act=data["act"],
                    council_opinion=data["council_opinion"],
                    resolution=data.get("resolution") or None,
                    reason=data["reason"],
                ),
                "Reajuste registrado.",
            )
            if row is not None:
                return redirect("billing:readjustment", row.pk)
        return self.render(request, form)


class ReadjustmentDetail(LoginRequiredMixin, View):
    model = Readjustment

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        row = get_object_or_404(Readjustment.objects.all(), pk=pk)
        return render(
            request, "billing/readjustment.html", {"title": str(row), "row": row, "events": history(row)[:20]}
        )


class StudyList(LoginRequiredMixin, View):
    def render(self, request: HttpRequest, form: StudyForm | None = None) -> HttpResponse:
        places = jurisdictions(request, permissions.MANAGER)
        return render(
            request,
            "billing/studies.html",
            {
                "title": "Estudos tarifários",
                "studies": FareStudy.objects.select_related("line")[:100],
                "form": form or (StudyForm(jurisdictions=places, lines=_lines(request)) if places else None),
            },
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request)

    def post(self, request: HttpRequest) -> HttpResponse:
        form = StudyForm(
            request.POST, jurisdictions=jurisdictions(request, permissions.MANAGER), lines=_lines(request)
        )
        if form.is_valid():
            data = form.cleaned_data
            jurisdiction = Jurisdiction.objects.get(code=data["jurisdiction"])
            line = Line.objects.get(pk=int(data["line"])) if data["line"] else None
            inputs: dict[str, Any] = {
                name: data[name] for name, _ in STUDY_FIELDS if data.get(name) is not None
            }
            study = attempt(
                request,
                form,
                lambda: studies.create_study(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    title=data["title"],
                    inputs=inputs,
                    reason=data["reason"],
                    on=today(),
                    line=line,
                    revision=data["revision"],
                    requested_by=data["requested_by"],
                    request_reference=data["request_reference"],
                ),
                "Estudo registrado.",
            )
            if study is not None:
                return redirect("billing:study", study.pk)
        return self.render(request, form)


class StudyDetail(LoginRequiredMixin, View):
    model = FareStudy

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        study = get_object_or_404(FareStudy.objects.select_related("line"), pk=pk)
        labels = dict(STUDY_FIELDS)
        return render(
            request,
            "billing/study.html",
            {
                "title": str(study),
                "study": study,
                "inputs": [(labels.get(k, k), v) for k, v in study.inputs.items()],
                "manager": permissions.has(access(request), study.jurisdiction_id, permissions.MANAGER),
                "events": history(study)[:20],
            },
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        study = get_object_or_404(FareStudy.objects.all(), pk=pk)
        require(request, study.jurisdiction_id, permissions.MANAGER, "concluir estudos tarifários")
        form = ReadjustmentForm(jurisdictions=[])
        attempt(
            request,
            form,
            lambda: studies.freeze_study(actor=request.user, study=study, reason="Estudo concluído"),
            "Estudo concluído: valores congelados.",
        )
        return redirect("billing:study", study.pk)
