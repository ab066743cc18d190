"""The screens of the tenders (`/editais/`): staff list and draw up calls, register applications,
rank, record the draw's seed and hold it, publish, take and judge appeals, and award; the public
page (`/editais/publico/`) shows published rankings without CPFs, names abridged. Rows come through
the scoped managers: a call outside the user's scope is a 404."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import clean_plate
from lotacao.permits.eligibility import CRITERIA_LABELS
from lotacao.registry.models import Company, Holder, Line, Vehicle
from lotacao.tenders import selectors, services, states
from lotacao.tenders.models import Call, TenderAppeal, TenderApplication

VIEW_ROLES = ("gestor", "atendente", "fiscal", "comissao")


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _codes(request: HttpRequest, roles: tuple[str, ...]) -> list[str]:
    access = _access(request)
    if access is None:
        return []
    if access.operator:
        return list(Jurisdiction.objects.values_list("code", flat=True))
    return sorted(code for code, held in access.roles.items() if held & set(roles))


def _roles(request: HttpRequest, code: str) -> set[str]:
    access = _access(request)
    if access is None:
        return set()
    if access.operator:
        return {"gestor", "atendente", "comissao"}
    return set(access.roles.get(code, set()))


def _require_staff(request: HttpRequest) -> None:
    if not _codes(request, VIEW_ROLES):
        raise PermissionDenied("Seu perfil não tem acesso aos editais.")


def _date(raw: str, label: str) -> dt.date:
    try:
        return dt.date.fromisoformat((raw or "").strip())
    except ValueError as error:
        raise ValidationError(f"Informe {label} (dd/mm/aaaa).") from error


class CallList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        _require_staff(request)
        rows = Call.objects.select_related("line")[:200]
        return render(
            request,
            "tenders/calls.html",
            {"title": "Editais de seleção", "rows": rows, "can_create": bool(_codes(request, ("gestor",)))},
        )


class CallCreate(LoginRequiredMixin, View):
    def _context(self, request: HttpRequest, errors: list[str], data: Any) -> dict[str, Any]:
        codes = _codes(request, ("gestor",))
        return {
            "title": "Novo edital",
            "errors": errors,
            "data": data,
            "lines": Line.objects.filter(jurisdiction_id__in=codes, active=True).order_by(
                "jurisdiction_id", "code"
            ),
            "edital_criteria": [(c, CRITERIA_LABELS[c]) for c in selectors.EDITAL_CRITERIA],
        }

    def _check(self, request: HttpRequest) -> None:
        if not _codes(request, ("gestor",)):
            raise PermissionDenied("Só o gestor elabora editais.")

    def get(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        return render(request, "tenders/call_form.html", self._context(request, [], {}))

    def post(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        data = request.POST
        try:
            line = Line.objects.filter(
                pk=data.get("linha") or 0, jurisdiction_id__in=_codes(request, ("gestor",))
            ).first()
            if line is None:
                raise ValidationError("Escolha a linha do edital.")
            try:
                places = int(data.get("vagas") or 0)
            except ValueError as error:
                raise ValidationError("Informe o número de vagas.") from error
            until = data.get("validade", "").strip()
            call = services.create_call(
                actor=request.user,
                jurisdiction=line.jurisdiction,
                number=data.get("numero", ""),
                subject=data.get("objeto", ""),
                line=line,
                places=places,
                opens_on=_date(data.get("abertura", ""), "o início das inscrições"),
                closes_on=_date(data.get("encerramento", ""), "o fim das inscrições"),
                edital_criteria=data.getlist("criterios"),
                tie_break_clause=data.get("desempate", ""),
                count_provisional_time=data.get("provisorias") == "1",
                permit_valid_until=_date(until, "a validade das permissões") if until else None,
                reason="Edital elaborado pelo gestor",
            )
        except ValidationError as error:
            return render(
                request, "tenders/call_form.html", self._context(request, error.messages, data), status=422
            )
        messages.success(request, "Edital cadastrado.")
        return HttpResponseRedirect(reverse("tenders:call", args=[call.pk]))


def _holder_by_document(code: str, raw: str) -> Holder:
    digits = "".join(ch for ch in raw or "" if ch.isdigit())
    holder: Holder | None = (
        Holder.objects.filter(jurisdiction_id=code, person__cpf=digits).first()
        or Holder.objects.filter(jurisdiction_id=code, company__cnpj=digits).first()
    )
    if holder is None:
        raise ValidationError(
            "CPF ou CNPJ sem cadastro de permissionário nesta jurisdição: cadastre-o antes."
        )
    return holder


class CallDetail(LoginRequiredMixin, View):
    model = Call

    def _render(self, request: HttpRequest, call: Call, errors: list[str], status: int = 200) -> HttpResponse:
        today = timezone.localdate()
        return render(
            request,
            "tenders/call.html",
            {
                "title": str(call),
                "call": call,
                "today": today,
                "criteria": selectors.criteria_words(call),
                "obligations": selectors.winner_obligations(call),
                "ranking": selectors.ranking(call),
                "appeals": TenderAppeal.objects.filter(call=call).select_related("application"),
                "actions": [
                    t
                    for t in states.actions(call, _roles(request, call.jurisdiction_id))
                    if t.name not in ("apply", "appeal", "judge", "disqualify", "reopen")
                ],
                "can_apply": bool(states.actions(call, _roles(request, call.jurisdiction_id)))
                and call.status == Call.Status.OPEN,
                "can_appeal": call.status == Call.Status.APPEALS
                and bool(_roles(request, call.jurisdiction_id) & set(states.CLERKS)),
                "can_judge": call.status == Call.Status.APPEALS
                and bool(_roles(request, call.jurisdiction_id) & set(states.STAFF)),
                "events": history(call)[:30],
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        call = get_object_or_404(Call.objects.select_related("line"), pk=pk)
        return self._render(request, call, [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        call = get_object_or_404(Call.objects.select_related("line"), pk=pk)
        action = request.POST.get("acao", "")
        transition = states.BY_NAME.get(action)
        if transition is None or not set(transition.roles) & _roles(request, call.jurisdiction_id):
            raise PermissionDenied("Seu perfil não permite esta ação no edital.")
        try:
            self._act(request, call, action)
        except ValidationError as error:
            call.refresh_from_db()
            return self._render(request, call, error.messages, status=422)
        messages.success(request, f"{transition.label}: feito.")
        return HttpResponseRedirect(reverse("tenders:call", args=[call.pk]))

    def _act(self, request: HttpRequest, call: Call, action: str) -> None:
        data, user = request.POST, request.user
        reason = data.get("motivo", "").strip() or states.BY_NAME[action].label
        if action == "open":
            services.open_call(actor=user, call=call, reason=reason)
        elif action == "apply":
            holder = _holder_by_document(call.jurisdiction_id, data.get("documento", ""))
            plate = clean_plate(data.get("placa", ""))
            vehicle = Vehicle.objects.filter(jurisdiction_id=call.jurisdiction_id, plate=plate).first()
            if vehicle is None:
                raise ValidationError(f"A placa {plate} não é de um veículo cadastrado nesta jurisdição.")
            association = None
            if data.get("associacao", "").strip():
                digits = "".join(ch for ch in data["associacao"] if ch.isdigit())
                association = Company.objects.filter(
                    jurisdiction_id=call.jurisdiction_id, cnpj=digits
                ).first()
                if association is None:
                    raise ValidationError("CNPJ da associação sem cadastro nesta jurisdição.")
            services.file_application(
                actor=user, call=call, holder=holder, vehicle=vehicle, association=association, reason=reason
            )
        elif action == "close":
            services.close_call(actor=user, call=call, reason=reason)
        elif action == "rank":
            services.rank_call(actor=user, call=call, reason=reason)
        elif action == "record_seed":
            services.record_seed(
                actor=user,
                call=call,
                seed=data.get("semente", ""),
                published_in=data.get("publicada_em", ""),
                reason=reason,
            )
        elif action == "draw":
            services.draw_ties(actor=user, call=call, reason=reason)
        elif action == "publish":
            services.publish_ranking(
                actor=user,
                call=call,
                appeals_from=_date(data.get("recursos_de", ""), "o início do prazo de recurso"),
                appeals_until=_date(data.get("recursos_ate", ""), "o fim do prazo de recurso"),
                reason=reason,
            )
        elif action == "open_appeals":
            services.open_appeals(actor=user, call=call, reason=reason)
        elif action == "appeal":
            application = get_object_or_404(
                TenderApplication.objects.filter(call=call), number=data.get("inscricao") or 0
            )
            services.file_appeal(
                actor=user, application=application, grounds=data.get("razoes", ""), reason=reason
            )
        elif action == "judge":
            appeal = get_object_or_404(TenderAppeal.objects.filter(call=call), pk=data.get("recurso") or 0)
            services.judge_appeal(
                actor=user,
                appeal=appeal,
                granted=data.get("resultado") == "provido",
                decision=data.get("fundamentos", ""),
                reason=reason,
            )
        elif action == "disqualify":
            application = get_object_or_404(
                TenderApplication.objects.filter(call=call), number=data.get("inscricao") or 0
            )
            if not data.get("motivo", "").strip():
                raise ValidationError("Informe o motivo da desclassificação.")
            services.disqualify(actor=user, application=application, reason=reason)
        elif action == "award":
            services.award_call(actor=user, call=call, reason=reason)
        elif action == "cancel":
            if not data.get("motivo", "").strip():
                raise ValidationError("Informe o motivo do cancelamento.")
            services.cancel_call(actor=user, call=call, reason=reason)


class PublicRankings(View):
    """The published rankings (no sign-in): numbers, abridged names, positions, the draw's seed
    and result; never a CPF, CNPJ or address."""

    def get(self, request: HttpRequest) -> HttpResponse:
        calls = selectors.public_calls(request.GET.get("jurisdicao", ""), request.GET.get("edital", ""))
        return render(request, "tenders/public.html", {"title": "Resultados de editais", "calls": calls})
