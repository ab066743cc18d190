"""Staff screens of the life of a line: change requests (filing, the operators' hearing, the study,
the decision), the end of a line and temporary changes. Thin: lotacao.lines.life validates."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.formats import lower_first
from lotacao.councils import gates
from lotacao.councils.models import Resolution
from lotacao.inspections import permissions
from lotacao.lines import change_states, life, maps
from lotacao.lines import law as lines_law
from lotacao.lines.forms_life import (
    AnswerForm,
    DecisionForm,
    EndForm,
    HearingForm,
    RequestForm,
    StepForm,
    StudyForm,
    TemporaryForm,
)
from lotacao.lines.models import ChangeRequest, HearingAnswer, LineEnd, TemporaryChange
from lotacao.lines.views import form_errors, line_url
from lotacao.registry.models import Company, Holder, Line

ROLES = ("gestor", "atendente")
DECIDERS = ("gestor",)


def _resolutions(code: str, keys: list[str], on: Any) -> Any:
    """The council's resolutions that can open these gates (lotacao.councils.gates)."""
    found = Resolution.objects.none()
    for key in keys:
        found = found | gates.valid_resolutions(code, key, on)
    return found


def request_url(req: ChangeRequest) -> str:
    return reverse("lines:request", kwargs={"pk": req.pk})


class RequestList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        rows = ChangeRequest.objects.select_related("line", "jurisdiction").order_by("-filed_on", "-number")[
            :200
        ]
        codes = permissions.jurisdictions_for(getattr(request, "access", None), ROLES)
        today = timezone.localdate()
        return render(
            request,
            "lines/requests.html",
            {
                "title": "Pedidos de alteração de linhas",
                "rows": rows,
                "can_create": any(lines_law.has_lines(c, today) for c in codes),
            },
        )


class RequestCreate(LoginRequiredMixin, View):
    """A request about a line (`pk`), or a request to create a line (no `pk`)."""

    model = Line

    def _target(self, request: HttpRequest, pk: int | None) -> tuple[str, Line | None]:
        if pk is not None:
            line = get_object_or_404(Line.objects.all(), pk=pk)
            return line.jurisdiction_id, line
        today = timezone.localdate()
        codes = [
            c
            for c in permissions.jurisdictions_for(getattr(request, "access", None), ROLES)
            if lines_law.has_lines(c, today)
        ]
        if not codes:
            raise PermissionDenied("Seu perfil não permite registrar pedidos de linha.")
        return codes[0], None

    def _form(self, code: str, line: Line | None, data: Any = None, files: Any = None) -> RequestForm:
        initial = {"origin": "agency", "kind": "itinerary" if line else "create"}
        return RequestForm(
            data,
            files,
            holders=Holder.objects.filter(jurisdiction_id=code).select_related("person"),
            initial=initial,
        )

    def _render(self, request: HttpRequest, line: Line | None, form: Any, status: int = 200) -> HttpResponse:
        title = f"Novo pedido — linha {line.code}" if line else "Pedido de criação de linha"
        return render(
            request,
            "lines/life_form.html",
            {"title": title, "line": line, "form": form, "multipart": True},
            status=status,
        )

    def get(self, request: HttpRequest, pk: int | None = None) -> HttpResponse:
        code, line = self._target(request, pk)
        permissions.require(request, code, ROLES)
        return self._render(request, line, self._form(code, line))

    def post(self, request: HttpRequest, pk: int | None = None) -> HttpResponse:
        code, line = self._target(request, pk)
        permissions.require(request, code, ROLES)
        form = self._form(code, line, request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            try:
                req = life.file_request(
                    actor=request.user,
                    jurisdiction_code=code,
                    line=line,
                    kind=data["kind"],
                    origin=data["origin"],
                    holder=data.get("holder"),
                    requester_name=data.get("requester_name") or "",
                    requester_contact=data.get("requester_contact") or "",
                    proposal=data["proposal"],
                    reasons=data["reasons"],
                    study=data.get("study") or "",
                    study_file=data.get("study_file"),
                )
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, f"Pedido nº {req.number} protocolado.")
                return HttpResponseRedirect(request_url(req))
        return self._render(request, line, form, status=422)


