"""Enforcement screens: the inspector's phone notice form (one plate entry that fills vehicle,
permit, holder and line; the infraction picker; position and camera; what the OSO and the fare
were that day; the penalty in one line; idempotent submit, and kept on the phone without signal by
the service worker) and the notice's page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.views_base import ScopedDetailView, ScopedListView
from lotacao.authorizations.selectors import unauthorized_suggestion
from lotacao.chartering.models import Trip
from lotacao.chartering.selectors import notice_prefill
from lotacao.core.idempotency import run_once
from lotacao.core.law import pack_for
from lotacao.core.models import Jurisdiction
from lotacao.core.validators import format_document
from lotacao.duties.selectors import authorizations_in_force
from lotacao.enforcement import permissions
from lotacao.enforcement.due_process.stage import stage_context
from lotacao.enforcement.models import InfractionNotice, NoticePhoto
from lotacao.enforcement.notices import intake, photos, selectors, services, states
from lotacao.enforcement.notices.forms import NoticeForm
from lotacao.enforcement.notices.street import street_rules
from lotacao.enforcement.reading import base_fine_words, charge_words, describe_penalty, infraction_day
from lotacao.enforcement.templatetags.enforcement_measures import measure_label
from lotacao.rosters.selectors import vehicle_roster

FORM_ENDPOINT = "infraction-notices.form"
SERVICE_WORKER = Path(__file__).resolve().parent.parent / "static" / "enforcement" / "notice-sw.js"


def infraction_text(notice: InfractionNotice) -> str:
    """The infraction as the law prints it: `art. 42, XV, a — Trafegar com excesso de lotação`."""
    row = pack_for(notice.jurisdiction_id).infractions.get(notice.infraction_code)
    if row is None:
        if notice.infraction_code == "unlicensed_transport":
            return "Transporte sem permissão (clandestino)"
        return notice.infraction_code
    return f"{row.cite or row.citation} — {row.description}"


def group_text(notice: InfractionNotice) -> str:
    group = notice.infraction_group or str(notice.engine_result.get("group") or "")
    found = pack_for(notice.jurisdiction_id).groups.get(group)
    return found.label if found is not None else group


def local_moment(notice: InfractionNotice) -> str:
    """`30/10/2027 14:05`, where the infraction happened."""
    zone = ZoneInfo(notice.jurisdiction.timezone or "America/Sao_Paulo")
    return notice.drawn_up_at.astimezone(zone).strftime("%d/%m/%Y %H:%M")


def inspector_name(user: Any) -> str:
    if user is None:
        return ""
    return str(user.get_full_name() or user.get_username())


def penalty_line(notice: InfractionNotice) -> str:
    """What, how much and why, in one line: `Multa de R$ 300,00 — Grupo B (art. 49, II)`."""
    what = describe_penalty(notice.penalty)
    why = [group_text(notice)] if group_text(notice) else []
    repeat = notice.engine_result.get("repeat")
    if isinstance(repeat, int) and repeat > 0:
        why.append(f"reincidência nº {repeat}")
    cites = notice.citations[:1]
    reason = ", ".join(why)
    if cites:
        reason = f"{reason} ({cites[0]})" if reason else str(cites[0])
    return f"{what} — {reason}" if reason else what


def utc_offset(zone: str) -> str:
    """`-03:00`: the jurisdiction's offset now (the phone sends a notice kept offline with it)."""
    raw = timezone.localtime(timezone.now(), ZoneInfo(zone)).strftime("%z")
    return f"{raw[:3]}:{raw[3:]}"


def missing_words(code: str, parameters: list[str]) -> list[str]:
    """The values the agency has not supplied yet, by what they are (never by their id)."""
    pack = pack_for(code)
    return [pack.parameters[p].description if p in pack.parameters else p for p in parameters]


