"""What the law and the agency say of the authorizations, read from the pack through
`lotacao.core.law` (never by the jurisdiction's name) and from the jurisdiction's settings:

- `authorization.kinds`: the kinds the law authorizes ({kind → provision}); a law without it has
  no such register here;
- the jurisdiction's settings `authorize_<kind>` (core.Jurisdiction, off by default): the kinds
  the agency runs here;
- `authorization.validity`: the validity of an authorization (the law leaves it to the
  regulation, art. 17: an agency value with its act);
- `authorization.taxi_fare`: the taximeter's bandeirada and per-km value (art. 14, p.ú.: fixed by
  the municipality's cost sheet, an agency value with its act, dated);
- `authorization.replacement_doors_min` and `authorization.regulation_date`: four doors at
  replacement; two-door vehicles acquired before the regulation stay included (art. 52);
- `authorization.no_boarding_fare`: no fare collected at boarding for school and chartered
  (art. 17, p.ú.).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.authorizations.models import Authorization
from lotacao.core.formats import brl, lower_first
from lotacao.core.law import entry, pack_for
from lotacao.core.models import Jurisdiction

KINDS = "authorization.kinds"
VALIDITY = "authorization.validity"
FARE = "authorization.taxi_fare"
DOORS = "authorization.replacement_doors_min"
REGULATION = "authorization.regulation_date"
NO_FARE = "authorization.no_boarding_fare"
SETTING: dict[str, str] = {
    Authorization.Kind.TAXI_COMMON: "authorize_taxi_common",
    Authorization.Kind.TAXI_SPECIAL: "authorize_taxi_special",
    Authorization.Kind.SCHOOL: "authorize_school",
    Authorization.Kind.CHARTERED: "authorize_chartered",
}


def law_name(code: str) -> str:
    return str(pack_for(code).law)


def cited(code: str, cite: str) -> str:
    if cite.startswith(("Lei", "Decreto")):
        return cite
    return f"{law_name(code)}, {cite}"


def law_kinds(code: str, on: dt.date) -> dict[str, str]:
    """The kinds the law authorizes, with their provisions ({} where the law has none)."""
    if not pack_for(code).has(KINDS) or on < pack_for(code).start:
        return {}
    found = entry(code, KINDS, on)
    if found is None or found.status != "value":
        return {}
    return {str(k): cited(code, str(v)) for k, v in dict(found.value).items()}


def enabled_kinds(code: str, on: dt.date) -> list[str]:
    """The kinds the law authorizes and the agency turned on, in the law's order."""
    kinds = law_kinds(code, on)
    if not kinds:
        return []
    row = Jurisdiction.unscoped.filter(pk=code).values(*SETTING.values()).first() or {}
    return [k for k in kinds if k in SETTING and row.get(SETTING[k])]


def applies(code: str, on: dt.date) -> bool:
    """Whether the register is open in this jurisdiction (some kind turned on)."""
    return bool(enabled_kinds(code, on))


def off_message(code: str, on: dt.date) -> str:
    if not law_kinds(code, on):
        return (
            f"A {law_name(code)} não prevê autorização de táxi, transporte escolar ou fretado: "
            "este cadastro não se aplica a esta jurisdição."
        )
    return (
        "O órgão gestor não ativou o cadastro de autorizações de táxi, transporte escolar e fretado "
        "neste sistema: peça ao administrador que ative os serviços que o órgão autoriza."
    )


def require_kind(code: str, kind: str, on: dt.date) -> None:
    """Refuse a kind the law does not have or the agency did not turn on."""
    if kind not in Authorization.Kind.values:
        raise ValidationError("Escolha o serviço: táxi comum, táxi especial, escolar ou fretado.")
    if kind not in enabled_kinds(code, on):
        label = lower_first(str(Authorization.Kind(kind).label))
        if not law_kinds(code, on):
            raise ValidationError(off_message(code, on))
        raise ValidationError(
            f"O serviço {label} não está ativado pelo órgão gestor neste sistema: nada pode ser registrado "
            "para ele."
        )


def validity(code: str, on: dt.date) -> tuple[dict[str, int] | None, str]:
    """The validity the agency fixed (with its act), or (None, the law's citation) when missing."""
    found = entry(code, VALIDITY, on)
    if found is None:
        return None, law_name(code)
    if found.status != "value":
        return None, cited(code, str(found.citation))
    return dict(found.value), str(found.citation)


def validity_missing(code: str) -> str:
    return (
        f"A {law_name(code)} (art. 17) manda autorizar estes serviços nos termos do regulamento próprio, "
        "mas não fixa o prazo da autorização: o gestor do órgão precisa registrar esse prazo, com o ato "
        "que o fixou, em Valores da lei antes de conceder."
    )


def taxi_fare(code: str, on: dt.date) -> dict[str, Any]:
    """The taximeter's fare in force: {"flag_fall", "per_km" (Decimal), "citation", "since"}; or
    {"missing": sentence, "citation"} while the agency has not informed it (art. 14, p.ú.)."""
    found = entry(code, FARE, on)
    if found is None:
        return {}
    citation = cited(code, str(found.citation))
    if found.status != "value":
        return {
            "missing": "A bandeirada inicial e o valor do quilômetro rodado são fixados pelo Poder Público "
            "Municipal na planilha de cálculo tarifário e ainda não foram informados pelo órgão.",
            "citation": citation,
        }
    try:
        flag_fall = Decimal(str(found.value["flag_fall"]))
        per_km = Decimal(str(found.value["per_km"]))
    except (KeyError, InvalidOperation):
        return {"missing": "O valor informado da tarifa do táxi está incompleto.", "citation": citation}
    return {
        "flag_fall": flag_fall,
        "per_km": per_km,
        "citation": citation,
        "since": found.start,
        "words": f"bandeirada inicial de {brl(flag_fall)} e {brl(per_km)} por quilômetro rodado, "
        "aferidos por taxímetro",
    }


def boarding_condition(code: str, kind: str, on: dt.date) -> str:
    """The condition printed on a school or chartered authorization (art. 17, p.ú.), or ""."""
    found = entry(code, NO_FARE, on) if pack_for(code).has(NO_FARE) else None
    if found is None or found.status != "value" or kind not in list(found.value):
        return ""
    return (
        "É vedada a cobrança de tarifa no embarque e no desembarque de passageiros: a remuneração do "
        f"serviço é estabelecida em contrato ({cited(code, str(found.citation))})."
    )


def doors_rule(code: str, on: dt.date) -> tuple[int | None, str]:
    found = entry(code, DOORS, on) if pack_for(code).has(DOORS) else None
    if found is None or found.status != "value":
        return None, ""
    return int(found.value), cited(code, str(found.citation))


def regulation_date(code: str, on: dt.date) -> dt.date | None:
    found = entry(code, REGULATION, on) if pack_for(code).has(REGULATION) else None
    if found is None or found.status != "value":
        return None
    text = str(found.value).strip()
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            return dt.datetime.strptime(text, fmt).date()  # noqa: DTZ007 (a calendar date, no time)
        except ValueError:
            continue
    return None
