"""gov.br sign-in: the button's start, the provider's return, and linking a signed-in account.

Every route answers 404 while gov.br is not configured. A refusal (unknown CPF, a state that does
not match this browser's, a code the provider will not exchange — a PKCE verifier that does not
match —, an ID token that does not validate, the provider down) is a Portuguese page and signs
no one in.
"""

from __future__ import annotations

import logging
from typing import Any

import requests
from authlib.integrations.base_client.errors import MismatchingStateError, OAuthError
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET

from lotacao.govbr import client as govbr
from lotacao.govbr import services

log = logging.getLogger("lotacao.govbr")
NEXT = "govbr_next"
LINKING = "govbr_link_user"


def _require_enabled() -> None:
    if not govbr.enabled():
        raise Http404("gov.br não configurado")


def refused(request: HttpRequest, reason: str, status: int = 403) -> HttpResponse:
    return render(request, "govbr/refused.html", {"reason": reason}, status=status)


@require_GET
def start(request: HttpRequest) -> HttpResponse:
    """The "Entrar com gov.br" button: off to the provider with state, nonce and PKCE challenge."""
    _require_enabled()
    wanted = request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure())
    request.session[NEXT] = wanted if wanted and safe else reverse("web:home")
    request.session.pop(LINKING, None)
    return _redirect(request)


@require_GET
@login_required
def link(request: HttpRequest) -> HttpResponse:
    """A signed-in person (holder or staff) links their account to the CPF gov.br vouches for."""
    _require_enabled()
    request.session[LINKING] = request.user.pk
    request.session[NEXT] = reverse("reminders:preferences")
    return _redirect(request)


def _redirect(request: HttpRequest) -> HttpResponse:
    try:
        response: HttpResponse = govbr.client().authorize_redirect(
            request, request.build_absolute_uri(reverse("govbr:callback"))
        )
    except requests.RequestException:
        log.exception("gov.br discovery failed")
        return refused(request, "O gov.br não respondeu. Tente de novo em alguns minutos.", status=503)
    return response


@require_GET
def callback(request: HttpRequest) -> HttpResponse:
    """The provider's return: exchange the code (with the PKCE verifier), validate the ID token."""
    _require_enabled()
    if request.GET.get("error"):
        return refused(request, "A entrada pelo gov.br foi cancelada ou negada.")
    try:
        token: dict[str, Any] = govbr.client().authorize_access_token(request)
    except MismatchingStateError:
        return refused(
            request,
            "Esta resposta do gov.br não corresponde a uma entrada iniciada neste navegador. "
            "Comece de novo pelo botão \u201cEntrar com gov.br\u201d.",
            status=400,
        )
    except OAuthError as error:
        log.warning("gov.br refused the code exchange: %s", error)
        return refused(
            request,
            "O gov.br não confirmou a entrada. Comece de novo pelo botão \u201cEntrar com gov.br\u201d.",
            status=400,
        )
    except (requests.RequestException, ValueError) as error:
        log.warning("gov.br answer could not be validated: %s", error)
        return refused(
            request, "Não foi possível confirmar a entrada com o gov.br. Tente de novo.", status=400
        )
    claims = dict(token.get("userinfo") or {})
    linking = request.session.pop(LINKING, None)
    target = request.session.pop(NEXT, "") or reverse("web:home")
    try:
        who = services.identity(claims)
        if linking is not None:
            if not request.user.is_authenticated or request.user.pk != linking:
                return refused(request, "Entre com usuário e senha antes de vincular o gov.br.")
            services.link_account(request.user, who)
            messages.success(request, "Conta gov.br vinculada: da próxima vez, entre com gov.br.")
            return redirect(target)
        user = services.account_for(who)
    except services.Refused as error:
        return refused(request, str(error))
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(target)
