"""Reads of online requests for other apps: what a holder has pending (the portal's home)."""

from __future__ import annotations

import datetime as dt
from typing import Any, TypedDict

from django.urls import reverse

from .models import Request

NEXT_STEP = {
    Request.Kind.APPLICATION: "O órgão gestor analisa os requisitos e decide o pedido.",
    Request.Kind.RENEWAL: "O órgão gestor analisa a renovação e decide o pedido.",
    Request.Kind.DOCUMENT: "O órgão gestor confere o documento e o aceita ou recusa.",
    Request.Kind.SUBSTITUTION: "O órgão gestor confere o veículo novo e decide a substituição.",
    Request.Kind.INSPECTION: "O órgão gestor confirma o agendamento da vistoria.",
}


class OpenRequest(TypedDict):
    what: str
    protocol: str
    filed_on: dt.date
    status: str
    next_step: str
    url: str


def open_requests(holder: Any) -> list[OpenRequest]:
    """The holder's requests still in analysis, newest first: what, filed on, status, next step."""
    rows = Request.unscoped.filter(holder_id=holder.pk, status=Request.Status.FILED).order_by(
        "-filed_on", "-id"
    )
    return [
        OpenRequest(
            what=r.get_kind_display(),
            protocol=r.protocol,
            filed_on=r.filed_on,
            status=r.get_status_display(),
            next_step=NEXT_STEP[Request.Kind(r.kind)],
            url=reverse("holder_requests:detail", args=[r.pk]),
        )
        for r in rows
    ]
