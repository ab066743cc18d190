"""What the street's rules were on the infraction's day, for the notice form and page: the line's
service order (OSO) in force that day, for the infractions judged against it, and the line's
fare that day, for a wrong-fare notice.

Which infractions are which is the pack's (`notice.service_order_infractions`: Recife G2-b, g, w,
x, G4-b, h; Esteio II-10, II-11, II-26, III-04, III-05, IV-03, IV-04; Maricá art. 42, X and XIV —
`notice.fare_infractions`: Recife G4-o, Esteio IV-01, Maricá art. 42, VIII); the order and the
fare come from the lines and billing wings (`lines.selectors`, `billing.fares.services.fare_on`),
read for the infraction's date: a notice dated the day before a new OSO is judged against the old.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.billing.fares.services import fare_on
from lotacao.core.law import citation, value
from lotacao.lines.selectors import order_summary, service_order_in_force

ORDER_PARAMETER = "notice.service_order_infractions"
FARE_PARAMETER = "notice.fare_infractions"


def _listed(code: str, parameter: str, infraction_code: str, on: dt.date) -> bool:
    return bool(infraction_code) and infraction_code in (value(code, parameter, on) or [])


def street_rules(jurisdiction_code: str, infraction_code: str, line: Any, on: dt.date) -> dict[str, Any]:
    """`order_needed` / `fare_needed`: whether the infraction is judged against the OSO / the fare
    (with the law's citation); `order`: what the OSO in force on `on` required (None: the line has
    none that day); `fare`: the line's fare act that day (None: none registered)."""
    out: dict[str, Any] = {
        "on": on,
        "line": line,
        "order_needed": False,
        "order": None,
        "order_citation": "",
        "fare_needed": False,
        "fare": None,
        "fare_citation": "",
    }
    if _listed(jurisdiction_code, ORDER_PARAMETER, infraction_code, on):
        out["order_needed"] = True
        out["order_citation"] = citation(jurisdiction_code, ORDER_PARAMETER, on)
        if line is not None:
            out["order"] = order_summary(service_order_in_force(line, on))
    if _listed(jurisdiction_code, FARE_PARAMETER, infraction_code, on):
        out["fare_needed"] = True
        out["fare_citation"] = citation(jurisdiction_code, FARE_PARAMETER, on)
        if line is not None:
            out["fare"] = fare_on(line, on)
    return out


def rule_codes(jurisdiction_code: str, on: dt.date) -> dict[str, list[str]]:
    """The codes of both lists (the form marks them in the picker)."""
    return {
        "order": list(value(jurisdiction_code, ORDER_PARAMETER, on) or []),
        "fare": list(value(jurisdiction_code, FARE_PARAMETER, on) or []),
    }
