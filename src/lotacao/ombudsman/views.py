"""The ombudsman's screens (/ouvidoria/): the queue, a manifestation with its steps, the clerk's
intake of phone and counter calls, photos. Reads go through the scoped managers (a manifestation of
another agency is a 404); each step is checked against the roles of `permissions`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.formats import lower_first
from lotacao.core.models import Jurisdiction
from lotacao.ombudsman import forms, permissions, selectors, services, states
from lotacao.ombudsman.models import Complaint, ComplaintPhoto, Status


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _complaint(request: HttpRequest, pk: int, roles: tuple[str, ...] = permissions.QUEUE_ROLES) -> Complaint:
    complaint: Complaint = get_object_or_404(
        Complaint.objects.select_related("line", "vehicle", "jurisdiction", "inspection"), pk=pk
    )
    permissions.require(request, complaint.jurisdiction_id, roles)
    return complaint


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    codes = permissions.jurisdictions_for(_access(request), permissions.QUEUE_ROLES)
    if not codes:
        raise PermissionDenied("A fila da ouvidoria é do ouvidor e do gestor.")
    status = request.GET.get("situacao", "")
    rows = list(selectors.queue(codes, status)[:500])
    today = timezone.localdate()
    for row in rows:
        row.days_left = (row.due_on - today).days  # type: ignore[attr-defined]
    return render(
        request,
        "ombudsman/queue.html",
        {
            "title": "Ouvidoria — manifestações",
            "rows": rows,
            "status": status,
            "statuses": Status.choices,
            "can_intake": bool(permissions.jurisdictions_for(_access(request), permissions.INTAKE_ROLES)),
        },
    )


def _detail(request: HttpRequest, complaint: Complaint, status: int = 200, **extra: Any) -> HttpResponse:
    access = _access(request)
    worker = permissions.allowed(access, complaint.jurisdiction_id, permissions.QUEUE_ROLES)
    actions = {t.action for t in states.available(complaint.status)} if worker else set()
    if complaint.extended_on is not None:
        actions.discard("extend")
    context = {
        "title": str(complaint),
        "c": complaint,
        "phrase": states.STATUS_PHRASES[Status(complaint.status)],
        "days_left": (complaint.due_on - timezone.localdate()).days,
        "overdue": (timezone.localdate() - complaint.due_on).days,
        "actions": actions,
        "photos": list(ComplaintPhoto.objects.filter(complaint=complaint)),
        "events": history(complaint).select_related("actor")[:100],
        "may_identity": permissions.may_see_identity(access, complaint.jurisdiction_id),
        "has_identity": _has_identity(complaint),
        "forward_form": extra.pop("forward_form", forms.ForwardForm()),
        "extend_form": extra.pop("extend_form", forms.ExtendForm()),
        "answer_form": extra.pop("answer_form", forms.AnswerForm()),
        "note_form": forms.NoteForm(),
        "identity_form": extra.pop("identity_form", forms.IdentityForm()),
        "inspection_form": extra.pop("inspection_form", forms.InspectionForm()),
        # The notice is the inspectors' act: the link only for whom the notice form opens.
        "notice_url": _notice_url(complaint) if complaint.is_open and _may_draw_up(access, complaint) else "",
        "worker": worker,
        **extra,
    }
    return render(request, "ombudsman/complaint.html", context, status=status)


def _has_identity(complaint: Complaint) -> bool:
    from lotacao.ombudsman.models import ComplaintIdentity

    return ComplaintIdentity.unscoped.filter(complaint=complaint).exists()


def _may_draw_up(access: Any, complaint: Complaint) -> bool:
    from lotacao.enforcement import permissions as enforcement_permissions

    codes = enforcement_permissions.jurisdictions_for(access, enforcement_permissions.NOTICE_ROLES)
    return complaint.jurisdiction_id in codes


def _notice_url(complaint: Complaint) -> str:
    """The notice form pre-filled from the complaint (the inspector still confirms the facts)."""
    from urllib.parse import urlencode

    if not complaint.plate:
        return ""
    when = ""
    if complaint.occurred_at is not None:
        when = f" em {timezone.localtime(complaint.occurred_at):%d/%m/%Y %H:%M}"
    facts = f"Manifestação {complaint.protocol} ({lower_first(complaint.get_kind_display())}){when}: "
    query = {
        "jurisdicao": complaint.jurisdiction_id,
        "placa": complaint.plate,
        "local": complaint.place,
        "descricao": (facts + complaint.description)[:2000],
    }
    return f"{reverse('enforcement:notice_create')}?{urlencode(query)}"


class ComplaintDetail(LoginRequiredMixin, View):
    """A manifestation: its facts, the clock, the answer and the steps (POST `acao`). Read by the
    units it may be forwarded to; worked by the ombudsman's roles; the identity by the ombudsman."""

    model = Complaint

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return _detail(request, _complaint(request, pk, permissions.VIEW_ROLES))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        action = request.POST.get("acao", "")
        if action == "identificacao":
            return _identity(request, pk)
        return _act(request, _complaint(request, pk), action)