def plate_check(plate: str, code: str) -> dict[str, Any] | None:
    """The plate's status with what the notice takes from it: permit (any status), holder, line."""
    check = intake.plate_check(plate, code)
    if check and check.get("valid_plate") and not check.get("here"):
        check["suggestion"] = unauthorized_suggestion(code, timezone.localdate())
    if not check or not check.get("here"):
        return check
    today = timezone.localdate()
    for record, vehicle in zip(check["here"], intake.plate_vehicles(check["plate"], code), strict=True):
        permit = intake.vehicle_permit(vehicle)
        line = intake.line_on(today, vehicle=vehicle, permit=permit)
        record["permit_status"] = permit.get_status_display() if permit is not None else ""
        record["permit_label"] = permit.number if permit is not None else ""
        record["line"] = line
        record["vehicle"] = vehicle
        record["authorizations"] = authorizations_in_force(vehicle, today)
        record["roster"] = vehicle_roster(vehicle, line, today)
        if record.get("service_kind") and not record.get("authorized"):
            record["suggestion"] = unauthorized_suggestion(code, today)
    return check


class NoticeCreate(LoginRequiredMixin, View):
    def _jurisdiction(self, request: HttpRequest) -> str:
        codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.NOTICE_ROLES)
        if not codes:
            raise Http404("Sem perfil de fiscalização.")
        wanted = request.GET.get("jurisdicao") or request.POST.get("jurisdicao") or codes[0]
        if wanted not in codes:
            raise Http404("Jurisdição fora do seu perfil.")
        return wanted

    def _form(self, request: HttpRequest, code: str, plate: str, **kwargs: Any) -> NoticeForm:
        check = plate_check(plate, code)
        known = None
        if check and check.get("here"):
            known = check["here"][0].get("line")
        form = NoticeForm(jurisdiction=code, known_line=known, **kwargs)
        form.check = check
        return form

    def _render(
        self,
        request: HttpRequest,
        code: str,
        form: NoticeForm,
        status: int = 200,
        preview: Any = None,
        prefill_note: str = "",
    ) -> HttpResponse:
        codes = permissions.jurisdictions_for(getattr(request, "access", None), permissions.NOTICE_ROLES)
        context = {
            "title": "Novo auto de infração",
            "form": form,
            "jurisdiction": code,
            "jurisdictions": codes,
            "check": getattr(form, "check", None),
            "preview": preview,
            "prefill_note": prefill_note,
            "api_url": reverse("api:create_notice"),
            "utc_offset": utc_offset(Jurisdiction.objects.get(code=code).timezone),
        }
        return render(request, "enforcement/notices/notice_form.html", context, status=status)

    def _trip_prefill(self, request: HttpRequest, code: str) -> tuple[dict[str, Any], str]:
        """`?viagem=<id>&infracao=<código>`: chartering's road check or trip screen."""
        trip_id = request.GET.get("viagem", "")
        infraction = request.GET.get("infracao", "")
        if not trip_id.isdigit():
            return {}, ""
        trip = Trip.objects.filter(pk=int(trip_id), jurisdiction_id=code).select_related("vehicle").first()
        if trip is None:
            raise Http404("Viagem não encontrada.")
        found = notice_prefill(infraction_code=infraction, trip=trip, on=timezone.localdate())
        initial = {
            "infraction_code": infraction,
            "offender_kind": found["offender_kind"],
            "plate": found["plate"],
            "offender_name": found["offender_name"],
            "offender_document": format_document(found["offender_document"]),
            "description": found["description"],
        }
        note = f"Preenchido com a viagem {trip.origin} — {trip.destination} (manifesto {trip.token})."
        return initial, note

    def get(self, request: HttpRequest) -> HttpResponse:
        code = self._jurisdiction(request)
        initial: dict[str, Any] = {"plate": request.GET.get("placa", "")}
        if request.GET.get("infracao"):
            initial["infraction_code"] = request.GET["infracao"]
        # a link from another screen (the ombudsman's complaint) may bring the place and the facts
        if request.GET.get("local"):
            initial["place"] = request.GET["local"][:300]
        if request.GET.get("descricao"):
            initial["description"] = request.GET["descricao"][:2000]
        prefill, note = self._trip_prefill(request, code)
        initial.update(prefill)
        form = self._form(request, code, initial["plate"], initial=initial)
        return self._render(request, code, form, prefill_note=note)

    def post(self, request: HttpRequest) -> HttpResponse:
        code = self._jurisdiction(request)
        plate = request.POST.get("plate", "")
        if "consult" in request.POST:
            # the plate looked up, nothing validated yet: the same form, filled from the plate
            initial = {k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "line")}
            form = self._form(request, code, plate, initial=initial)
            if form.check and form.check.get("valid_plate"):
                form.initial["plate"] = form.check["plate"]
            return self._render(request, code, form)
        form = self._form(request, code, plate, data=request.POST, files=request.FILES)
        if not form.is_valid():
            return self._render(request, code, form, status=422)
        try:
            checked = photos.checked_photos(form.cleaned_data.get("photos") or [])
        except ValidationError as error:
            for message in error.messages:
                form.add_error("photos", message)
            return self._render(request, code, form, status=422)
        data = dict(form.cleaned_data)
        data.pop("photos", None)
        if checked:
            data["evidence_image"] = photos.evidence_reference(checked)
        if "preview" in request.POST:
            return self._preview(request, code, form, data)
        line = data.get("line")
        payload = json.loads(
            json.dumps({"jurisdicao": code, **data, "line": getattr(line, "pk", None)}, cls=DjangoJSONEncoder)
        )
        payload.pop("idempotency_key", None)
        jurisdiction = Jurisdiction.objects.get(code=code)
        status, body = run_once(
            user=request.user,
            key=data["idempotency_key"],
            endpoint=FORM_ENDPOINT,
            payload=payload,
            jurisdiction_id=code,
            work=lambda: self._work(request, jurisdiction, data, checked),
        )
        result = json.loads(body)
        if status == 201:
            return HttpResponseRedirect(reverse("enforcement:notice", kwargs={"pk": result["id"]}))
        for message in result.get("detail", []):
            form.add_error(None, message)
        if status != 409:
            form.fresh_key()
        return self._render(request, code, form, status=status)

    def _preview(
        self, request: HttpRequest, code: str, form: NoticeForm, data: dict[str, Any]
    ) -> HttpResponse:
        """The penalty the law gives, shown before confirming; nothing is written."""
        jurisdiction = Jurisdiction.objects.get(code=code)
        try:
            notice = services.prepare_notice(**intake.fields_from_form(jurisdiction, request.user, data))
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
            return self._render(request, code, form, status=422)
        preview = {
            "summary": penalty_line(notice),
            "measures": [measure_label(m.get("type", "")) for m in notice.penalty.get("measures", [])],
            "explanation": notice.explanation,
            "citations": notice.citations,
            "charged_to_holder": notice.charged_to_holder,
            "base_fine": base_fine_words(notice.engine_result),
            "charges": charge_words(notice.engine_result),
            "missing_parameters": missing_words(code, notice.missing_parameters),
            "street": street_rules(code, notice.infraction_code, notice.line, infraction_day(notice)),
            "line": notice.line,
            "holder": notice.holder,
        }
        return self._render(request, code, form, preview=preview)

    def _work(
        self,
        request: HttpRequest,
        jurisdiction: Jurisdiction,
        data: dict[str, Any],
        checked: list[tuple[Any, str, str]],
    ) -> tuple[int, str]:
        try:
            with transaction.atomic():
                fields = intake.fields_from_form(jurisdiction, request.user, data)
                notice = services.draw_up_notice(
                    actor=request.user, reason="Auto de infração lavrado em campo", **fields
                )
                photos.attach_photos(
                    actor=request.user,
                    notice=notice,
                    checked=checked,
                    reason="Foto tirada na lavratura do auto",
                )
        except ValidationError as error:
            return 422, json.dumps({"detail": error.messages}, ensure_ascii=False)
        return 201, json.dumps(selectors.notice_data(notice), cls=DjangoJSONEncoder, ensure_ascii=False)


