"""Line screens for the agency: lines, a line's versions (drawn on a map), approval acts, places,
and the import of the bus network. Thin: the services validate, the scoped managers scope."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit import exports as audited_exports
from lotacao.core import exports
from lotacao.core.exports import Column
from lotacao.core.formats import br_date
from lotacao.core.models import Jurisdiction
from lotacao.inspections import permissions
from lotacao.lines import busnet, maps, places, selectors, services
from lotacao.lines import law as lines_law
from lotacao.lines.forms import ApproveForm, ImportForm, NewLineForm, PlaceForm, TripsForm, VersionForm
from lotacao.lines.models import BusNetwork, LineVersion, Place, ServiceOrder, Stop
from lotacao.permits.models import Permit
from lotacao.registry import services as registry_services
from lotacao.registry.models import Line

ROLES = ("gestor", "atendente")


def form_errors(form: Any, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


def line_url(line: Line) -> str:
    return reverse("lines:line", kwargs={"pk": line.pk})


class LineView(LoginRequiredMixin, View):
    model = Line

    def get_line(self, pk: int) -> Line:
        line: Line = get_object_or_404(Line.objects.all(), pk=pk)
        return line


def _since(row: Any, label: str) -> str:
    if row is None:
        return ""
    number = row.number
    return f"{label} {number}, desde {br_date(row.valid_from)}"


class LineList(LoginRequiredMixin, View):
    title = "Linhas"
    export_columns = [
        Column("Linha", lambda r: r[0].code),
        Column("Nome", lambda r: r[0].name),
        Column("Jurisdição", lambda r: r[0].jurisdiction.name),
        Column("Versão em vigor", lambda r: _since(r[1], "versão")),
        Column("Versões em rascunho", lambda r: r[3]),
        Column("Ordem de serviço em vigor", lambda r: _since(r[2], "nº")),
    ]

    def rows(self, today: Any) -> list[tuple[Any, Any, Any, int]]:
        """Each line of the scope with its version and service order in force and its drafts (a
        few queries per line: an agency has tens of lines, not thousands)."""
        rows = []
        for line in Line.objects.select_related("jurisdiction").order_by("jurisdiction_id", "code"):
            version = selectors.version_in_force(line, today)
            drafts = LineVersion.objects.filter(line=line, status=LineVersion.Status.DRAFT).count()
            rows.append((line, version, selectors.service_order_in_force(line, today), drafts))
        return rows

    def get(self, request: HttpRequest) -> HttpResponseBase:
        today = timezone.localdate()
        try:
            exports.requested_format(request)
        except exports.BadFormat as error:
            return exports.refusal(error)
        rows = self.rows(today)
        file = audited_exports.answer(
            request,
            title=self.title,
            columns=self.export_columns,
            objects=rows,
            stem="linhas",
            personal=False,
        )
        if file is not None:
            return file
        codes = permissions.jurisdictions_for(getattr(request, "access", None), ROLES)
        can_create = any(lines_law.has_lines(c, today) for c in codes)
        return render(
            request,
            "lines/list.html",
            {
                "title": self.title,
                "rows": rows,
                "can_create": can_create,
                "export_links": exports.links(request),
            },
        )


def _version_kwargs(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "shape": data["shape"],
        "grounds": list(data.get("grounds") or []),
        "region": data.get("region") or "",
        "origin": data["origin"],
        "destination": data["destination"],
        "description": data.get("description") or "",
        "study": data.get("study") or "",
        "itinerary": data["itinerary"],
        "stops": data["stops"],
        "reason": data["reason"],
    }


class LineCreate(LoginRequiredMixin, View):
    def _codes(self, request: HttpRequest) -> list[str]:
        today = timezone.localdate()
        codes = permissions.jurisdictions_for(getattr(request, "access", None), ROLES)
        return [c for c in codes if lines_law.has_lines(c, today)]

    def _render(self, request: HttpRequest, form: Any, status: int = 200) -> HttpResponse:
        codes = self._codes(request)
        context = {
            "title": "Nova linha",
            "form": form,
            "map": maps.map_data(None),
            **maps.tiles(),
            "center": maps.center(codes[0]) if codes else None,
        }
        return maps.allow_tiles(render(request, "lines/version_form.html", context, status=status))

    def _form(self, request: HttpRequest, data: Any = None) -> NewLineForm:
        codes = self._codes(request)
        if not codes:
            raise PermissionDenied("Seu perfil não permite criar linhas.")
        return NewLineForm(data, jurisdiction=codes[0], on=timezone.localdate())

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, self._form(request))

    def post(self, request: HttpRequest) -> HttpResponse:
        form = self._form(request, request.POST)
        code = self._codes(request)[0]
        if form.is_valid():
            data = form.cleaned_data
            try:
                line = _create(request, code, data)
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, f"Linha {line.code} criada; a versão 1 aguarda o ato de aprovação.")
                return HttpResponseRedirect(line_url(line))
        return self._render(request, form, status=422)


def _create(request: HttpRequest, code: str, data: dict[str, Any]) -> Line:
    from django.db import transaction

    with transaction.atomic():
        line = registry_services.create_line(
            actor=request.user,
            jurisdiction=Jurisdiction.objects.get(code=code),
            code=data["code"],
            name=data["name"],
            origin=data["origin"],
            destination=data["destination"],
            reason=data["reason"],
        )
        services.draft_version(actor=request.user, line=line, **_version_kwargs(data))
    return line


class LineDetail(LineView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        today = timezone.localdate()
        versions = list(LineVersion.objects.filter(line=line).order_by("-number"))
        current = selectors.version_in_force(line, today)
        shown = current or (versions[0] if versions else None)
        stops = list(Stop.objects.filter(version=shown).order_by("sequence")) if shown else []
        order = selectors.service_order_in_force(line, today)
        label, cite = lines_law.service_order_label(line.jurisdiction_id, today)
        context = {
            "title": str(line),
            "line": line,
            "versions": versions,
            "current": current,
            "shown": shown,
            "stops": stops,
            "orders": ServiceOrder.objects.filter(line=line).order_by("-number"),
            "order": selectors.order_summary(order),
            "order_label": label,
            "order_cite": cite,
            "places": Place.objects.filter(line=line)
            .select_related("permit", "vehicle")
            .order_by("-starts_on"),
            "can_edit": permissions.allowed(getattr(request, "access", None), line.jurisdiction_id, ROLES),
            "map": maps.map_data(shown, stops),
            **maps.tiles(),
        }
        from lotacao.lines.views_life import line_context

        context.update(line_context(line))
        return maps.allow_tiles(render(request, "lines/line.html", context))


class VersionCreate(LineView):
    def _render(self, request: HttpRequest, line: Line, form: Any, status: int = 200) -> HttpResponse:
        context = {
            "title": f"Nova versão — {line}",
            "line": line,
            "form": form,
            "map": maps.map_data(None),
            "center": maps.center(line.jurisdiction_id),
            **maps.tiles(),
        }
        return maps.allow_tiles(render(request, "lines/version_form.html", context, status=status))

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        permissions.require(request, line.jurisdiction_id, ROLES)
        last = LineVersion.objects.filter(line=line).order_by("-number").first()
        initial: dict[str, Any] = {"origin": line.origin, "destination": line.destination}
        if last is not None:
            stops = [
                {"name": s.name, "lat": s.lat, "lon": s.lon, "kind": s.kind}
                for s in Stop.objects.filter(version=last).order_by("sequence")
            ]
            initial.update(
                shape=last.shape,
                grounds=last.grounds,
                region=last.region,
                origin=last.origin,
                destination=last.destination,
                description=last.description,
                study=last.study,
                itinerary=_json(last.itinerary),
                stops=_json(stops),
            )
        form = VersionForm(initial=initial, jurisdiction=line.jurisdiction_id, on=timezone.localdate())
        return self._render(request, line, form)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        permissions.require(request, line.jurisdiction_id, ROLES)
        form = VersionForm(request.POST, jurisdiction=line.jurisdiction_id, on=timezone.localdate())
        if form.is_valid():
            try:
                version = services.draft_version(
                    actor=request.user, line=line, **_version_kwargs(form.cleaned_data)
                )
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, f"Versão {version.number} registrada; aguarda o ato de aprovação.")
                return HttpResponseRedirect(line_url(line))
        return self._render(request, line, form, status=422)


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


class Approve(LineView):
    def _form(self, line: Line, data: Any = None) -> ApproveForm:
        drafts = list(
            LineVersion.objects.filter(line=line, status=LineVersion.Status.DRAFT).order_by("-number")
        )
        rule, cite = lines_law.approval(line.jurisdiction_id, timezone.localdate())
        text = f"{rule.get('act', 'Ato do órgão gestor')} ({cite})" if rule else ""
        today = timezone.localdate()
        initial: dict[str, Any] = {"approved_on": today, "valid_from": today}
        asked = drafts[0].change_request if drafts and drafts[0].change_request_id else None
        if asked is not None:  # drafted from an approved request: its act, date and resolution
            initial.update(
                version=drafts[0].number,
                act=asked.act,
                approved_on=asked.act_date or today,
                valid_from=asked.effective_on or today,
                resolution=asked.resolution_id,
            )
        return ApproveForm(
            data,
            versions=drafts,
            help_text=text,
            code=line.jurisdiction_id,
            initial=initial,
        )

    def _render(self, request: HttpRequest, line: Line, form: Any, status: int = 200) -> HttpResponse:
        context = {"title": f"Aprovar versão — {line}", "line": line, "form": form}
        return render(request, "lines/form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        return self._render(request, line, self._form(line))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        permissions.require(request, line.jurisdiction_id, ("gestor",))
        form = self._form(line, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            version = LineVersion.objects.get(line=line, number=data["version"])
            try:
                services.approve_version(
                    actor=request.user,
                    version=version,
                    act=data.get("act") or "",
                    approved_on=data["approved_on"],
                    valid_from=data["valid_from"],
                    reason=data["reason"],
                    resolution=data.get("resolution"),
                )
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, f"Versão {version.number} aprovada.")
                return HttpResponseRedirect(line_url(line))
        return self._render(request, line, form, status=422)


class Places(LineView):
    def _permits(self, line: Line) -> Any:
        return Permit.objects.filter(
            jurisdiction_id=line.jurisdiction_id, status__in=Permit.LIVE
        ).select_related("vehicle")

    def _render(self, request: HttpRequest, line: Line, form: Any, status: int = 200) -> HttpResponse:
        context = {"title": f"Vagas — {line}", "line": line, "form": form}
        return render(request, "lines/form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        form = PlaceForm(permits=self._permits(line), initial={"starts_on": timezone.localdate()})
        return self._render(request, line, form)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = self.get_line(pk)
        permissions.require(request, line.jurisdiction_id, ROLES)
        if "place" in request.POST:
            return self._trips(request, line)
        form = PlaceForm(request.POST, permits=self._permits(line))
        if form.is_valid():
            data = form.cleaned_data
            try:
                _place(request, line, data)
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, f"Vaga registrada na linha {line.code}.")
                return HttpResponseRedirect(line_url(line))
        return self._render(request, line, form, status=422)

    def _trips(self, request: HttpRequest, line: Line) -> HttpResponse:
        form = TripsForm(request.POST)
        if form.is_valid():
            place = get_object_or_404(Place.objects.filter(line=line), pk=form.cleaned_data["place"])
            try:
                places.record_trips(
                    actor=request.user,
                    place=place,
                    on=form.cleaned_data["on"],
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                messages.success(request, "Operação registrada.")
        else:
            messages.error(request, "Informe a data e o motivo.")
        return HttpResponseRedirect(line_url(line))


def _place(request: HttpRequest, line: Line, data: dict[str, Any]) -> Place:
    permit = data["permit"]
    current = selectors.open_place(permit, data["starts_on"])
    if current is not None and current.line_id != line.pk:
        return places.move_place(
            actor=request.user,
            place=current,
            line=line,
            on=data["starts_on"],
            act=data.get("act") or "",
            reason=data["reason"],
        )
    return places.assign_place(
        actor=request.user,
        permit=permit,
        line=line,
        starts_on=data["starts_on"],
        act=data.get("act") or "",
        reason=data["reason"],
    )


class BusNetworks(LoginRequiredMixin, View):
    def _form(self, request: HttpRequest, data: Any = None, files: Any = None) -> ImportForm:
        today = timezone.localdate()
        codes = [
            c
            for c in permissions.jurisdictions_for(getattr(request, "access", None), ROLES)
            if lines_law.has_lines(c, today)
        ]
        names = dict(Jurisdiction.objects.filter(code__in=codes).values_list("code", "name"))
        return ImportForm(data, files, jurisdictions=[(c, names.get(c, c)) for c in codes])

    def _render(self, request: HttpRequest, form: Any, status: int = 200) -> HttpResponse:
        networks = BusNetwork.objects.order_by("-created_at")[:20]
        context = {"title": "Rede de ônibus (GTFS)", "form": form, "networks": networks}
        return render(request, "lines/bus_networks.html", context, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, self._form(request))

    def post(self, request: HttpRequest) -> HttpResponse:
        form = self._form(request, request.POST, request.FILES)
        if form.is_valid():
            code = form.cleaned_data["jurisdiction"]
            permissions.require(request, code, ROLES)
            try:
                network = busnet.import_upload(
                    actor=request.user,
                    jurisdiction=Jurisdiction.objects.get(code=code),
                    upload=form.cleaned_data["file"],
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                form_errors(form, error)
            else:
                report = network.report
                messages.success(
                    request,
                    f"Rede importada: linhas {report['routes']}, paradas {report['stops']}, "
                    f"viagens {report['trips']}.",
                )
                return HttpResponseRedirect(reverse("lines:bus_networks"))
        return self._render(request, form, status=422)
