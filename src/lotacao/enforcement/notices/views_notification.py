"""Recording how a notice was notified (by hand, by post with AR, by edital): the clerk's form on
the notice, the date it counts as served comes from the law (`notification.record_notification`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone

from lotacao.core.dateinputs import DateField, DateInput
from lotacao.enforcement import permissions
from lotacao.enforcement.models import InfractionNotice, NoticeService
from lotacao.enforcement.notices.notification import record_notification
from lotacao.enforcement.views_base import ObjectView

DATE = DateInput()


class NotificationForm(forms.Form):
    method = forms.ChoiceField(label="Meio", choices=NoticeService.Method.choices)
    sent_on = DateField(label="Enviada em", required=False, widget=DATE)
    received_on = DateField(
        label="Recebida em (ciência, data do AR ou da devolução)", required=False, widget=DATE
    )
    published_on = DateField(label="Edital publicado em", required=False, widget=DATE)
    returned = forms.BooleanField(label="Correspondência devolvida", required=False)
    returned_reason = forms.ChoiceField(
        label="Motivo da devolução", required=False, choices=[("", "—"), *NoticeService.ReturnReason.choices]
    )
    returned_note = forms.CharField(label="Observação da devolução", required=False)
    address = forms.CharField(
        label="Endereço usado",
        required=False,
        max_length=400,
        help_text="Em branco: o do cadastro (prepostos: o do permissionário, onde a lei manda).",
    )


class NotificationCreate(ObjectView):
    model = InfractionNotice

    def _render(
        self, request: HttpRequest, notice: InfractionNotice, form: Any, status: int = 200
    ) -> HttpResponse:
        context = {"title": f"Registrar notificação — auto {notice.number}", "notice": notice, "form": form}
        return render(request, "enforcement/notices/notification_form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        permissions.require(request, notice.jurisdiction_id, permissions.FILING_ROLES)
        return self._render(request, notice, NotificationForm(initial={"received_on": timezone.localdate()}))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        permissions.require(request, notice.jurisdiction_id, permissions.FILING_ROLES)
        form = NotificationForm(request.POST)
        if form.is_valid():
            try:
                service = record_notification(actor=request.user, notice=notice, **form.cleaned_data)
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                notice.refresh_from_db()
                if service.served_on is None and service.returned:
                    text = f"Tentativa frustrada registrada. {service.explanation}"
                elif service.served_on is None:
                    text = f"Envio registrado em {service.sent_on:%d/%m/%Y}: aguardando o AR."
                else:
                    text = f"Notificação registrada: considerada feita em {service.served_on:%d/%m/%Y}."
                if notice.status == InfractionNotice.Status.ARCHIVED:
                    text += f" {notice.archive_reason}"
                messages.success(request, text)
                return HttpResponseRedirect(notice.get_absolute_url())
        return self._render(request, notice, form, status=422)


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 3}))


class NoticeManagerDecision(ObjectView):
    """A manager archives a notice, or decides to go on with one notified after the agency's
    deadline where the law leaves it to the agency (Esteio, Pernambuco)."""

    model = InfractionNotice
    action = ""
    title = ""

    def _render(
        self, request: HttpRequest, notice: InfractionNotice, form: Any, status: int = 200
    ) -> HttpResponse:
        context = {
            "title": f"{self.title} — auto {notice.number}",
            "notice": notice,
            "form": form,
            "can_decide": permissions.allowed(
                getattr(request, "access", None), notice.jurisdiction_id, permissions.MANAGER_ROLES
            ),
            "late": notice.services.filter(late=True, late_decision="").first(),
        }
        return render(request, "enforcement/notices/notice_decision_form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(pk), ReasonForm())

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        from lotacao.enforcement.notices.deadlines import archive_notice, keep_late_notice

        notice = self.get_object(pk)
        permissions.require(request, notice.jurisdiction_id, permissions.MANAGER_ROLES)
        form = ReasonForm(request.POST)
        if form.is_valid():
            try:
                if self.action == "archive":
                    archive_notice(actor=request.user, notice=notice, reason=form.cleaned_data["reason"])
                    text = "Auto arquivado."
                else:
                    keep_late_notice(actor=request.user, notice=notice, reason=form.cleaned_data["reason"])
                    text = "Decisão registrada: o auto segue."
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, text)
                return HttpResponseRedirect(notice.get_absolute_url())
        return self._render(request, notice, form, status=422)


class NoticeArchive(NoticeManagerDecision):
    action = "archive"
    title = "Arquivar auto"


class LateNoticeKeep(NoticeManagerDecision):
    action = "keep"
    title = "Prosseguir com auto notificado fora do prazo"