def _act(request: HttpRequest, complaint: Complaint, action: str) -> HttpResponse:
    user = request.user
    follow = request.build_absolute_uri(reverse("public:complaint_follow"))
    bound: dict[str, Any] = {}
    try:
        if action == "triage":
            form: Any = forms.NoteForm(request.POST)
            if form.is_valid():
                services.triage(actor=user, complaint=complaint, note=form.cleaned_data["note"])
        elif action == "forward":
            form = bound["forward_form"] = forms.ForwardForm(request.POST)
            if form.is_valid():
                services.forward(actor=user, complaint=complaint, **form.cleaned_data)
        elif action == "extend":
            form = bound["extend_form"] = forms.ExtendForm(request.POST)
            if form.is_valid():
                services.extend(actor=user, complaint=complaint, reason=form.cleaned_data["note"])
        elif action == "answer":
            form = bound["answer_form"] = forms.AnswerForm(request.POST)
            if form.is_valid():
                services.answer(
                    actor=user,
                    complaint=complaint,
                    text=form.cleaned_data["answer"],
                    measures=form.cleaned_data["measures"],
                    follow_url=follow,
                )
        elif action == "close":
            form = forms.NoteForm(request.POST)
            if form.is_valid():
                services.close(actor=user, complaint=complaint, note=form.cleaned_data["note"])
        elif action == "inspection":
            form = bound["inspection_form"] = forms.InspectionForm(request.POST)
            if form.is_valid():
                services.schedule_inspection(actor=user, complaint=complaint, **form.cleaned_data)
        else:
            return _detail(request, complaint, status=422, refusal="Ação desconhecida.")
    except ValidationError as error:
        complaint.refresh_from_db()
        return _detail(request, complaint, status=422, refusal=" ".join(error.messages), **bound)
    if not form.is_valid():
        return _detail(request, complaint, status=422, **bound)
    messages.success(request, "Registrado.")
    return redirect("ombudsman:complaint", pk=complaint.pk)


def _identity(request: HttpRequest, pk: int) -> HttpResponse:
    """The complainant's identity, for the ombudsman alone, each opening audited (art. 10, § 7º)."""
    complaint = _complaint(request, pk, permissions.IDENTITY_ROLES)
    if not permissions.may_see_identity(_access(request), complaint.jurisdiction_id):
        raise PermissionDenied("Só a ouvidoria vê a identificação do manifestante.")
    form = forms.IdentityForm(request.POST)
    if not form.is_valid():
        return _detail(request, complaint, status=422, identity_form=form)
    try:
        found = services.open_identity(
            actor=request.user, complaint=complaint, reason=form.cleaned_data["reason"]
        )
    except ValidationError as error:
        return _detail(request, complaint, status=422, refusal=" ".join(error.messages), identity_form=form)
    response = _detail(request, complaint, identity=found, identity_opened=True)
    response["Cache-Control"] = "no-store"
    return response


class ComplaintPhotoFile(LoginRequiredMixin, View):
    model = ComplaintPhoto

    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        found = get_object_or_404(ComplaintPhoto.objects.select_related("complaint"), pk=pk)
        permissions.require(request, found.jurisdiction_id, permissions.VIEW_ROLES)
        return FileResponse(found.file.open("rb"), content_type=found.content_type)


@login_required
def intake(request: HttpRequest) -> HttpResponse:
    """A phone or counter call taken by staff: the same manifestation as on the web."""
    codes = permissions.jurisdictions_for(_access(request), permissions.INTAKE_ROLES)
    if not codes:
        raise PermissionDenied("Seu perfil não registra manifestações.")
    choices = list(Jurisdiction.objects.filter(code__in=codes).values_list("code", "name"))
    form = forms.ComplaintForm(request.POST or None, request.FILES or None, jurisdictions=choices, staff=True)
    refusal = ""
    if request.method == "POST" and form.is_valid():
        try:
            complaint, code = services.file_complaint(
                **form.filing(),
                actor=request.user,
            )
        except ValidationError as error:
            refusal = " ".join(error.messages)
        else:
            return render(
                request,
                "ombudsman/receipt.html",
                {
                    "title": "Manifestação registrada",
                    "c": complaint,
                    "code": services.display_code(code),
                    "staff": True,
                },
            )
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "ombudsman/intake.html",
        {"title": "Registrar manifestação (telefone ou balcão)", "form": form, "refusal": refusal},
        status=status,
    )
