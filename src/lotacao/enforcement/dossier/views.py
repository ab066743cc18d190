"""The holder's dossier (page and PDF) and the enforcement letters as PDFs: the infraction
notice, its notifications and its decisions. Every object is read through the scoped managers:
staff of the jurisdiction see its rows, a permit holder only their own (a 404 otherwise)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from lotacao.enforcement.dossier import pdf
from lotacao.enforcement.dossier.dossier import holder_dossier
from lotacao.enforcement.models import Decision, InfractionNotice, NoticeService
from lotacao.enforcement.views_base import ObjectView
from lotacao.registry.models import Holder


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in text)


class HolderDossier(ObjectView):
    model = Holder
    related = ("person", "company", "jurisdiction")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        holder = self.get_object(pk)
        dossier = holder_dossier(holder, timezone.localdate())
        return render(
            request, "enforcement/dossier/dossier.html", {"d": dossier, "title": f"Prontuário de {holder}"}
        )


class HolderDossierPdf(ObjectView):
    model = Holder
    related = ("person", "company", "jurisdiction")

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        holder = self.get_object(pk)
        content = pdf.dossier_pdf(holder_dossier(holder, timezone.localdate()))
        return _pdf(content, f"prontuario-{holder.pk}.pdf")


NOTICE_RELATED = (
    "jurisdiction",
    "holder__person",
    "holder__company",
    "agent",
    "vehicle",
    "line",
    "permit",
    "inspector",
)


class NoticePdf(ObjectView):
    model = InfractionNotice
    related = NOTICE_RELATED

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        return _pdf(pdf.notice_pdf(notice, timezone.localdate()), f"auto-{_slug(notice.number)}.pdf")


class ServiceLetterPdf(ObjectView):
    model = NoticeService
    related = tuple(f"notice__{name}" for name in NOTICE_RELATED)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        service = self.get_object(pk)
        content = pdf.service_pdf(service, timezone.localdate())
        return _pdf(content, f"notificacao-{_slug(service.notice.number)}-{service.pk}.pdf")


class DecisionLetterPdf(ObjectView):
    model = Decision
    related = ("body", "filing", *(f"notice__{name}" for name in NOTICE_RELATED))

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        decision = self.get_object(pk)
        content = pdf.decision_pdf(decision, timezone.localdate())
        return _pdf(content, f"decisao-{_slug(decision.notice.number)}-{decision.pk}.pdf")
