"""The manager's screen for the values the agency supplies to its law (see lotacao.core.law)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core import open_values
from lotacao.core.formats import brl
from lotacao.core.law import entry, pack_for
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.law.packs import get_pack
from lotacao.web import agency_values
from lotacao.web.forms_law import AnnulForm, ReadjustmentForm
from lotacao.web.value_forms import TypedValueForm, describe, shape

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
        self, jurisdiction: Jurisdiction, readjustment: ReadjustmentForm | None = None
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
                    "blocks": open_values.blocks(param.name),
                    "typed": bool(shape(pack, param)),
                    "url": value_url(jurisdiction.code, param.name),
                }
            )
        rows.sort(key=lambda r: (r["entry"].status == "value", not r["blocks"], r["description"]))
        values = AgencyValue.objects.filter(jurisdiction=jurisdiction).select_related("created_by")
        descriptions = {p.name: p.description for p in pack.iter_parameters()}
        return {
            "jurisdiction": jurisdiction,
            "rows": rows,
            "checklist": [r for r in rows if r["entry"].status == "undefined"],
            "typed_rows": [r for r in rows if r["typed"]],
            "engine_only": sum(1 for r in rows if not r["typed"]),
            "values": [{"row": v, "description": descriptions.get(v.parameter, "")} for v in values],
            "title": "Valores da lei",
            "undefined": sum(1 for r in rows if r["entry"].status == "undefined"),
            "readjustments": _readjustments(jurisdiction, readjustment),
        }

    def get(self, request: HttpRequest) -> HttpResponse:
        jurisdiction = _managed(request)
        return render(request, "web/law/law_values.html", self._context(jurisdiction))

    def post(self, request: HttpRequest) -> HttpResponse:
        jurisdiction = _managed(request)
        if request.POST.get("form") == "readjustment":
            return self._readjustment(request, jurisdiction)
        raise Http404  # each value has its own typed form (ParameterValue)

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
        context = self._context(jurisdiction, readjustment=form)
        return render(request, "web/law/law_values.html", context, status=400)


def value_url(code: str, parameter: str) -> str:
    return reverse("law:parameter") + f"?j={code}&p={parameter}"


class ParameterValue(LoginRequiredMixin, View):
    """The typed form of one parameter (lists as rows, durations as number and unit, money as R$,
    dates as dd/mm/aaaa, groups as choices); a saved value closes the manager's work item."""

    def _form(self, request: HttpRequest, jurisdiction: Jurisdiction, name: str) -> TypedValueForm:
        pack = get_pack(jurisdiction.code)
        if not pack.has(name):
            raise Http404
        today = timezone.localdate()
        own = pack_for(jurisdiction.code).resolve(name, today)
        current = own.value if own.status == "value" else None
        rows = int(request.GET.get("linhas") or 0) if (request.GET.get("linhas") or "").isdigit() else 0
        data = request.POST if request.method == "POST" else None
        initial = {"valid_from": today}
        return TypedValueForm(
            data,
            pack=pack,
            parameter=pack.parameters[name],
            current=current,
            rows=min(rows, 200),
            initial=initial,
        )

    def _render(
        self, request: HttpRequest, jurisdiction: Jurisdiction, form: TypedValueForm, status: int = 200
    ) -> HttpResponse:
        today = timezone.localdate()
        param = form.parameter
        return render(
            request,
            "web/law/value_form.html",
            {
                "jurisdiction": jurisdiction,
                "form": form,
                "parameter": param,
                "title": param.description,
                "entry": pack_for(jurisdiction.code).resolve(param.name, today),
                "blocks": open_values.blocks(param.name),
                "more_rows": form.row_count + 5,
            },
            status=status,
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        jurisdiction = _managed(request)
        name = request.GET.get("p", "")
        return self._render(request, jurisdiction, self._form(request, jurisdiction, name))

    def post(self, request: HttpRequest) -> HttpResponse:
        jurisdiction = _managed(request)
        name = request.GET.get("p") or request.POST.get("p", "")
        form = self._form(request, jurisdiction, name)
        if form.is_valid():
            data = form.cleaned_data
            try:
                agency_values.set_agency_value(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    parameter=name,
                    valid_from=data["valid_from"],
                    value=data["the_value"],
                    cite=data["cite"],
                    reason=data["reason"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(
                    request,
                    f"{form.parameter.description}: valor registrado a partir de "
                    f"{data['valid_from']:%d/%m/%Y}.",
                )
                return redirect(f"{reverse('law:values')}?j={jurisdiction.code}")
        return self._render(request, jurisdiction, form, status=400)


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
        pack = get_pack(obj.jurisdiction_id)
        description, value_words = "Valor informado", str(obj.value)
        if pack.has(obj.parameter):
            param = pack.parameters[obj.parameter]
            description, value_words = param.description, describe(pack, param, obj.value)
        return render(
            request,
            "web/law/agency_value.html",
            {
                "object": obj,
                "title": f"{description} desde {obj.valid_from:%d/%m/%Y}",
                "description": description,
                "value_words": value_words,
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
