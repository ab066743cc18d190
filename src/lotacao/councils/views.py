"""The councils' screens (`/conselhos/`): the list of councils and commissions, a council's page
(seats, members and mandates, sessions, resolutions, the decisions the law submits to it), and the
forms that add a seat or a member, open a session, record its attendance and register a
resolution. Rows come through the scoped managers: a row outside the user's scope is a 404."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from . import forms, gates, permissions, services
from .catalogue import COUNCILS, LAWS
from .models import Attendance, Council, Member, Resolution, Seat, Session


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _require(request: HttpRequest, code: str, roles: tuple[str, ...]) -> None:
    if not permissions.allowed(_access(request), code, roles):
        raise PermissionDenied("Seu perfil não permite esta ação nos conselhos.")


def _errors(form: Any, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


def council_url(council: Council) -> str:
    return reverse("councils:council", kwargs={"pk": council.pk})


def gate_rows(council: Council) -> list[dict[str, str]]:
    code = council.jurisdiction_id
    return [
        {"label": g.label, "phrase": gates.explain(code, g.key), "quote": g.quote}
        for g in gates.GATES.get(code, {}).values()
        if g.council == council.key
    ]


class CouncilList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        codes = permissions.jurisdictions_for(_access(request), permissions.VIEW_ROLES)
        if not codes:
            raise PermissionDenied("Seu perfil não tem acesso aos conselhos.")
        rows = list(
            Council.objects.filter(jurisdiction_id__in=codes).select_related("parent", "jurisdiction")
        )
        recordable = set(permissions.jurisdictions_for(_access(request), permissions.RECORD_ROLES))
        missing = []
        for code in codes:
            have = {c.key for c in rows if c.jurisdiction_id == code}
            lacking = [s for s in COUNCILS.get(code, ()) if s.key not in have]
            if lacking and code in recordable:
                missing.append({"code": code, "law": LAWS.get(code, ""), "names": [s.name for s in lacking]})
        silent = [LAWS.get(c, c) for c in codes if not COUNCILS.get(c)]
        context = {"title": "Conselhos e comissões", "rows": rows, "missing": missing, "silent": silent}
        return render(request, "councils/list.html", context)

    def post(self, request: HttpRequest) -> HttpResponse:
        code = request.POST.get("jurisdiction", "")
        _require(request, code, permissions.RECORD_ROLES)
        made = services.register_from_law(
            actor=request.user, jurisdiction_code=code, reason="Colegiados previstos na lei cadastrados."
        )
        messages.success(request, f"{len(made)} colegiados cadastrados.")
        return HttpResponseRedirect(reverse("councils:list"))


class CouncilView(LoginRequiredMixin, View):
    model = Council

    def get_council(self, pk: int, roles: tuple[str, ...] = permissions.VIEW_ROLES) -> Council:
        council: Council = get_object_or_404(Council.objects.all(), pk=pk)
        _require(self.request, council.jurisdiction_id, roles)
        return council


class CouncilDetail(CouncilView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk)
        today = timezone.localdate()
        members = list(Member.objects.filter(council=council).select_related("seat"))
        seats = [
            {"seat": s, "members": [m for m in members if m.seat_id == s.pk]}
            for s in Seat.objects.filter(council=council)
        ]
        context = {
            "title": council.name,
            "council": council,
            "seats": seats,
            "today": today,
            "sessions": Session.objects.filter(council=council)[:30],
            "resolutions": Resolution.objects.filter(council=council).select_related("session")[:50],
            "gates": gate_rows(council),
            "absence": services.absence_rule(council, today),
            "may_record": permissions.allowed(
                _access(request), council.jurisdiction_id, permissions.RECORD_ROLES
            ),
            "children": Council.objects.filter(parent=council),
        }
        return render(request, "councils/council.html", context)


def _form_page(
    request: HttpRequest, council: Council, title: str, form: Any, status: int = 200
) -> HttpResponse:
    return render(
        request, "councils/form.html", {"title": title, "council": council, "form": form}, status=status
    )


class SeatCreate(CouncilView):
    title = "Nova cadeira"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        number = Seat.objects.filter(council=council).count() + 1
        return _form_page(request, council, self.title, forms.SeatForm(initial={"number": number}))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        form = forms.SeatForm(request.POST)
        if form.is_valid():
            try:
                services.add_seat(actor=request.user, council=council, **form.cleaned_data)
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Cadeira cadastrada.")
                return HttpResponseRedirect(council_url(council))
        return _form_page(request, council, self.title, form, 422)


class MemberCreate(CouncilView):
    title = "Novo membro"

    def _form(self, council: Council, data: Any = None) -> forms.MemberForm:
        return forms.MemberForm(
            data, seats=Seat.objects.filter(council=council), initial={"starts_on": timezone.localdate()}
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        return _form_page(request, council, self.title, self._form(council))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        form = self._form(council, request.POST)
        if form.is_valid():
            try:
                services.appoint_member(actor=request.user, **form.cleaned_data)
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Membro cadastrado.")
                return HttpResponseRedirect(council_url(council))
        return _form_page(request, council, self.title, form, 422)


class SessionCreate(CouncilView):
    title = "Abrir sessão"

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        form = forms.SessionForm(initial={"held_on": timezone.localdate(), "kind": Session.Kind.ORDINARY})
        return _form_page(request, council, self.title, form)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        form = forms.SessionForm(request.POST)
        if form.is_valid():
            try:
                session = services.open_session(actor=request.user, council=council, **form.cleaned_data)
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Sessão aberta: registre a presença dos membros.")
                return HttpResponseRedirect(reverse("councils:attendance", kwargs={"pk": session.pk}))
        return _form_page(request, council, self.title, form, 422)


class AttendanceRecord(LoginRequiredMixin, View):
    model = Session

    def _session(self, pk: int, roles: tuple[str, ...]) -> Session:
        session: Session = get_object_or_404(Session.objects.select_related("council"), pk=pk)
        _require(self.request, session.jurisdiction_id, roles)
        return session

    def _render(self, request: HttpRequest, session: Session, form: Any, status: int = 200) -> HttpResponse:
        context = {
            "title": f"Presença — {session}",
            "council": session.council,
            "session": session,
            "form": form,
            "recorded": Attendance.objects.filter(session=session).select_related("member"),
        }
        return render(request, "councils/attendance.html", context, status=status)

    def _form(self, session: Session, data: Any = None) -> forms.AttendanceForm:
        return forms.AttendanceForm(data, members=services.active_members(session.council, session.held_on))

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        session = self._session(pk, permissions.VIEW_ROLES)
        return self._render(request, session, self._form(session))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        session = self._session(pk, permissions.RECORD_ROLES)
        form = self._form(session, request.POST)
        if form.is_valid():
            try:
                done = services.record_attendance(
                    actor=request.user,
                    session=session,
                    entries=form.entries(),
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Presença registrada.")
                for item in done:
                    messages.warning(request, item.message)
                return HttpResponseRedirect(council_url(session.council))
        return self._render(request, session, form, 422)


class ResolutionCreate(CouncilView):
    title = "Registrar resolução ou parecer"

    def _form(self, council: Council, data: Any = None) -> forms.ResolutionForm:
        today = timezone.localdate()
        choices = [
            (g.key, g.label)
            for g in gates.GATES.get(council.jurisdiction_id, {}).values()
            if g.council == council.key
        ]
        initial = {
            "dated_on": today,
            "number": services.next_number(council, Resolution.Kind.RESOLUTION, today.year),
            "favorable": True,
        }
        return forms.ResolutionForm(
            data, sessions=Session.objects.filter(council=council), gate_choices=choices, initial=initial
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        return _form_page(request, council, self.title, self._form(council))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        council = self.get_council(pk, permissions.RECORD_ROLES)
        form = self._form(council, request.POST)
        if form.is_valid():
            try:
                resolution = services.register_resolution(
                    actor=request.user, council=council, **form.cleaned_data
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"{resolution.citation} registrada.")
                return HttpResponseRedirect(reverse("councils:resolution", kwargs={"pk": resolution.pk}))
        return _form_page(request, council, self.title, form, 422)


class ResolutionDetail(LoginRequiredMixin, View):
    model = Resolution

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        resolution: Resolution = get_object_or_404(
            Resolution.objects.select_related("council", "session"), pk=pk
        )
        _require(request, resolution.jurisdiction_id, permissions.VIEW_ROLES)
        g = gates.gate(resolution.jurisdiction_id, resolution.gate) if resolution.gate else None
        context = {
            "title": resolution.citation,
            "council": resolution.council,
            "resolution": resolution,
            "gate": gates.explain(resolution.jurisdiction_id, g.key) if g else "",
        }
        return render(request, "councils/resolution.html", context)
