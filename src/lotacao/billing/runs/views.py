"""Screens of the monthly run and of the demand declarations (staff and the holder's portal)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from lotacao.audit import separation
from lotacao.audit.services import history
from lotacao.billing import permissions
from lotacao.billing.forms import CorrectionForm, DeclarationForm, RunForm
from lotacao.billing.runs import services
from lotacao.billing.runs.declarations import FIELDS, correct_declaration, declare_demand, parse_month
from lotacao.billing.runs.models import BillingRun, DemandDeclaration
from lotacao.billing.runs.planner import computation
from lotacao.billing.viewkit import access, attempt, jurisdictions, require, today
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Holder, Line


class RunList(LoginRequiredMixin, View):
    def render(self, request: HttpRequest, form: RunForm | None = None) -> HttpResponse:
        places = jurisdictions(request, permissions.OFFICE)
        return render(
            request,
            "billing/runs.html",
            {
                "title": "Faturamento mensal",
                "runs": BillingRun.objects.select_related("jurisdiction")[:100],
                "form": form
                or (
                    RunForm(jurisdictions=places, initial={"period": f"{today():%m/%Y}"}) if places else None
                ),
            },
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request)

    def post(self, request: HttpRequest) -> HttpResponse:
        form = RunForm(request.POST, jurisdictions=jurisdictions(request, permissions.OFFICE))
        if form.is_valid():
            data = form.cleaned_data
            jurisdiction = Jurisdiction.objects.get(code=data["jurisdiction"])
            run = attempt(
                request,
                form,
                lambda: services.simulate(
                    actor=request.user,
                    jurisdiction=jurisdiction,
                    period=parse_month(data["period"]),
                    reason=data["reason"],
                ),
                "Simulação registrada: confira as cobranças previstas.",
            )
            if run is not None:
                return redirect("billing:run", run.pk)
        return self.render(request, form)


class RunDetail(LoginRequiredMixin, View):
    model = BillingRun

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        run = get_object_or_404(BillingRun.objects.select_related("jurisdiction"), pk=pk)
        total = sum(float(line["amount"]) for line in run.plan)
        lines = [{**line, "computation": computation(line)} for line in run.plan]
        return render(
            request,
            "billing/run.html",
            {
                "title": str(run),
                "run": run,
                "lines": lines,
                "total": f"{total:.2f}",
                "manager": permissions.has(access(request), run.jurisdiction_id, permissions.MANAGER),
                "approve_blocked": separation.blocked(
                    act="billing_run.approve", actor=request.user, first_id=run.created_by_id, instance=run
                ),
                "charges": run.charges.select_related("holder__person", "holder__company")[:500],
                "events": history(run)[:50],
            },
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        run = get_object_or_404(BillingRun.objects.all(), pk=pk)
        require(request, run.jurisdiction_id, permissions.MANAGER, "aprovar ou executar o faturamento")
        # The refusal (not approved, already executed, the same manager who simulated) is a
        # message on the run's page: an unbound form cannot hold errors (that was a 500).
        try:
            if "aprovar" in request.POST:
                services.approve(actor=request.user, run=run, reason="Aprovado pelo gestor")
                messages.success(request, "Faturamento aprovado.")
            elif "executar" in request.POST:
                services.execute(actor=request.user, run=run, reason="Executado pelo gestor")
                messages.success(request, "Faturamento executado: cobranças emitidas.")
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        return redirect("billing:run", run.pk)


def _lines_for(holder: Holder | None, code: str | None) -> list[tuple[str, str]]:
    """The jurisdiction's active lines (public information: a holder's scope does not reach them)."""
    if holder is None and not code:
        return []
    qs = Line.unscoped.filter(active=True, jurisdiction_id=holder.jurisdiction_id if holder else code)
    return [(str(line.pk), str(line)) for line in qs.order_by("code")]


class DeclarationList(LoginRequiredMixin, View):
    """Staff: every declaration in scope. A holder: their own, and the form to file the month's."""

    def holder(self, request: HttpRequest) -> Holder | None:
        acc = access(request)
        if acc is not None and acc.is_holder:
            holder: Holder = Holder.objects.get(pk=acc.holder_id)
            return holder
        return None

    def render(self, request: HttpRequest, form: DeclarationForm | None = None) -> HttpResponse:
        holder = self.holder(request)
        code = holder.jurisdiction_id if holder else request.GET.get("jurisdicao")
        last = (today().replace(day=1) - __import__("datetime").timedelta(days=1)).replace(day=1)
        return render(
            request,
            "billing/declarations.html",
            {
                "title": "Declarações de demanda",
                "declarations": DemandDeclaration.objects.select_related(
                    "holder__person", "holder__company", "line"
                )[:300],
                "form": form
                or (
                    DeclarationForm(lines=_lines_for(holder, code), initial={"month": f"{last:%m/%Y}"})
                    if holder
                    else None
                ),
            },
        )

    def get(self, request: HttpRequest) -> HttpResponse:
        return self.render(request)

    def post(self, request: HttpRequest) -> HttpResponse:
        holder = self.holder(request)
        if holder is None:
            raise PermissionDenied("A declaração pelo atendimento se faz na página do permissionário.")
        form = DeclarationForm(request.POST, lines=_lines_for(holder, holder.jurisdiction_id))
        if form.is_valid() and _file(request, form, holder, DemandDeclaration.Source.HOLDER):
            return redirect("billing:declarations")
        return self.render(request, form)


