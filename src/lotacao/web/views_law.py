"""The manager's screen for the values the agency supplies to its law (see lotacao.core.law)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.formats import brl
from lotacao.core.law import entry, pack_for
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.law.packs import get_pack
from lotacao.web import agency_values
from lotacao.web.forms_law import AgencyValueForm, AnnulForm, ReadjustmentForm, parse_value

# Parameters whose values a manager enters on a typed form of their own (date, percentage, act)
# rather than the generic one; shown where the jurisdiction's pack has them.
READJUSTMENT = "penalty.base_fine_readjustment"
BASE_FINE = "penalty.base_fine"


def _readjustments(jurisdiction: Jurisdiction, form: ReadjustmentForm | None) -> dict[str, Any] | None:
    """The fare readjustments section (Recife art. 36, § 1º), where the pack has the parameter."""
    pack = get_pack(jurisdiction.code)
    if not pack.has(READJUSTMENT):
        return None
    today = timezone.localdate()
    base = entry(jurisdiction.code, BASE_FINE, today)
    rows = AgencyValue.objects.filter(jurisdiction=jurisdiction, parameter=READJUSTMENT).select_related(
        "created_by"
    )
    return {
        "description": pack.parameters[READJUSTMENT].description,
        "base": base,
        "base_text": f"{brl(base.value)} ({base.citation})" if base is not None and base.defined else "",
        "rows": [{"row": r, "percent": _percent(r.value)} for r in rows.order_by("valid_from")],
        "form": form or ReadjustmentForm(initial={"valid_from": today}),
    }


def _percent(raw: Any) -> str:
    try:
        return f"{Decimal(str(raw)):.2f}".replace(".", ",") + "%"
    except (InvalidOperation, ValueError):
        return str(raw)


def _managed(request: HttpRequest) -> Jurisdiction:
    """The jurisdiction whose values this user manages (gestor), or 404."""
    access = request.access  # type: ignore[attr-defined]
    codes = [code for code, roles in access.roles.items() if "gestor" in roles]
    wanted = request.GET.get("j") or request.POST.get("j") or (codes[0] if codes else "")
    if wanted not in codes:
        raise Http404
    jurisdiction: Jurisdiction = get_object_or_404(Jurisdiction.objects.all(), pk=wanted)
    return jurisdiction


class LawValues(LoginRequiredMixin, View):
    def _context(
        self,
        jurisdiction: Jurisdiction,
        form: AgencyValueForm | None,
        readjustment: ReadjustmentForm | None = None,
    ) -> dict[str, Any]:
        today = timezone.localdate()
        pack, layered = get_pack(jurisdiction.code), pack_for(jurisdiction.code)
        rows: list[dict[str, Any]] = []
        for param in pack.iter_parameters():
            own = layered.resolve(param.name, today)
            rows.append(
                {
                    "name": param.name,
                    "description": param.description,
                    "type": param.type,
                    "entry": own,
                    "law_entry": pack.resolve(param.name, today),
                }
            )
        rows.sort(key=lambda r: (r["entry"].status == "value", r["name"]))
        values = AgencyValue.objects.filter(jurisdiction=jurisdiction).select_related("created_by")
        choices = [(r["name"], f"{r['name']} — {r['description']}") for r in rows]
        return {
            "jurisdiction": jurisdiction,
            "rows": rows,
            "values": values,
            "title": "Valores da lei",
            "form": form or AgencyValueForm(parameters=choices, initial={"valid_from": today}),
            "undefined": sum(1 for r in rows if r["entry"].status == "undefined"),
            "readjustments": _readjustments(jurisdiction, readjustment),
        }

    def get(self, request: HttpRequest) -> HttpResponse:
        jurisdiction = _managed(request)
        return render(request, "web/law/law_values.html", self._context(jurisdiction, None))

    def post(self, request: HttpRequest) -> HttpResponse:
        jurisdiction = _managed(request)
        if request.POST.get("form") == "readjustment":
            return self._readjustment(request, jurisdiction)
        pack = get_pack(jurisdiction.code)
        choices = [(p.name, p.name) for p in pack.iter_parameters()]
        form = AgencyValueForm(request.POST, parameters=choices)
        if form.is_valid():
            data = form.cleaned_data
            try:
                value = parse_value(pack.parameters[data["parameter"]].type, data["value"])
                agency_values.set_agency_value(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    parameter=data["parameter"],
                    valid_from=data["valid_from"],
                    value=value,
                    cite=data["cite"],
                    reason=data["reason"],
                )
            except ValidationError as error:
                form.add_error("value", error)
            else:
                messages.success(
                    request,
                    f"Valor de {data['parameter']} registrado a partir de {data['valid_from']:%d/%m/%Y}.",
                )
                return redirect(f"{request.path}?j={jurisdiction.code}")
        return render(request, "web/law/law_values.html", self._context(jurisdiction, form), status=400)

    def _readjustment(self, request: HttpRequest, jurisdiction: Jurisdiction) -> HttpResponse:
        """A fare readjustment on its typed form: checked against the base's own date, then stored as
        a dated value of the parameter with its act (audited, like any agency value)."""
        if not get_pack(jurisdiction.code).has(READJUSTMENT):
            raise Http404
        form = ReadjustmentForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            base = entry(jurisdiction.code, BASE_FINE, data["valid_from"])
            try:
                if base is None or data["valid_from"] <= base.start:
                    since = f" desde {base.start:%d/%m/%Y} ({base.citation})" if base is not None else ""
                    raise ValidationError(
                        f"O valor base vale{since}: o reajuste deve ser posterior a essa data."
                    )
                agency_values.set_agency_value(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    parameter=READJUSTMENT,
                    valid_from=data["valid_from"],
                    value=data["percent"],
                    cite=data["cite"],
                    reason=data["reason"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                since = data["valid_from"]
                text = f"Reajuste de {_percent(data['percent'])} registrado a partir de {since:%d/%m/%Y}."
                messages.success(request, text)
                return redirect(f"{request.path}?j={jurisdiction.code}#reajustes")
        context = self._context(jurisdiction, None, readjustment=form)
        return render(request, "web/law/law_values.html", context, status=400)


class AgencyValueDetail(LoginRequiredMixin, View):
    model = AgencyValue

    def get_object(self, request: HttpRequest, pk: int) -> AgencyValue:
        access = request.access  # type: ignore[attr-defined]
        if not (access.is_staff_member or access.operator):
            raise Http404
        obj: AgencyValue = get_object_or_404(AgencyValue.objects.all(), pk=pk)
        return obj

    def _render(
        self, request: HttpRequest, obj: AgencyValue, form: AnnulForm, status: int = 200
    ) -> HttpResponse:
        access = request.access  # type: ignore[attr-defined]
        can_annul = obj.annulled_at is None and access.has_role(obj.jurisdiction_id, "gestor")
        return render(
            request,
            "web/law/agency_value.html",
            {
                "object": obj,
                "title": str(obj),
                "form": form,
                "can_annul": can_annul,
                "events": history(obj)[:50],
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(request, pk), AnnulForm())

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self.get_object(request, pk)
        access = request.access  # type: ignore[attr-defined]
        if not access.has_role(obj.jurisdiction_id, "gestor"):
            return HttpResponse("Só o gestor anula valores informados pelo órgão.", status=403)
        form = AnnulForm(request.POST)
        if form.is_valid():
            try:
                agency_values.annul_agency_value(
                    actor=request.user, value=obj, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                form.add_error("reason", error)
            else:
                messages.success(request, "Valor anulado.")
                return redirect("law:value", pk=obj.pk)
        return self._render(request, obj, form, status=400)
