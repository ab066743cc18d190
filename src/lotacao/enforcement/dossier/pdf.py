"""PDFs of enforcement (WeasyPrint), in the agency's name and with their legal citations: the
infraction notice (the fields the law requires, `notice.required_fields`; the defense or appeal
open against it and where to file, from `process.instances`), a notification letter per
NoticeService, a decision letter per Decision (the next instance and its deadline, or "decisão
definitiva") and the holder's dossier.

Each document has a `*_html` builder (what the tests read: the PDFs' text is in subset fonts) and
a `*_pdf` renderer. Notices have no public verification page yet, so there is no QR code.
"""

from __future__ import annotations

import base64
import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.template.loader import render_to_string
from django.utils import timezone

from lotacao.core import pdf as pdf_pages
from lotacao.core.law import citation, pack_for, value
from lotacao.enforcement.dossier.dossier import Dossier, first_step, step_after
from lotacao.enforcement.due_process.procedure import penalty_in_force
from lotacao.enforcement.models import OffenderKind
from lotacao.enforcement.reading import base_fine_words, charge_words, describe_penalty, law_date

# The words of each field id of `notice.required_fields`, as a heading on the notice.
FIELD_TITLES = {
    "infraction": "Enquadramento",
    "description": "Descrição da ocorrência",
    "place": "Local",
    "drawn_up_at": "Data e hora",
    "plate": "Placa",
    "vehicle": "Veículo",
    "inspector": "Agente fiscal",
    "line": "Linha",
    "holder": "Permissionário",
}


def agency(jurisdiction: Any) -> str:
    return str(jurisdiction.official_name or jurisdiction.name)


def _render(html: str) -> bytes:
    return pdf_pages.render(html)


def _local(notice: Any) -> dt.datetime:
    moment: dt.datetime = notice.drawn_up_at
    return moment.astimezone(ZoneInfo(notice.jurisdiction.timezone or "America/Sao_Paulo"))


def _offender(notice: Any) -> dict[str, str]:
    """Name, document and address of who answers for the notice."""
    if notice.offender_kind == OffenderKind.UNLICENSED or (notice.holder is None and notice.agent is None):
        return {
            "name": notice.offender_name or "Não identificado",
            "document": notice.offender_document,
            "address": "",
        }
    party = notice.agent if notice.agent is not None else (notice.holder.person or notice.holder.company)
    if hasattr(party, "cpf_display"):
        return {"name": str(party), "document": f"CPF {party.cpf_display}", "address": party.address_display}
    return {"name": str(party), "document": f"CNPJ {party.cnpj_display}", "address": ""}


def _inspector(notice: Any) -> str:
    user = notice.inspector
    if user is None:
        return ""
    return str(user.get_full_name() or user.get_username())


def _infraction(notice: Any) -> dict[str, str]:
    row = pack_for(notice.jurisdiction_id).infractions.get(notice.infraction_code)
    if row is None:
        return {
            "code": notice.infraction_item if notice.infraction_code else f"Grupo {notice.infraction_group}",
            "description": "",
            "citation": "",
        }
    # The law's item as it prints it ("art. 42, II"), never the pack's id ("art42-II").
    return {"code": row.cite or row.citation, "description": row.description, "citation": row.citation}


def _photos(notice: Any) -> list[dict[str, Any]]:
    """The notice's photos as data URIs the PDF embeds (they live outside the web root)."""
    out = []
    for number, photo in enumerate(notice.photos.all(), start=1):
        if photo.content_type not in ("image/jpeg", "image/png"):
            continue
        with photo.file.open("rb") as handle:
            data = base64.b64encode(handle.read()).decode("ascii")
        out.append(
            {
                "uri": f"data:{photo.content_type};base64,{data}",
                "alt": f"Foto {number} do auto {notice.number}",
                "taken": timezone.localtime(photo.uploaded_at) if photo.uploaded_at else None,
            }
        )
    return out


def _position(notice: Any) -> str:
    """The GPS position recorded with the notice, as degrees with a comma (or "")."""
    lat, lon = notice.evidence_latitude, notice.evidence_longitude
    if lat is None or lon is None:
        return ""
    return f"latitude {lat:.6f}, longitude {lon:.6f}".replace(".", ",")


def _required(notice: Any, on: dt.date) -> tuple[list[str], str]:
    code = notice.jurisdiction_id
    required = value(code, "notice.required_fields", on)
    if not isinstance(required, dict):
        return [], ""
    fields = list(required.get("always", []))
    if notice.offender_kind != OffenderKind.UNLICENSED:
        fields += list(required.get("registered_service", []))
    return [FIELD_TITLES.get(f, f) for f in fields], citation(code, "notice.required_fields", on)


def notice_context(notice: Any, on: dt.date) -> dict[str, Any]:
    day = law_date(_local(notice))
    fields, fields_citation = _required(notice, day)
    decisions = list(notice.decisions.all())
    return {
        "agency": agency(notice.jurisdiction),
        "jurisdiction": notice.jurisdiction,
        "law": pack_for(notice.jurisdiction_id).law,
        "notice": notice,
        "when": _local(notice),
        "offender": _offender(notice),
        "inspector": _inspector(notice),
        "infraction": _infraction(notice),
        "penalty": describe_penalty(penalty_in_force(notice, decisions)),
        "base_fine_text": base_fine_words(notice.engine_result),
        "charges": charge_words(notice.engine_result),
        "required": fields,
        "required_citation": fields_citation,
        "step": first_step(notice, notice.served_on, on),
        "position": _position(notice),
        "today": on,
        "issued_at": timezone.localtime(),
    }


def notice_html(notice: Any, on: dt.date) -> str:
    context = notice_context(notice, on)
    context["photos"] = _photos(notice)
    return render_to_string("enforcement/dossier/pdf/notice.html", context)


def notice_pdf(notice: Any, on: dt.date) -> bytes:
    return _render(notice_html(notice, on))


def service_html(service: Any, on: dt.date) -> str:
    notice = service.notice
    context = notice_context(notice, on)
    context.update({"service": service, "step": first_step(notice, service.served_on, on)})
    return render_to_string("enforcement/dossier/pdf/service.html", context)


def service_pdf(service: Any, on: dt.date) -> bytes:
    return _render(service_html(service, on))


def decision_html(decision: Any, on: dt.date) -> str:
    notice = decision.notice
    context = notice_context(notice, on)
    instances = value(notice.jurisdiction_id, "process.instances", on) or []
    names = {str(i.get("id")): str(i.get("name", "")) for i in instances if isinstance(i, dict)}
    context.update(
        {
            "decision": decision,
            "instance_name": names.get(decision.instance, decision.instance),
            "decision_penalty": describe_penalty(decision.penalty or notice.penalty),
            "next": step_after(decision, on),
            "effects": [e for e in decision.effects or [] if e.get("note") and e.get("type") != "none"],
        }
    )
    return render_to_string("enforcement/dossier/pdf/decision.html", context)


def decision_pdf(decision: Any, on: dt.date) -> bytes:
    return _render(decision_html(decision, on))


def dossier_html(dossier: Dossier) -> str:
    return render_to_string(
        "enforcement/dossier/pdf/dossier.html",
        {
            "d": dossier,
            "agency": agency(dossier.jurisdiction),
            "jurisdiction": dossier.jurisdiction,
            "law": pack_for(dossier.jurisdiction.code).law,
            "today": dossier.on,
            "issued_at": timezone.localtime(),
        },
    )


def dossier_pdf(dossier: Dossier) -> bytes:
    return _render(dossier_html(dossier))