def _file(request: HttpRequest, form: DeclarationForm, holder: Holder, source: str) -> Any:
    data = form.cleaned_data
    try:
        month = parse_month(data["month"])
    except Exception as error:
        form.add_error("month", str(getattr(error, "message", error)))
        return None
    line = Line.unscoped.get(pk=int(data["line"]), jurisdiction_id=holder.jurisdiction_id)
    return attempt(
        request,
        form,
        lambda: declare_demand(
            actor=request.user,
            holder=holder,
            line=line,
            month=month,
            full_passengers=data["full_passengers"],
            reduced_passengers=data["reduced_passengers"],
            free_passengers=data["free_passengers"],
            km=data["km"],
            revenue=data["revenue"],
            source=source,
            reason=data["reason"],
            today=today(),
        ),
        "Declaração registrada.",
    )


class HolderDeclaration(LoginRequiredMixin, View):
    """A clerk files a holder's declaration (or the agency's survey) from the holder's ledger."""

    model = Holder

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        return super().dispatch(request, *args, **kwargs)

    def get_holder(self, pk: int) -> Holder:
        holder: Holder = get_object_or_404(Holder.objects.all(), pk=pk)
        return holder

    def render(
        self, request: HttpRequest, holder: Holder, form: DeclarationForm | None = None
    ) -> HttpResponse:
        return render(
            request,
            "billing/declaration_new.html",
            {
                "title": f"Declaração de demanda — {holder}",
                "holder": holder,
                "form": form or DeclarationForm(lines=_lines_for(holder, holder.jurisdiction_id)),
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render(request, self.get_holder(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        holder = self.get_holder(pk)
        require(request, holder.jurisdiction_id, permissions.OFFICE, "lançar declarações")
        form = DeclarationForm(request.POST, lines=_lines_for(holder, holder.jurisdiction_id))
        source = (
            DemandDeclaration.Source.SURVEY if "pesquisa" in request.POST else DemandDeclaration.Source.CLERK
        )
        if form.is_valid() and _file(request, form, holder, source):
            return redirect("billing:ledger", holder.pk)
        return self.render(request, holder, form)


class DeclarationDetail(LoginRequiredMixin, View):
    model = DemandDeclaration

    def get_object(self, pk: int) -> DemandDeclaration:
        obj: DemandDeclaration = get_object_or_404(
            DemandDeclaration.objects.select_related("holder", "line"), pk=pk
        )
        return obj

    def render(
        self, request: HttpRequest, decl: DemandDeclaration, form: CorrectionForm | None = None
    ) -> HttpResponse:
        office = permissions.has(access(request), decl.jurisdiction_id, permissions.OFFICE)
        initial = {name: getattr(decl, name) for name in FIELDS}
        return render(
            request,
            "billing/declaration.html",
            {
                "title": str(decl),
                "declaration": decl,
                "events": history(decl)[:50],
                "form": form or (CorrectionForm(initial=initial) if office else None),
            },
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self.render(request, self.get_object(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        decl = self.get_object(pk)
        require(request, decl.jurisdiction_id, permissions.OFFICE, "corrigir declarações")
        form = CorrectionForm(request.POST)
        if form.is_valid():
            data = dict(form.cleaned_data)
            reason = data.pop("reason")
            if attempt(
                request,
                form,
                lambda: correct_declaration(
                    actor=request.user, declaration=decl, changes=data, reason=reason
                ),
                "Declaração corrigida.",
            ):
                return redirect("billing:declaration", decl.pk)
        return self.render(request, decl, form)
