"""The permit's interruption requests (Maricá art. 38): a clerk records the holder's request,
checked with the engine; the manager authorizes or denies it, and for a request beyond the yearly
limit opens the revocation process (desistência, art. 38, parágrafo único; art. 58, IV) or files it
away. Where the law requires a prior authorization without a yearly limit (Recife), the page says
so and leads to the register of prior authorizations (lotacao.duties); where the law has no such
request, it says that."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from lotacao.core.law import entry
from lotacao.duties.rules import authorization_kinds
from lotacao.enforcement import permissions
from lotacao.enforcement.models import InterruptionRequest
from lotacao.enforcement.sanctions import interruptions
from lotacao.enforcement.views_base import ObjectView, access_of
from lotacao.permits.models import Permit


def _date(raw: str, label: str) -> dt.date:
    try:
        return dt.date.fromisoformat((raw or "").strip())
    except ValueError as error:
        raise ValidationError(f"Informe a data {label}.") from error


class PermitInterruptions(ObjectView):
    model = Permit

    def _render(
        self, request: HttpRequest, permit: Permit, errors: list[str], status: int = 200
    ) -> HttpResponse:
        access = access_of(request)
        today = timezone.localdate()
        rule = entry(permit.jurisdiction_id, interruptions.PARAMETER, today)
        context = {
            "title": f"Interrupção do serviço — {permit}",
            "permit": permit,
            "allowed": interruptions.allowed_by_law(permit, today),
            # Where the law has no yearly limit but requires a prior authorization to interrupt
            # (Recife art. 13, XXXVII; art. 14, § 2º, II), the request is one of the register's.
            "authorization": authorization_kinds(permit.jurisdiction_id, today).get("interruption", ""),
            "rule": rule,
            "requests": InterruptionRequest.objects.filter(permit=permit).select_related("revocation"),
            "can_record": permissions.allowed(access, permit.jurisdiction_id, permissions.FILING_ROLES),
            "can_decide": permissions.allowed(access, permit.jurisdiction_id, permissions.MANAGER_ROLES),
            "errors": errors,
            "today": today,
        }
        return render(request, "enforcement/sanctions/interruptions.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(pk), [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        permit = self.get_object(pk)
        action = request.POST.get("action", "")
        roles = permissions.FILING_ROLES if action == "request" else permissions.MANAGER_ROLES
        permissions.require(request, permit.jurisdiction_id, roles)
        try:
            text = self._act(request, permit, action)
        except ValidationError as error:
            return self._render(request, permit, list(error.messages), status=422)
        messages.success(request, text)
        return HttpResponseRedirect(request.path)

    def _act(self, request: HttpRequest, permit: Permit, action: str) -> str:
        post: Any = request.POST
        if action == "request":
            row = interruptions.request_interruption(
                actor=request.user,
                permit=permit,
                starts_on=_date(post.get("starts_on", ""), "de início"),
                ends_on=_date(post.get("ends_on", ""), "de fim"),
                reason=post.get("reason", ""),
            )
            if row.status == InterruptionRequest.Status.OVER_LIMIT:
                raise ValidationError(f"Pedido recusado e registrado para o gestor. {row.explanation}")
            return "Pedido registrado: aguarda a decisão do gestor."
        row = get_object_or_404(
            InterruptionRequest.objects.filter(permit=permit), pk=int(post.get("request") or 0)
        )
        day = _date(post.get("on", ""), "da decisão")
        if action in ("authorize", "deny"):
            interruptions.decide(
                actor=request.user,
                request=row,
                authorize=action == "authorize",
                decided_on=day,
                note=post.get("note", ""),
                reason=post.get("reason", "") or "Decisão sobre o pedido de interrupção",
            )
            return "Decisão registrada."
        if action == "revocation":
            process = interruptions.open_revocation(
                actor=request.user,
                request=row,
                on=day,
                fact=post.get("note", ""),
                reason="Desistência (art. 38)",
            )
            return f"Processo de cassação aberto em {process.opened_on:%d/%m/%Y}."
        if action == "close":
            interruptions.close(
                actor=request.user, request=row, on=day, note=post.get("note", ""), reason="Arquivamento"
            )
            return "Pedido arquivado."
        raise ValidationError("Ação desconhecida.")
