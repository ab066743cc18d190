"""Read-only views of the tenders: the ranking with its facts in words, and the public lists
(explicit, field-limited: no CPF, CNPJ or address ever leaves `public_calls`)."""

from __future__ import annotations

from typing import Any

from lotacao.permits import rules
from lotacao.permits.eligibility import CRITERIA_LABELS
from lotacao.tenders import selection
from lotacao.tenders.models import Call, TenderApplication

EDITAL_CRITERIA = selection.EDITAL_CRITERIA
PUBLIC_STATUSES = (Call.Status.PUBLISHED, Call.Status.APPEALS, Call.Status.AWARDED)


def criteria_words(call: Call) -> list[str]:
    words = [CRITERIA_LABELS[c] for c in call.criteria]
    preference, _ = selection.incumbent_preference(call.jurisdiction_id, call.opens_on)
    if preference:
        words.append("em igualdade de condições, quem já é permissionário da linha")
    words.append("persistindo o empate, sorteio público")
    return words


def winner_obligations(call: Call) -> list[str]:
    """The obligations the law puts in the edital for the winner (Esteio art. 8º, parágrafo único,
    IV: the staff take-over of art. 49), in words with their citation; [] where the law has none."""
    found = rules.entry(call.jurisdiction_id, "delegation.staff_takeover", call.opens_on)
    if found is None or found.status != "value":
        return []
    years, per = int(found.value["min_service_years"]), int(found.value["per_vehicle"])
    year_words = "um ano" if years == 1 else f"{years} anos"
    return [
        f"o vencedor que substituir operadora cuja concessão ou permissão foi extinta contratará os "
        f"empregados da empresa anterior com mais de {year_words} de serviço, até {per} por veículo "
        f"({found.citation})"
    ]


def _holder_name(application: TenderApplication) -> str:
    holder = application.holder
    if holder.person is not None:
        return str(holder.person.full_name)
    return str(holder.company.legal_name) if holder.company is not None else "—"


def ranking(call: Call, *, public: bool = False) -> list[dict[str, Any]]:
    """The applications in ranking order (unranked ones by number), each with its facts in words."""
    preference, _ = selection.incumbent_preference(call.jurisdiction_id, call.opens_on)
    rows = TenderApplication.unscoped.filter(call=call).select_related(
        "holder__person", "holder__company", "vehicle", "permit"
    )
    out = []
    for application in sorted(rows, key=lambda a: (a.position is None, a.position or 0, a.number)):
        name = _holder_name(application)
        row: dict[str, Any] = {
            "number": application.number,
            "position": application.position,
            "name": selection.masked_name(name) if public else name,
            "status": application.get_status_display(),
            "facts": selection.facts_in_words(application.facts, list(call.criteria), preference)
            if application.facts
            else [],
            "draw_order": application.draw_order,
        }
        if not public:
            row.update(
                {
                    "pk": application.pk,
                    "holder_id": application.holder_id,
                    "plate": application.vehicle.plate_display,
                    "permit": application.permit.number if application.permit is not None else "",
                    "disqualified_reason": application.disqualified_reason,
                }
            )
        out.append(row)
    return out


def public_calls(jurisdiction: str = "", call_id: str = "") -> list[dict[str, Any]]:
    calls = Call.unscoped.filter(status__in=PUBLIC_STATUSES).select_related("line", "jurisdiction")
    if jurisdiction:
        calls = calls.filter(jurisdiction_id=jurisdiction)
    if call_id.isdigit():
        calls = calls.filter(pk=int(call_id))
    out = []
    for call in calls.order_by("-published_on", "-pk")[:50]:
        out.append(
            {
                "pk": call.pk,
                "jurisdiction": call.jurisdiction.name,
                "number": call.number,
                "subject": call.subject,
                "line": f"{call.line.code} — {call.line.name}",
                "places": call.places,
                "status": call.get_status_display(),
                "published_on": call.published_on,
                "appeals_from": call.appeals_from,
                "appeals_until": call.appeals_until,
                "awarded_on": call.awarded_on,
                "criteria": criteria_words(call),
                "citations": call.criteria_citations,
                "obligations": winner_obligations(call),
                "seed": call.draw_seed,
                "seed_published_in": call.draw_seed_published_in,
                "draw": call.draw_result,
                "ranking": ranking(call, public=True),
            }
        )
    return out
