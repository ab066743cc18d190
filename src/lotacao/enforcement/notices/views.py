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

from lotacao.core.models import Jurisdiction
from lotacao.core.views_base import ScopedDetailView, ScopedListView
from lotacao.enforcement import permissions
from lotacao.enforcement.idempotency import run_once
from lotacao.enforcement.models import AGENT_KINDS, InfractionNotice, OffenderKind
from lotacao.enforcement.notices import selectors, services
from lotacao.enforcement.notices.forms import NoticeForm
from lotacao.enforcement.templatetags.enforcement_measures import measure_label
from lotacao.permits.models import Permit, PermitAgent
from lotacao.public.selectors import clean_plate, vehicle_status
from lotacao.registry.models import Vehicle

FORM_ENDPOINT = "infraction-notices.form"


def plate_check(plate: str, jurisdiction: str) -> dict[str, Any] | None:
    """The public status of the plate, plus the holder's name for staff (scoped manager)."""
    if not plate.strip():
        return None
    status = vehicle_status(plate)
    for record in status["records"]:
        vehicle = (
            Vehicle.objects.filter(plate=status["plate"], jurisdiction_id=record["jurisdiction"])
            .select_related("holder__person", "holder__company")
            .first()
        )
        holder = getattr(vehicle, "holder", None)
        record["holder_name"] = str(holder) if holder is not None else ""
    status["here"] = [r for r in status["records"] if r["jurisdiction"] == jurisdiction]
    return status


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
            "check": plate_check(plate, code),
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

    def _fields(
        self, request: HttpRequest, jurisdiction: Jurisdiction, data: dict[str, Any]
    ) -> dict[str, Any]:
        links = self._links(jurisdiction, data)
        return {
            "jurisdiction": jurisdiction,
            "inspector": request.user,
            "drawn_up_at": data["drawn_up_at"],
            "offender_kind": data["offender_kind"],
            "infraction_code": data.get("infraction_code") or "",
            "infraction_group": data.get("infraction_group") or "",
            "place": data.get("place") or "",
            "description": data.get("description") or "",
            "plate": links.pop("plate", ""),
            "offender_name": data.get("offender_name") or "",
            "offender_document": data.get("offender_document") or "",
            "evidence_image": data.get("evidence_image") or "",
            "evidence_latitude": data.get("evidence_latitude"),
            "evidence_longitude": data.get("evidence_longitude"),
            **links,
        }

    def _preview(self, request: HttpRequest, code: str, form: NoticeForm) -> HttpResponse:
        """The penalty the law gives, shown before confirming; nothing is written."""
        jurisdiction = Jurisdiction.objects.get(code=code)
        try:
            notice = services.prepare_notice(**self._fields(request, jurisdiction, form.cleaned_data))
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
            return self._render(request, code, form, status=422)
        preview = {
            "penalty": selectors.describe_penalty(notice.penalty),
            "measures": [measure_label(m.get("type", "")) for m in notice.penalty.get("measures", [])],
            "explanation": notice.explanation,
            "citations": notice.citations,
            "charged_to_holder": notice.charged_to_holder,
            "missing_parameters": notice.missing_parameters,
        }
        return self._render(request, code, form, preview=preview)

    def _work(
        self, request: HttpRequest, jurisdiction: Jurisdiction, data: dict[str, Any]
    ) -> tuple[int, str]:
        try:
            fields = self._fields(request, jurisdiction, data)
            notice = services.draw_up_notice(
                actor=request.user, reason="Auto de infração lavrado em campo", **fields
            )
        except ValidationError as error:
            return 422, json.dumps({"detail": error.messages}, ensure_ascii=False)
        return 201, json.dumps(services.notice_data(notice), cls=DjangoJSONEncoder, ensure_ascii=False)

    def _links(self, jurisdiction: Jurisdiction, data: dict[str, Any]) -> dict[str, Any]:
        """The registered vehicle, its active permit and the agent (by CPF) when there are."""
        raw = data.get("plate") or ""
        links: dict[str, Any] = {"plate": ""}
        if not raw.strip():
            return links
        plate = clean_plate(raw)
        links["plate"] = plate
        if data["offender_kind"] == OffenderKind.UNLICENSED:
            return links
        vehicle = Vehicle.objects.filter(plate=plate, jurisdiction=jurisdiction).first()
        if vehicle is None:
            return links
        links["vehicle"] = vehicle
        permit = Permit.objects.filter(vehicle=vehicle, status=Permit.Status.ACTIVE).first()
        if permit is not None:
            links["permit"] = permit
            document = "".join(ch for ch in (data.get("offender_document") or "") if ch.isdigit())
            if data["offender_kind"] in AGENT_KINDS and document:
                agent = (
                    PermitAgent.objects.filter(permit=permit, person__cpf=document)
                    .select_related("person")
                    .first()
                )
                if agent is not None:
                    links["agent"] = agent.person
        return links


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
        from lotacao.enforcement.due_process.views import FILING_ROLES, stage_context

        access = getattr(self.request, "access", None)
        is_holder = bool(access is not None and access.holder_id and access.holder_id == obj.holder_id)
        context = {
            "penalty_text": selectors.describe_penalty(obj.penalty),
            "filings": obj.filings.all(),
            "decisions": obj.decisions.select_related("body"),
            "is_holder": is_holder,
            "can_file": is_holder or permissions.allowed(access, obj.jurisdiction_id, FILING_ROLES),
            "can_notify": permissions.allowed(access, obj.jurisdiction_id, FILING_ROLES),
            "is_manager": permissions.allowed(access, obj.jurisdiction_id, ("gestor",)),
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
