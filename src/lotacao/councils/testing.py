"""Test helpers: a valid resolution for a gate, and the objects the shared test `world` needs for
the councils' URLs (tests/conftest.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Max

from lotacao.core.formats import lower_first

from .catalogue import spec
from .gates import gate
from .models import Council, Member, Resolution, Seat, Session


def council_for(code: str, key: str) -> Council:
    """The jurisdiction's council `key`, created from the catalogue when missing."""
    found = Council.unscoped.filter(jurisdiction_id=code, key=key).first()
    if found is not None:
        return found
    item = spec(code, key)
    if item is None:
        raise LookupError(f"{code} has no council {key!r} in councils.catalogue")
    parent = council_for(code, item.parent) if item.parent else None
    council = Council(
        jurisdiction_id=code,
        key=item.key,
        name=item.name,
        acronym=item.acronym,
        kind=item.kind,
        parent=parent,
        legal_basis=item.legal_basis,
        duties=item.duties,
        seat_count=item.seat_count,
        mandate_months=item.mandate_months,
    )
    council.full_clean()
    council.save()
    return council


def resolution_for(code: str, gate_key: str, on: dt.date, **fields: Any) -> Resolution:
    """A favourable resolution of the right council, dated `on`, about `gate_key` (must exist)."""
    g = gate(code, gate_key)
    if g is None:
        raise LookupError(f"the law of {code} has no gate {gate_key!r}")
    council = council_for(code, g.council)
    last = Resolution.unscoped.filter(council=council, year=on.year, kind="resolucao").aggregate(
        n=Max("number")
    )["n"]
    values: dict[str, Any] = {
        "jurisdiction_id": code,
        "council": council,
        "kind": Resolution.Kind.RESOLUTION,
        "number": (last or 0) + 1,
        "year": on.year,
        "dated_on": on,
        "subject": g.label,
        "text": f"Aprova: {lower_first(g.label)}.",
        "gate": gate_key,
        "favorable": True,
    }
    values.update(fields)
    resolution = Resolution(**values)
    resolution.full_clean()
    resolution.save()
    return resolution


def resolution_if_gated(code: str, gate_key: str, on: dt.date) -> Resolution | None:
    """A valid resolution where the law of `code` has the gate, else None (for tests that run
    the same call under every law)."""
    return resolution_for(code, gate_key, on) if gate(code, gate_key) is not None else None


def extend_world(world: Any) -> None:
    day = dt.date(2026, 2, 10)
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        council = council_for(jurisdiction.code, "cmtt")
        seat = Seat.unscoped.create(
            jurisdiction_id=jurisdiction.code, council=council, number=1, represents="Poder Público"
        )
        member = Member.unscoped.create(
            jurisdiction_id=jurisdiction.code,
            council=council,
            seat=seat,
            name="Membro de teste",
            role=Member.Role.TITULAR,
            starts_on=dt.date(2026, 1, 1),
        )
        session = Session.unscoped.create(
            jurisdiction_id=jurisdiction.code, council=council, held_on=day, agenda="Pauta de teste"
        )
        objects["councils.council"] = council
        objects["councils.seat"] = seat
        objects["councils.member"] = member
        objects["councils.session"] = session
        objects["councils.resolution"] = resolution_for(
            jurisdiction.code, "fare.change", day, session=session
        )
