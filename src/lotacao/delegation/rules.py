"""What the law says of the delegation, read from its pack through `lotacao.core.law` (never by
the jurisdiction's name):

- `delegation.contract_clauses`: the essential clauses of the contract ({letter → subject});
  a law without it has no delegation procedure here (the screens say so);
- `delegation.extinction_causes`: the causes of extinction the law lists ({cause → provision});
- `permit.term`: the delegation's term (Esteio art. 41);
- `deadline.caducidade_defense`: the defense deadline of the caducidade inquiry (the law leaves
  it to the agency: Esteio art. 37);
- `deadline.extinction_indemnity`: the indemnity's deadline after the extinction (Esteio art. 46,
  § 2º);
- `permit.succession_window`: the successors' window after a holder's death (Esteio art. 46, V);
- `delegation.staff_takeover`: the former operator's staff the successor hires (Esteio art. 49).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.core.formats import br_date
from lotacao.core.law import entry, evaluate_deadline, pack_for

CLAUSES = "delegation.contract_clauses"
CAUSES = "delegation.extinction_causes"
DEFENSE = "caducidade_defense"
INDEMNITY = "extinction_indemnity"


def law_name(code: str) -> str:
    return str(pack_for(code).law)


def cited(code: str, cite: str) -> str:
    if cite.startswith(("Lei", "Decreto")):
        return cite
    return f"{law_name(code)}, {cite}"


def applies(code: str, on: dt.date) -> bool:
    """Whether the jurisdiction's law has the delegation contract and its procedures."""
    found = entry(code, CLAUSES, on)
    return found is not None and found.status == "value"


def not_applicable(code: str) -> str:
    return (
        f"A {law_name(code)} não prevê contrato de delegação com cláusulas essenciais, inquérito de "
        "caducidade nem encampação: estes procedimentos não se aplicam a esta jurisdição."
    )


def require_applies(code: str, on: dt.date) -> None:
    if not applies(code, on):
        raise ValidationError(not_applicable(code))


def clauses(code: str, on: dt.date) -> dict[str, str]:
    found = entry(code, CLAUSES, on)
    if found is None or found.status != "value":
        return {}
    return {str(k): str(v) for k, v in dict(found.value).items()}


def clauses_citation(code: str, on: dt.date) -> str:
    found = entry(code, CLAUSES, on)
    return cited(code, str(found.citation)) if found is not None else law_name(code)


def causes(code: str, on: dt.date) -> dict[str, str]:
    found = entry(code, CAUSES, on)
    if found is None or found.status != "value":
        return {}
    return {str(k): cited(code, str(v)) for k, v in dict(found.value).items()}


def term(code: str, on: dt.date) -> tuple[dict[str, int] | None, str]:
    found = entry(code, "permit.term", on)
    if found is None or found.status != "value":
        return None, ""
    return dict(found.value), cited(code, str(found.citation))


def succession_window(code: str, on: dt.date) -> dict[str, int] | None:
    found = entry(code, "permit.succession_window", on)
    if found is None or found.status != "value":
        return None
    return dict(found.value)


def deadline(code: str, name: str, start: dt.date) -> dict[str, Any]:
    """The engine's deadline `name` counted from `start` ({"due": None, …} where the law gives
    none and the agency has not supplied it)."""
    if entry(code, "deadline." + name, start) is None:
        return {"due": None, "explanation": "A lei não fixa este prazo.", "citations": []}
    return dict(
        evaluate_deadline(
            {"jurisdiction": code, "kind": "deadline", "deadline": name, "date": start.isoformat()}
        )
    )


def defense_due(code: str, notified_on: dt.date) -> tuple[dt.date, str]:
    """The last day of the inquiry's defense and the citations of its deadline; refuses while the
    agency has not supplied the deadline the law leaves open."""
    result = deadline(code, DEFENSE, notified_on)
    if result.get("due") is None:
        raise ValidationError(
            f"A {law_name(code)} (art. 37) assegura amplo direito de defesa no inquérito de caducidade, "
            "mas não fixa o prazo da defesa: o gestor do órgão precisa registrar esse prazo em Valores "
            "da lei antes da notificação."
        )
    return dt.date.fromisoformat(str(result["due"])), "; ".join(result.get("citations") or [])


def indemnity_due(code: str, extinct_on: dt.date) -> dt.date | None:
    result = deadline(code, INDEMNITY, extinct_on)
    return dt.date.fromisoformat(str(result["due"])) if result.get("due") else None


def in_words(day: dt.date | None) -> str:
    return br_date(day)


def takeover_rule(code: str, on: dt.date) -> tuple[int, int, str] | None:
    """The staff take-over (Esteio art. 49): (minimum years of service, employees per vehicle,
    citation); None where the law has no such rule."""
    found = entry(code, "delegation.staff_takeover", on)
    if found is None or found.status != "value":
        return None
    value = dict(found.value)
    return int(value["min_service_years"]), int(value["per_vehicle"]), cited(code, str(found.citation))


def years_in_words(years: int) -> str:
    return "um ano" if years == 1 else f"{years} anos"


def staff_takeover(code: str, on: dt.date, vehicles: int) -> str:
    """The take-over of the former operator's staff by the company that replaces it after the
    tender (Esteio art. 49), in words for the screen ("" where the law has no such rule)."""
    rule = takeover_rule(code, on)
    if rule is None:
        return ""
    years, per, cite = rule
    return (
        f"A pessoa jurídica que substituir a operadora, em razão de licitação por extinção da delegação, "
        f"contratará os empregados com mais de {years_in_words(years)} de serviço, até {per} por veículo: "
        f"até {per * vehicles} para {'o veículo' if vehicles == 1 else f'os {vehicles} veículos'} "
        f"deste contrato ({cite})."
    )