class NoticePhotoFile(LoginRequiredMixin, View):
    """A notice's photo, for whoever may see the notice (the scoped manager: 404 otherwise)."""

    model = NoticePhoto

    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        found = get_object_or_404(NoticePhoto.objects.all(), pk=pk)
        response = FileResponse(found.file.open("rb"), content_type=found.content_type)
        response["Cache-Control"] = "private, no-store"
        return response


class NoticeServiceWorker(View):
    """The service worker of the notice pages, served from their path so that its scope is them
    (`/fiscalizacao/autos/`) and nothing else of the site."""

    def get(self, request: HttpRequest) -> HttpResponse:
        response = HttpResponse(SERVICE_WORKER.read_text(encoding="utf-8"), content_type="text/javascript")
        response["Cache-Control"] = "no-cache"
        return response


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
        ("Linha", "line"),
        ("Nome do infrator (sem cadastro)", "offender_name"),
        ("Agente fiscal", "inspector"),
        ("Cobrado do permissionário", "charged_to_holder"),
        ("Descrição", "description"),
    ]

    def _fields(self, obj: InfractionNotice) -> list[tuple[str, Any]]:
        """The notice as people read it: the infraction as the law prints it, the group's label,
        the inspector's name, the plate formatted, the position if the phone gave one."""
        vehicle = obj.vehicle
        rows: list[tuple[str, Any]] = [
            ("Número", obj.number),
            ("Situação", obj.get_status_display()),
            ("Data e hora", local_moment(obj)),
            ("Local", obj.place),
            ("Enquadramento", infraction_text(obj)),
            ("Grupo", group_text(obj)),
            ("Infrator", obj.get_offender_kind_display()),
            ("Permissionário", obj.holder),
            ("Preposto", obj.agent),
            ("Placa", vehicle.plate_display if vehicle is not None else obj.plate),
            ("Linha", obj.line),
            ("Nome do infrator (sem cadastro)", obj.offender_name),
            ("Agente fiscal", inspector_name(obj.inspector)),
            ("Cobrado do permissionário", obj.charged_to_holder),
            ("Descrição", obj.description),
        ]
        if obj.evidence_latitude is not None and obj.evidence_longitude is not None:
            position = f"{obj.evidence_latitude}, {obj.evidence_longitude}".replace(".", ",")
            rows.insert(4, ("Posição (GPS)", position))
        return rows

    def extra_context(self, obj: Any) -> dict[str, Any]:
        access = getattr(self.request, "access", None)
        is_holder = permissions.is_own_holder(access, obj)
        context = {
            "fields": self._fields(obj),
            "penalty_text": describe_penalty(obj.penalty),
            "penalty_line": penalty_line(obj),
            "base_fine_text": base_fine_words(obj.engine_result),
            "charges": charge_words(obj.engine_result),
            "missing": missing_words(obj.jurisdiction_id, obj.missing_parameters),
            "street": street_rules(obj.jurisdiction_id, obj.infraction_code, obj.line, infraction_day(obj)),
            "photos": list(obj.photos.all()),
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
        ("Enquadramento", "infraction_item"),
        ("Penalidade", "penalty_summary"),
        ("Situação", "status"),
    ]
    search_fields = ["number__icontains", "plate__icontains"]
    search_help = "Número do auto ou placa"
    filters = {"situacao": "status"}  # a dashboard counter opens e.g. ?situacao=notified
    detail_url_name = "enforcement:notice"
    create_url_name = "enforcement:notice_create"
    create_label = "Novo auto de infração"
    create_roles = permissions.NOTICE_ROLES
    export_stem = "autos-de-infracao"
    personal_data = True  # plates and offenders of identifiable people
