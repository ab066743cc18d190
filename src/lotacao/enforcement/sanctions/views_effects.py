"""Screens of the effects of final decisions (lotacao.enforcement.sanctions.effects): open revocation
processes (record the authority's act), suspensions awaiting proof (record it), Esteio's
interventions (decree, open the procedure, conclude). Staff of the jurisdiction see them; the
gestor acts. Rows come from the scoped managers: another jurisdiction's row is a 404."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.views import View

from lotacao.audit.views_base import ScopedDetailView
from lotacao.chartering.models import Sanction as CrcSanction
from lotacao.core.dateinputs import DateField
from lotacao.enforcement import permissions
from lotacao.enforcement.models import Intervention, RevocationProcess, SuspensionFollowUp
from lotacao.enforcement.sanctions import crc, followups, interventions
from lotacao.permits.models import Permit

VIEW_ROLES = ("atendente", "gestor", "comissao")
ACT_ROLES = ("gestor",)
HOME = "/fiscalizacao/efeitos/"


def _date(label: str) -> forms.DateField:
    return DateField(label=label)


def _text(label: str, rows: int = 0) -> forms.CharField:
    widget = forms.Textarea(attrs={"rows": rows}) if rows else forms.TextInput()
    return forms.CharField(label=label, widget=widget, required=False)


class ActForm(forms.Form):
    act = _text("Ato da cassação (decreto, portaria)")
    on = _date("Data do ato")
    reason = _text("Motivo", 2)


class DismissForm(forms.Form):
    on = _date("Data do arquivamento")
    reason = _text("Motivo do arquivamento", 2)


class ProofForm(forms.Form):
    proved_on = _date("Comprovado em")
    note = _text("Comprovação apresentada", 3)
    reason = _text("Motivo", 2)


class ExtendForm(forms.Form):
    notice = _text("Auto de infração da reincidência (número, ex.: AI-2027-000012)")
    extra_days = forms.IntegerField(label="Dias a acrescentar", min_value=1)
    reason = _text("Motivo", 2)


class EndForm(forms.Form):
    on = _date("Encerrar em")
    cure_proof = _text("Comprovação de que a irregularidade foi sanada", 3)
    reason = _text("Motivo", 2)


class OpenProcedureForm(forms.Form):
    opened_on = _date("Procedimento instaurado em")
    reason = _text("Motivo (ato de instauração)", 2)


class ConcludeForm(forms.Form):
    concluded_on = _date("Concluído em")
    outcome_note = _text("Resultado (prestação de contas, devolução, inquérito)", 3)
    nullity = forms.BooleanField(label="Declarar a nulidade (art. 44, § 1º)", required=False)
    reason = _text("Motivo", 2)


class DecreeForm(forms.Form):
    permit = forms.ModelChoiceField(label="Permissão", queryset=Permit.objects.none())
    decree = _text("Decreto")
    decreed_on = DateField(label="Data do decreto", required=False)
    interventor = _text("Interventor")
    term_until = DateField(label="Prazo da intervenção", required=False)
    goals = _text("Objetivos", 3)
    limits = _text("Limites da medida", 3)
    reason = _text("Motivo", 2)

    def __init__(self, *args: Any, permits: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["permit"].queryset = permits  # type: ignore[attr-defined]


def _intervention_permits(request: HttpRequest) -> Any:
    today = timezone.localdate()
    codes = [
        code
        for code in permissions.jurisdictions_for(getattr(request, "access", None), ACT_ROLES)
        if interventions.intervention_allowed(code, today)
    ]
    return Permit.objects.filter(jurisdiction_id__in=codes, status__in=interventions.LIVE).order_by("number")


class EffectsHome(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        if not permissions.jurisdictions_for(getattr(request, "access", None), VIEW_ROLES):
            raise Http404("Sem perfil de fiscalização.")
        S = SuspensionFollowUp.Status
        context = {
            "title": "Efeitos das decisões definitivas",
            "processes": RevocationProcess.objects.filter(status=RevocationProcess.Status.OPEN)
            .select_related("permit")
            .order_by("opened_on"),
            "followups": SuspensionFollowUp.objects.filter(
                status__in=[S.RUNNING, S.AWAITING_PROOF, S.REVOCATION_OPENED]
            )
            .select_related("permit")
            .order_by("ends_on"),
            "interventions": Intervention.objects.select_related("permit").order_by("-decreed_on")[:100],
            "crc_sanctions": CrcSanction.objects.filter(status=CrcSanction.Status.IN_FORCE)
            .select_related("company__holder__company")
            .order_by("ends_on", "id"),
            "can_decree": _intervention_permits(request).exists(),
            "home": HOME,
        }
        return render(request, "enforcement/sanctions/effects_home.html", context)


class _EffectPage(ScopedDetailView):
    """GET: the row, its history and the forms; POST (gestor): one action, `acao` names it."""

    template_name = "enforcement/sanctions/effects_object.html"
    forms: ClassVar[dict[str, tuple[str, type[forms.Form]]]] = {}

    def get_object(self, pk: int) -> Any:
        obj: Any = super().get_object(pk)
        permissions.require(self.request, obj.jurisdiction_id, VIEW_ROLES)
        return obj

    def open_actions(self, obj: Any) -> list[str]:
        return list(self.forms)

    def extra_context(self, obj: Any) -> dict[str, Any]:
        can_act = permissions.allowed(getattr(self.request, "access", None), obj.jurisdiction_id, ACT_ROLES)
        bound = getattr(self, "_bound", {})
        actions = [
            (name, self.forms[name][0], bound.get(name) or self.forms[name][1](prefix=name))
            for name in self.open_actions(obj)
        ]
        return {"actions": actions if can_act else [], "home": HOME, "effects": getattr(obj, "citations", [])}

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self.get_object(pk)
        permissions.require(request, obj.jurisdiction_id, ACT_ROLES)
        name = request.POST.get("acao", "")
        if name not in self.open_actions(obj):
            raise Http404("Ação indisponível.")
        form = self.forms[name][1](request.POST, prefix=name)
        if form.is_valid():
            try:
                self.act(name, obj, form.cleaned_data)
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                return HttpResponseRedirect(request.path)
        self._bound = {name: form}
        response = self.get(request, pk)
        response.status_code = 422
        return response

    def act(self, name: str, obj: Any, data: dict[str, Any]) -> None:
        raise NotImplementedError


class RevocationProcessPage(_EffectPage):
    model = RevocationProcess
    fields: ClassVar[list[tuple[str, str]]] = [
        ("Permissão", "permit"),
        ("Situação", "status"),
        ("Aberto em", "opened_on"),
        ("Motivo", "cause"),
        ("Quem decide", "decided_by_label"),
        ("Ato", "act"),
        ("Encerrado em", "closed_on"),
    ]
    forms: ClassVar[dict[str, tuple[str, type[forms.Form]]]] = {
        "ato": ("Registrar o ato de cassação", ActForm),
        "arquivar": ("Arquivar sem cassar", DismissForm),
    }

    def open_actions(self, obj: Any) -> list[str]:
        return list(self.forms) if obj.status == RevocationProcess.Status.OPEN else []

    def act(self, name: str, obj: Any, data: dict[str, Any]) -> None:
        if name == "ato":
            followups.record_revocation_act(
                actor=self.request.user, process=obj, act=data["act"], on=data["on"], reason=data["reason"]
            )
        else:
            followups.dismiss_revocation_process(
                actor=self.request.user, process=obj, on=data["on"], reason=data["reason"]
            )


class SuspensionFollowUpPage(_EffectPage):
    model = SuspensionFollowUp
    fields: ClassVar[list[tuple[str, str]]] = [
        ("Permissão", "permit"),
        ("Auto", "notice"),
        ("Situação", "status"),
        ("Início", "starts_on"),
        ("Fim", "ends_on"),
        ("Exige comprovação", "requires_proof"),
        ("Comprovado em", "proved_on"),
        ("Comprovação", "proof_note"),
    ]
    forms: ClassVar[dict[str, tuple[str, type[forms.Form]]]] = {
        "comprovacao": ("Registrar a comprovação das correções", ProofForm),
    }

    def open_actions(self, obj: Any) -> list[str]:
        done = obj.proved_on is not None or obj.status == SuspensionFollowUp.Status.ENDED
        return [] if done or not obj.requires_proof else list(self.forms)

    def act(self, name: str, obj: Any, data: dict[str, Any]) -> None:
        followups.record_suspension_proof(
            actor=self.request.user,
            followup=obj,
            proved_on=data["proved_on"],
            note=data["note"],
            reason=data["reason"],
        )


class CrcSanctionPage(_EffectPage):
    """A CRC sanction a final decision applied (Pernambuco): the manager extends it for a new
    offence of the company during it (art. 31: up to double the original term) and ends it after
    the term with the proof of cure (art. 30, § 1º)."""

    model = CrcSanction
    template_name = "enforcement/sanctions/crc_sanction.html"
    fields: ClassVar[list[tuple[str, str]]] = [
        ("Empresa", "company"),
        ("Sanção", "kind"),
        ("Situação", "status"),
        ("Início", "starts_on"),
        ("Fim do prazo", "ends_on"),
        ("Prazo original (dias)", "original_days"),
        ("Prazo atual (dias)", "days"),
        ("Decisão", "decision_reference"),
        ("Fundamentos de fato", "grounds"),
        ("Comprovação de que a irregularidade foi sanada", "cure_proof"),
        ("Encerrada em", "ended_on"),
    ]
    forms: ClassVar[dict[str, tuple[str, type[forms.Form]]]] = {
        "majorar": ("Majorar o prazo pela reincidência (art. 31)", ExtendForm),
        "encerrar": ("Encerrar a sanção (art. 30, § 1º)", EndForm),
    }

    def open_actions(self, obj: Any) -> list[str]:
        in_force = obj.status == CrcSanction.Status.IN_FORCE and obj.days is not None
        return list(self.forms) if in_force else []

    def extra_context(self, obj: Any) -> dict[str, Any]:
        context = super().extra_context(obj)
        ceiling = crc.ceiling(obj)
        context.update(
            extensions=obj.extensions,
            ceiling=ceiling,
            room=(ceiling - obj.days) if ceiling is not None and obj.days is not None else None,
            repeats=crc.repeat_notices(obj)[:20] if self.open_actions(obj) else [],
        )
        return context

    def act(self, name: str, obj: Any, data: dict[str, Any]) -> None:
        if name == "majorar":
            number = (data["notice"] or "").strip().upper()
            notice = crc.repeat_notices(obj).filter(number=number).first()
            if notice is None:
                raise ValidationError(
                    f"Nenhum auto {number or '(vazio)'} da empresa lavrado durante a sanção: "
                    "informe o número de um dos autos listados."
                )
            crc.extend_for_notice(
                actor=self.request.user,
                sanction=obj,
                notice=notice,
                extra_days=data["extra_days"],
                reason=data["reason"],
            )
        else:
            crc.end(
                actor=self.request.user,
                sanction=obj,
                cure_proof=data["cure_proof"],
                on=data["on"],
                reason=data["reason"],
            )


class InterventionPage(_EffectPage):
    model = Intervention
    fields: ClassVar[list[tuple[str, str]]] = [
        ("Permissão", "permit"),
        ("Situação", "status"),
        ("Decreto", "decree"),
        ("Decretada em", "decreed_on"),
        ("Interventor", "interventor"),
        ("Prazo da intervenção", "term_until"),
        ("Objetivos", "goals"),
        ("Limites", "limits"),
        ("Instaurar o procedimento até", "procedure_due"),
        ("Procedimento instaurado em", "procedure_opened_on"),
        ("Concluir até", "conclusion_due"),
        ("Concluída em", "concluded_on"),
        ("Resultado", "outcome_note"),
    ]
    forms: ClassVar[dict[str, tuple[str, type[forms.Form]]]] = {
        "instaurar": ("Instaurar o procedimento administrativo (art. 44)", OpenProcedureForm),
        "concluir": ("Concluir o procedimento (arts. 44 e 45)", ConcludeForm),
    }

    def open_actions(self, obj: Any) -> list[str]:
        if obj.status == Intervention.Status.DECREED:
            return ["instaurar"]
        if obj.status == Intervention.Status.PROCEDURE_OPEN:
            return ["concluir"]
        return []

    def act(self, name: str, obj: Any, data: dict[str, Any]) -> None:
        if name == "instaurar":
            interventions.open_intervention_procedure(
                actor=self.request.user, intervention=obj, opened_on=data["opened_on"], reason=data["reason"]
            )
        else:
            interventions.conclude_intervention(
                actor=self.request.user,
                intervention=obj,
                concluded_on=data["concluded_on"],
                outcome_note=data["outcome_note"],
                nullity=bool(data.get("nullity")),
                reason=data["reason"],
            )


class InterventionCreate(LoginRequiredMixin, View):
    """The decree of intervention, only for permits of laws that provide for it."""

    def _render(self, request: HttpRequest, form: DecreeForm, status: int = 200) -> HttpResponse:
        context = {"title": "Decretar intervenção", "form": form, "home": HOME}
        return render(request, "enforcement/sanctions/effects_decree.html", context, status=status)

    def _permits(self, request: HttpRequest) -> Any:
        permits = _intervention_permits(request)
        if not permits.exists():
            raise Http404("Nenhuma permissão sob lei que preveja intervenção no seu perfil.")
        return permits

    def get(self, request: HttpRequest) -> HttpResponse:
        return self._render(request, DecreeForm(permits=self._permits(request)))

    def post(self, request: HttpRequest) -> HttpResponse:
        form = DecreeForm(request.POST, permits=self._permits(request))
        if form.is_valid():
            data = form.cleaned_data
            try:
                item = interventions.decree_intervention(actor=request.user, **data)
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                return HttpResponseRedirect(f"{HOME}intervencoes/{item.pk}/")
        return self._render(request, form, status=422)