class RequestDetail(LoginRequiredMixin, View):
    model = ChangeRequest
    STEPS = ("hearing", "answer", "study", "to_study", "decide")

    def _get(self, pk: int) -> ChangeRequest:
        found: ChangeRequest = get_object_or_404(
            ChangeRequest.objects.select_related("line", "holder", "jurisdiction"), pk=pk
        )
        return found

    def _forms(
        self, req: ChangeRequest, data: Any = None, files: Any = None, step: str = ""
    ) -> dict[str, Any]:
        code = req.jurisdiction_id
        today = timezone.localdate()

        def bound(name: str) -> tuple[Any, Any]:
            return (data, files) if step == name else (None, None)

        return {
            "hearing": HearingForm(*bound("hearing")[:1], prefix="hearing"),
            "answer": AnswerForm(
                *bound("answer")[:1],
                prefix="answer",
                holders=Holder.objects.filter(jurisdiction_id=code).select_related("person"),
                entities=Company.objects.filter(jurisdiction_id=code),
                initial={"answered_on": today},
            ),
            "study": StudyForm(*bound("study"), prefix="study"),
            "to_study": StepForm(*bound("to_study")[:1], prefix="to_study"),
            "decide": DecisionForm(
                *bound("decide")[:1],
                prefix="decide",
                initial={"act_date": today},
                resolutions=_resolutions(code, life.council_gates(req), today),
                council=" ".join(gates.explain(code, k) for k in life.council_gates(req)),
            ),
        }

    def _render(
        self, request: HttpRequest, req: ChangeRequest, forms: dict[str, Any], status: int = 200
    ) -> HttpResponse:
        today = timezone.localdate()
        code = req.jurisdiction_id
        access = getattr(request, "access", None)
        rule = life.hearing_rule(code, today)
        buttons = {t.name: change_states.refusal(req, t.name) is None for t in change_states.TRANSITIONS}
        context = {
            "title": str(req),
            "req": req,
            "rule": rule,
            "study_required": life.study_required(req, rule),
            "answers": HearingAnswer.objects.filter(request=req).select_related("holder", "entity"),
            "forms": forms,
            "buttons": buttons,
            "can_edit": permissions.allowed(access, code, ROLES),
            "can_decide": permissions.allowed(access, code, DECIDERS),
            "draft": life.drafted_version(req),
            "events": history(req).select_related("actor")[:100],
        }
        return render(request, "lines/request.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        req = self._get(pk)
        return self._render(request, req, self._forms(req))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        req = self._get(pk)
        step = request.POST.get("step", "")
        if step not in self.STEPS:
            raise Http404("Passo desconhecido.")
        permissions.require(request, req.jurisdiction_id, DECIDERS if step == "decide" else ROLES)
        forms = self._forms(req, request.POST, request.FILES, step)
        form = forms[step]
        if form.is_valid():
            try:
                text = self._do(request, req, step, form.cleaned_data)
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, text)
                draft = life.drafted_version(req) if step == "decide" else None
                if draft is not None:  # the clerk continues in the version's screen
                    return HttpResponseRedirect(reverse("lines:approve", args=[draft.line_id]))
                return HttpResponseRedirect(request_url(req))
        return self._render(request, req, forms, status=422)

    def _do(self, request: HttpRequest, req: ChangeRequest, step: str, data: dict[str, Any]) -> str:
        actor = request.user
        if step == "hearing":
            life.open_hearing(actor=actor, request=req, until=data["until"], reason=data["reason"])
            return "Oitiva dos operadores aberta."
        if step == "answer":
            life.record_answer(
                actor=actor,
                request=req,
                party=data.get("party") or "",
                agrees=data["agrees"],
                text=data["text"],
                on=data["answered_on"],
                holder=data.get("holder"),
                entity=data.get("entity"),
            )
            return "Manifestação registrada."
        if step == "study":
            life.attach_study(
                actor=actor,
                request=req,
                study=data.get("study") or "",
                file=data.get("file"),
                reason=data["reason"],
            )
            return "Estudo anexado."
        if step == "to_study":
            life.to_study(actor=actor, request=req, reason=data["reason"])
            return "Pedido passado ao estudo."
        done = life.decide(
            actor=actor,
            request=req,
            approve=data["decision"] == "approve",
            reasons=data["reasons"],
            act=data["act"],
            act_date=data["act_date"],
            effective_on=data.get("effective_on"),
            resolution=data.get("resolution"),
        )
        draft = life.drafted_version(done)
        if draft is not None:
            return (
                f"Pedido {lower_first(done.get_status_display())}. A versão {draft.number} da linha foi "
                "criada como rascunho com a mudança pedida: redesenhe o que muda e aprove-a."
            )
        return f"Pedido {lower_first(done.get_status_display())}."


class RequestStudyFile(LoginRequiredMixin, View):
    model = ChangeRequest

    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        req = get_object_or_404(ChangeRequest.objects.all(), pk=pk)
        permissions.require(request, req.jurisdiction_id, ROLES)
        if not req.study_file:
            raise Http404("O pedido não tem arquivo de estudo.")
        extension = req.study_file.name.rsplit(".", 1)[-1]
        return FileResponse(
            req.study_file.open("rb"),
            content_type=req.study_content_type or "application/octet-stream",
            as_attachment=True,
            filename=f"estudo-pedido-{req.number}.{extension}",
        )


