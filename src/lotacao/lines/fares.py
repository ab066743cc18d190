"""What a passenger pays on a line: the fare in force (billing's `FareAct`, citing its act), the
reduced fare where the act sets one, and the gratuities and benefits the law assures, with the
seats reserved for them (pack parameters `fare.benefits` and `fare.reserved_seats`: Recife art. 5º,
Cabo art. 21, Esteio art. 33, §§ 3º–4º, Maricá art. 23, §§ 1º–2º). Where the law does not list
them (Recife, Esteio) they are the agency's values, or "não informado". No personal data.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from lotacao.billing.fares.models import FareAct
from lotacao.core import law

# The words of each benefit code the packs' `fare.benefits` allow (the rule is the law's).
BENEFITS: dict[str, tuple[str, str]] = {
    "elderly_free": ("Idosos", "viajam de graça, nos termos da lei"),
    "over_65_free": ("Maiores de 65 anos", "viajam de graça"),
    "disabled_free": ("Pessoas com deficiência", "viajam de graça"),
    "public_students_free": ("Estudantes da rede pública de ensino", "viajam de graça"),
    "children_lap_free": (
        "Crianças de até cinco anos",
        "não pagam, no colo do responsável e sem incomodar os demais passageiros",
    ),
    "school_pass": ("Passe escolar", "aceito como pagamento da passagem"),
    "transit_voucher": ("Vale-transporte", "aceito como pagamento da passagem"),
}

FREE = frozenset(
    {"elderly_free", "over_65_free", "disabled_free", "public_students_free", "children_lap_free"}
)


@dataclass(frozen=True)
class Benefit:
    code: str
    who: str
    rule: str


@dataclass
class FareInfo:
    """The fare and benefits of one line on one day."""

    amount: Decimal | None = None
    reduced_amount: Decimal | None = None
    act: str = ""
    valid_from: dt.date | None = None
    benefits: list[Benefit] = field(default_factory=list)
    benefits_cite: str = ""
    benefits_note: str = ""
    benefits_missing: str = ""  # the law leaves the list to the agency, which has not supplied it
    seats: int | None = None
    seats_cite: str = ""
    seats_note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "reduced_amount": self.reduced_amount,
            "act": self.act,
            "valid_from": self.valid_from,
            "benefits": [{"code": b.code, "who": b.who, "rule": b.rule} for b in self.benefits],
            "benefits_cite": self.benefits_cite,
            "benefits_note": self.benefits_note,
            "benefits_missing": self.benefits_missing,
            "seats": self.seats,
            "seats_cite": self.seats_cite,
            "seats_note": self.seats_note,
        }


def fare_acts_on(code: str, day: dt.date) -> dict[int, FareAct]:
    """line id -> the fare act in force on `day`, for every line of the jurisdiction (one query)."""
    out: dict[int, FareAct] = {}
    rows = FareAct.unscoped.filter(
        jurisdiction_id=code, valid_from__lte=day, annulled_at__isnull=True
    ).order_by("line_id", "-valid_from")
    for act in rows:
        out.setdefault(act.line_id, act)
    return out


def benefits(code: str, day: dt.date) -> FareInfo:
    """The benefits and reserved seats of the jurisdiction's law (or the agency's values)."""
    info = FareInfo()
    found = law.entry(code, "fare.benefits", day)
    if found is not None:
        info.benefits_cite = str(found.citation)
        info.benefits_note = str(found.note or "")
        if found.status == "value":
            info.benefits = [Benefit(c, *BENEFITS[c]) for c in found.value or [] if c in BENEFITS]
        else:
            info.benefits_missing = str(found.reason or "O órgão gestor ainda não informou.")
    seats = law.entry(code, "fare.reserved_seats", day)
    if seats is not None:
        info.seats_cite = str(seats.citation)
        info.seats_note = str(seats.note or "")
        if seats.status == "value" and seats.value is not None:
            info.seats = int(seats.value)
    return info


def fare_info(
    line: Any, day: dt.date, act: FareAct | None = None, *, base: FareInfo | None = None
) -> FareInfo:
    """The line's fare in force on `day` with the jurisdiction's benefits."""
    from lotacao.billing.fares.services import fare_on

    template = base or benefits(line.jurisdiction_id, day)
    info = FareInfo(**{k: getattr(template, k) for k in template.__dataclass_fields__})
    act = act if act is not None else fare_on(line, day)
    if act is not None:
        info.amount, info.reduced_amount = act.amount, act.reduced_amount
        info.act, info.valid_from = act.act, act.valid_from
    return info
