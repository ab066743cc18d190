"""Measure screens: apply a measure on a notice, mark a release condition met, release, convert
it where the law says it turns into another (POST, staff fiscal/atendente/gestor of the
jurisdiction); a broken retirement commitment (the manager). GET shows the notice's measures section (the
holder reads it on their own notice); a refusal of the law shows it with the message (422)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.views import View

from lotacao.core.formats import lower_first
from lotacao.enforcement import permissions
from lotacao.enforcement.models import InfractionNotice, Measure
from lotacao.enforcement.sanctions import measure_steps, measures


def _date(raw: str, label: str) -> dt.date:
    try:
        return dt.date.fromisoformat((raw or "").strip())
    except ValueError as error:
        raise ValidationError(f"Informe a data {label} (dd/mm/aaaa).") from error


def _moment(raw: str, notice: InfractionNotice) -> dt.datetime:
    """A datetime-local field, read in the jurisdiction's time zone."""
    try:
        moment = dt.datetime.fromisoformat((raw or "").strip())
    except ValueError as error:
        raise ValidationError("Informe a data e a hora da medida.") from error
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(notice.jurisdiction.timezone or "America/Sao_Paulo"))
    return moment


def _days(raw: str) -> int | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ValidationError("Informe os dias da suspensão em número inteiro.")
    return int(raw)


def _page(request: HttpRequest, notice: InfractionNotice, status: int = 200) -> HttpResponse:
    context = {"object": notice, "title": f"Medidas administrativas — {notice}"}
    return render(request, "enforcement/sanctions/measure_page.html", context, status=status)


def _refused(request: HttpRequest, notice: InfractionNotice, error: ValidationError) -> HttpResponse:
    for message in error.messages:
        messages.error(request, message)
    return _page(request, notice, status=422)


def _done(request: HttpRequest, notice: InfractionNotice, text: str) -> HttpResponse:
    messages.success(request, text)
    return HttpResponseRedirect(notice.get_absolute_url() + "#medidas")


class MeasureApply(LoginRequiredMixin, View):
    model = InfractionNotice

    def get_object(self, pk: int) -> InfractionNotice:
        notice: InfractionNotice = get_object_or_404(
            InfractionNotice.objects.select_related("jurisdiction"), pk=pk
        )
        return notice

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return _page(request, self.get_object(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        permissions.require(request, notice.jurisdiction_id, permissions.NOTICE_ROLES)
        data = request.POST
        try:
            measure = measures.apply_measure(
                actor=request.user,
                notice=notice,
                kind=data.get("kind", ""),
                applied_at=_moment(data.get("applied_at", ""), notice),
                detail=data.get("detail", ""),
                days=_days(data.get("days", "")),
                reason=data.get("reason", ""),
            )
        except ValidationError as error:
            return _refused(request, notice, error)
        return _done(request, notice, f"{measure.get_kind_display()} registrada no auto.")


class MeasureAction(LoginRequiredMixin, View):
    model = Measure
    roles: tuple[str, ...] = permissions.NOTICE_ROLES

    def get_object(self, pk: int) -> Measure:
        measure: Measure = get_object_or_404(
            Measure.objects.select_related("notice", "notice__jurisdiction"), pk=pk
        )
        return measure

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return _page(request, self.get_object(pk).notice)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        measure = self.get_object(pk)
        permissions.require(request, measure.jurisdiction_id, self.roles)
        try:
            text = self.act(request, measure)
        except ValidationError as error:
            return _refused(request, measure.notice, error)
        return _done(request, measure.notice, text)

    def act(self, request: HttpRequest, measure: Measure) -> str:
        raise NotImplementedError


class MeasureCondition(MeasureAction):
    def act(self, request: HttpRequest, measure: Measure) -> str:
        data: Any = request.POST
        measures.meet_condition(
            actor=request.user,
            measure=measure,
            condition_id=data.get("condition_id", ""),
            met_on=_date(data.get("met_on", ""), "do cumprimento"),
            note=data.get("note", ""),
            reason=data.get("reason", ""),
        )
        return "Condição de liberação registrada."


class MeasureRelease(MeasureAction):
    def act(self, request: HttpRequest, measure: Measure) -> str:
        data: Any = request.POST
        measures.release_measure(
            actor=request.user,
            measure=measure,
            released_on=_date(data.get("released_on", ""), "da liberação"),
            note=data.get("note", ""),
            reason=data.get("reason", ""),
        )
        return f"{measure.get_kind_display()} liberada."


class MeasureConvert(MeasureAction):
    """Maricá art. 54, parágrafo único: the retention that cannot be fixed on the spot is a seizure."""

    def act(self, request: HttpRequest, measure: Measure) -> str:
        data: Any = request.POST
        new = measure_steps.convert_measure(
            actor=request.user,
            measure=measure,
            converted_at=_moment(data.get("converted_at", ""), measure.notice),
            detail=data.get("detail", ""),
            reason=data.get("reason", ""),
        )
        return f"{measure.get_kind_display()} convertida em {lower_first(new.get_kind_display())}."


class CommitmentBreach(MeasureAction):
    """Maricá art. 55, § 1º: the holder broke the term to retire the vehicle — a manager records it."""

    roles = permissions.MANAGER_ROLES

    def act(self, request: HttpRequest, measure: Measure) -> str:
        data: Any = request.POST
        process = measure_steps.record_commitment_breach(
            actor=request.user,
            measure=measure,
            found_on=_date(data.get("found_on", ""), "da constatação"),
            proof=data.get("proof", ""),
            reason=data.get("reason", ""),
        )
        return f"Descumprimento registrado: processo de cassação aberto em {process.opened_on:%d/%m/%Y}."