class LineEndCreate(LoginRequiredMixin, View):
    model = Line

    def _form(self, line: Line, data: Any = None) -> EndForm:
        today = timezone.localdate()
        fate, citation, reading = life.end_rule(line.jurisdiction_id, today)
        help_text = (
            f"A lei manda remanejar os permissionários para outra linha ({citation})."
            if fate == "move"
            else reading
        )
        return EndForm(
            data,
            lines=Line.objects.filter(jurisdiction_id=line.jurisdiction_id, active=True).exclude(pk=line.pk),
            requests=ChangeRequest.objects.filter(line=line, kind="end", status="approved"),
            fate_help=help_text,
            initial={"act_date": today, "fate": "move" if fate == "move" else ""},
            resolutions=_resolutions(line.jurisdiction_id, ["line.end"], today),
            council=gates.explain(line.jurisdiction_id, "line.end"),
        )

    def _render(self, request: HttpRequest, line: Line, form: Any, status: int = 200) -> HttpResponse:
        context = {
            "title": f"Extinguir a linha {line.code}",
            "line": line,
            "form": form,
            "rule": life.hearing_rule(line.jurisdiction_id, timezone.localdate()),
        }
        return render(request, "lines/life_form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = get_object_or_404(Line.objects.all(), pk=pk)
        permissions.require(request, line.jurisdiction_id, ROLES)  # the manager signs it (post)
        return self._render(request, line, self._form(line))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = get_object_or_404(Line.objects.all(), pk=pk)
        permissions.require(request, line.jurisdiction_id, DECIDERS)
        form = self._form(line, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                ending = life.end_line(
                    actor=request.user,
                    line=line,
                    effective_on=data["effective_on"],
                    act=data["act"],
                    act_date=data["act_date"],
                    reasons=data["reasons"],
                    fate=data.get("fate") or "",
                    target=data.get("target"),
                    request=data.get("request"),
                    resolution=data.get("resolution"),
                )
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(
                    request,
                    f"Extinção registrada: a linha deixa de operar em {ending.effective_on:%d/%m/%Y}.",
                )
                return HttpResponseRedirect(line_url(line))
        return self._render(request, line, form, status=422)


class TemporaryCreate(LoginRequiredMixin, View):
    model = Line

    def _render(self, request: HttpRequest, line: Line, form: Any, status: int = 200) -> HttpResponse:
        context = {
            "title": f"Alteração temporária — {line}",
            "line": line,
            "form": form,
            "map": maps.map_data(None),
            "center": maps.center(line.jurisdiction_id),
            **maps.tiles(),
        }
        return maps.allow_tiles(render(request, "lines/version_form.html", context, status=status))

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = get_object_or_404(Line.objects.all(), pk=pk)
        permissions.require(request, line.jurisdiction_id, ROLES)
        return self._render(request, line, TemporaryForm())

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = get_object_or_404(Line.objects.all(), pk=pk)
        permissions.require(request, line.jurisdiction_id, ROLES)
        form = TemporaryForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                life.add_temporary_change(
                    actor=request.user,
                    line=line,
                    cause=data["cause"],
                    description=data["description"],
                    starts_on=data["starts_on"],
                    ends_on=data["ends_on"],
                    suspended=data.get("suspended", False),
                    itinerary=data["itinerary"],
                    stops=data["stops"],
                    act=data["act"],
                    reason=data["reason"],
                )
            except ValidationError as error:
                form_errors(form, error)
            else:
                messages.success(request, "Alteração temporária registrada.")
                return HttpResponseRedirect(line_url(line))
        return self._render(request, line, form, status=422)


class TemporaryCancel(LoginRequiredMixin, View):
    model = TemporaryChange

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        change = get_object_or_404(TemporaryChange.objects.select_related("line"), pk=pk)
        permissions.require(request, change.jurisdiction_id, ROLES)
        context = {
            "title": f"Cancelar a alteração temporária — {change}",
            "line": change.line,
            "form": StepForm(),
        }
        return render(request, "lines/life_form.html", context)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        change = get_object_or_404(TemporaryChange.objects.select_related("line"), pk=pk)
        permissions.require(request, change.jurisdiction_id, ROLES)
        form = StepForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Informe o motivo do cancelamento.")
        else:
            try:
                life.cancel_temporary_change(
                    actor=request.user, change=change, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
            else:
                messages.success(request, "Alteração temporária cancelada.")
        return HttpResponseRedirect(line_url(change.line))


def line_context(line: Line) -> dict[str, Any]:
    """What the line page shows of the line's life."""
    today = timezone.localdate()
    return {
        "requests": ChangeRequest.objects.filter(line=line).order_by("-filed_on", "-number")[:20],
        "temporary": TemporaryChange.objects.filter(line=line).order_by("-starts_on"),
        "ending": LineEnd.objects.filter(line=line).select_related("target").first(),
        "today": today,
    }
