"""The lines' answer to the permits' seam `permit_lifecycle` (lotacao.core.providers): a permit
that starts takes its place on its line; a permit that ends leaves it.

A line the lines register does not have yet (no version at all: a line of the old register, never
drawn here) gets no place: there is nothing to check it against, and the clerk assigns the place
from the line's page once the line is drawn and approved. A line that has versions but none approved
in force on the day is refused, as is every refusal of `places.assign_place` (Maricá's one line per
vehicle, art. 6, § 3º; one place per permit; one line per holder) — the permits' caller undoes the
grant.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.lines import law as lines_law
from lotacao.lines import places
from lotacao.lines.models import LineVersion, Place


def on_permit(*, event: str, actor: Any, permit: Any, on: dt.date, act: str, reason: str) -> None:
    if event == "started":
        _started(actor=actor, permit=permit, on=on, act=act, reason=reason)
    elif event == "ended":
        _ended(actor=actor, permit=permit, on=on, reason=reason)
    else:
        raise ValueError(f"evento de permissão desconhecido: {event}")


def _started(*, actor: Any, permit: Any, on: dt.date, act: str, reason: str) -> None:
    if permit.line_id is None or not lines_law.has_lines(permit.jurisdiction_id, on):
        return  # no line, or a law without lines
    if not LineVersion.unscoped.filter(line_id=permit.line_id).exists():
        return  # a line of the old register, not drawn in the lines register yet
    places.assign_place(actor=actor, permit=permit, line=permit.line, starts_on=on, act=act, reason=reason)


def _ended(*, actor: Any, permit: Any, on: dt.date, reason: str) -> None:
    for place in Place.unscoped.filter(permit_id=permit.pk, ends_on__isnull=True):
        places.end_place(actor=actor, place=place, on=max(on, place.starts_on), reason=reason)
