"""Enforcement screens: the inspector's phone-sized notice form (plate check, catalogue search,
required fields checked by the service, idempotent submit) and the notice's page."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views import View

from lotacao.audit.views_base import ScopedDetailView, ScopedListView
from lotacao.core.idempotency import run_once
from lotacao.core.models import Jurisdiction
from lotacao.enforcement import permissions
from lotacao.enforcement.due_process.stage import stage_context
from lotacao.enforcement.models import InfractionNotice
from lotacao.enforcement.notices import intake, selectors, services, states
from lotacao.enforcement.notices.forms import NoticeForm
from lotacao.enforcement.reading import base_fine_words, charge_words, describe_penalty
from lotacao.enforcement.templatetags.enforcement_measures import measure_label

FORM_ENDPOINT = "infraction-notices.form"


class NoticeCreate(LoginRequiredMixin, View):
    def _jurisdiction(self, request: HttpRequest) -> str:
        codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.NOTICE_ROLES)
        if not codes:
            raise Http404("Sem perfil de fiscalização.")
        wanted = request.GET.get("jurisdicao") or request.POST.get("jurisdicao") or codes[0]
        if wanted not in codes:
            raise Http404("Jurisdição fora do seu perfil.")
        return wanted

    def _render(
        self, request: HttpRequest, code: str, form: NoticeForm, status: int = 200, preview: Any = None
    ) -> HttpResponse:
        plate = request.GET.get("placa", "") or (form.data.get("plate", "") if form.is_bound else "")
        codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.NOTICE_ROLES)
        context = {
            "title": "Novo auto de infração",
            "form": form,
            "jurisdiction": code,
            "jurisdictions": codes,
            "plate": plate,
            "check": intake.plate_check(plate, code),
            "catalogue": selectors.catalogue(code),
            "preview": preview,
        }
        return render(request, "enforcement/notices/notice_form.html", context, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        code = self._jurisdiction(request)
        initial = {"plate": request.GET.get("placa", "")}
        return self._render(request, code, NoticeForm(jurisdiction=code, initial=initial))

    def post(self, request: HttpRequest) -> HttpResponse:
        code = self._jurisdiction(request)
        form = NoticeForm(request.POST, jurisdiction=code)
        if not form.is_valid():
            return self._render(request, code, form, status=422)
        if "preview" in request.POST:
            return self._preview(request, code, form)
        data = form.cleaned_data
        payload = json.loads(json.dumps({"jurisdicao": code, **data}, cls=DjangoJSONEncoder))
        payload.pop("idempotency_key", None)
        jurisdiction = Jurisdiction.objects.get(code=code)
        status, body = run_once(
            user=request.user,
            key=data["idempotency_key"],
            endpoint=FORM_ENDPOINT,
            payload=payload,
            jurisdiction_id=code,
            work=lambda: self._work(request, jurisdiction, data),
        )
        result = json.loads(body)
        if status == 201:
            return HttpResponseRedirect(reverse("enforcement:notice", kwargs={"pk": result["id"]}))
        for message in result.get("detail", []):
            form.add_error(None, message)
        if status != 409:
            form.fresh_key()
        return self._render(request, code, form, status=status)

    def _preview(self, request: HttpRequest, code: str, form: NoticeForm) -> HttpResponse:
        """The penalty the law gives, shown before confirming; nothing is written."""
        jurisdiction = Jurisdiction.objects.get(code=code)
        try:
            notice = services.prepare_notice(
                **intake.fields_from_form(jurisdiction, request.user, form.cleaned_data)
            )
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
            return self._render(request, code, form, status=422)
        preview = {
            "penalty": describe_penalty(notice.penalty),
            "measures": [measure_label(m.get("type", "")) for m in notice.penalty.get("measures", [])],
            "explanation": notice.explanation,
            "citations": notice.citations,
            "charged_to_holder": notice.charged_to_holder,
            "base_fine": base_fine_words(notice.engine_result),
            "charges": charge_words(notice.engine_result),
            "missing_parameters": notice.missing_parameters,
        }
        return self._render(request, code, form, preview=preview)

    def _work(
        self, request: HttpRequest, jurisdiction: Jurisdiction, data: dict[str, Any]
    ) -> tuple[int, str]:
        try:
            fields = intake.fields_from_form(jurisdiction, request.user, data)
            notice = services.draw_up_notice(
                actor=request.user, reason="Auto de infração lavrado em campo", **fields
            )
        except ValidationError as error:
            return 422, json.dumps({"detail": error.messages}, ensure_ascii=False)
        return 201, json.dumps(selectors.notice_data(notice), cls=DjangoJSONEncoder, ensure_ascii=False)


class NoticeDetail(ScopedDetailView):
    model = InfractionNotice
    template_name = "enforcement/notices/notice_detail.html"
    fields = [
        ("Número", "number"),
        ("Situação", "status"),
        ("Data e hora", "drawn_up_at"),
        ("Local", "place"),
        ("Enquadramento", "infraction_code"),
        ("Grupo", "infraction_group"),
        ("Infrator", "offender_kind"),
        ("Permissionário", "holder"),
        ("Preposto", "agent"),
        ("Placa", "plate"),
        ("Nome do infrator (sem cadastro)", "offender_name"),
        ("Agente fiscal", "inspector"),
        ("Cobrado do permissionário", "charged_to_holder"),
        ("Descrição", "description"),
    ]

    def extra_context(self, obj: Any) -> dict[str, Any]:
        access = getattr(self.request, "access", None)
        is_holder = permissions.is_own_holder(access, obj)
        context = {
            "penalty_text": describe_penalty(obj.penalty),
            "base_fine_text": base_fine_words(obj.engine_result),
            "charges": charge_words(obj.engine_result),
            "filings": obj.filings.all(),
            "decisions": obj.decisions.select_related("body"),
            "is_holder": is_holder,
            "can_file": is_holder
            or permissions.allowed(access, obj.jurisdiction_id, permissions.FILING_ROLES),
            "can_apply": permissions.allowed(access, obj.jurisdiction_id, permissions.JUDGING_ROLES),
            # the buttons of the notice's states table this user may use now (notify, archive…)
            "actions": {action.name: action for action in states.offered(obj, access)},
        }
        context.update(stage_context(obj))
        return context


class NoticeList(ScopedListView):
    """Notices of the user's scope (a permit holder: only their own, agents' included)."""

    model = InfractionNotice
    title = "Autos de infração"
    columns = [
        ("Número", "number"),
        ("Data e hora", "drawn_up_at"),
        ("Placa", "plate"),
        ("Enquadramento", "infraction_code"),
        ("Penalidade", "penalty_summary"),
        ("Situação", "status"),
    ]
    search_fields = ["number__icontains", "plate__icontains"]
    search_help = "Número do auto ou placa"
    detail_url_name = "enforcement:notice"
    create_url_name = "enforcement:notice_create"
    create_label = "Novo auto de infração"
    create_roles = permissions.NOTICE_ROLES
