"""A user's proposal to change a line (Esteio art. 26, parágrafo único: "mediante requerimento [...]
de usuários"): filed as a change request the agency studies. The proposer's name and contact reach
the staff only; no CPF is asked, and nothing personal appears on a public page."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from lotacao.core.models import Jurisdiction
from lotacao.lines import life
from lotacao.lines.forms_life import PublicProposalForm
from lotacao.ombudsman.limits import FilingLimit, over
from lotacao.registry.models import Line


def propose(request: HttpRequest, jurisdiction: str, code: str) -> HttpResponse:
    place = Jurisdiction.unscoped.filter(code=jurisdiction, active=True).first()
    line = (
        Line.unscoped.filter(jurisdiction_id=jurisdiction, code=code, active=True).first() if place else None
    )
    if place is None or line is None:
        raise Http404("Linha não encontrada.")
    form = PublicProposalForm(request.POST or None)
    refusal = ""
    if request.method == "POST":
        retry = over(FilingLimit(), request)
        if retry is not None:
            page = render(request, "public/too_many.html", {"retry": retry}, status=429)
            page["Retry-After"] = str(retry)
            return page
        if form.is_valid():
            data = form.cleaned_data
            try:
                req = life.file_request(
                    actor=None,
                    jurisdiction_code=jurisdiction,
                    line=line,
                    kind=data["kind"],
                    origin="public",
                    proposal=data["proposal"],
                    reasons=data["reasons"],
                    requester_name=data["requester_name"],
                    requester_contact=data["requester_contact"],
                    on=timezone.localdate(),
                )
            except ValidationError as error:
                refusal = " ".join(error.messages)
            else:
                page = render(
                    request,
                    "public/line_proposal_receipt.html",
                    {"jurisdiction": place, "line": line, "number": req.number, "filed_on": req.filed_on},
                    status=201,
                )
                page["Cache-Control"] = "no-store"
                return page
    status = 422 if request.method == "POST" else 200
    context = {"jurisdiction": place, "line": line, "form": form, "refusal": refusal}
    return render(request, "public/line_proposal.html", context, status=status)
