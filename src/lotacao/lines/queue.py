"""Work-queue provider of the lines app.

- `lines.reaward`: a place whose trips did not start within the law's deadline from the
  authorization (Maricá art. 6, § 5º, II: 30 days): from the day after it, the agency may award
  the line to others. Authorized on 01/03 → last day 31/03 → the item opens on 01/04.
- `lines.unused`: a permit whose place has not operated for longer than the law allows (Esteio
  Anexo II, V-01: more than six consecutive months), counted from the last trip recorded (or from
  the authorization when none was), from the day after the limit.
- `lines.draft`: a line version waiting for its approving act.
Laws without such a rule yield nothing; no jurisdiction is named.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.urls import reverse

from lotacao.core.formats import br_date
from lotacao.lines import law as lines_law
from lotacao.lines.models import LineVersion, Place
from lotacao.lines.places import start_deadline, unused_limit
from lotacao.workqueue.services import WorkItemSpec

ONE_DAY = dt.timedelta(days=1)


def _line_url(line_id: int) -> str:
    return reverse("lines:line", kwargs={"pk": line_id})


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    places = Place.unscoped.filter(ends_on__isnull=True, starts_on__lte=today).select_related(
        "line", "vehicle"
    )
    for place in places.iterator(chunk_size=2000):
        code = place.jurisdiction_id
        if not lines_law.has_lines(code, today):
            continue
        yield from _not_started(place, today)
        yield from _unused(place, today)
    drafts = LineVersion.unscoped.filter(status=LineVersion.Status.DRAFT).select_related("line")
    for version in drafts.iterator(chunk_size=2000):
        body = lines_law.approval(version.jurisdiction_id, today)[0].get("body", "órgão gestor")
        yield WorkItemSpec(
            jurisdiction_id=version.jurisdiction_id,
            kind="lines.draft",
            key=str(version.pk),
            title=f"Linha {version.line.code}, versão {version.number}: aguarda aprovação ({body})"[:300],
            due_on=None,
            url=_line_url(version.line_id),
        )


def _not_started(place: Place, today: dt.date) -> Iterator[WorkItemSpec]:
    if place.first_trip_on is not None:
        return
    last_day, citation = start_deadline(place.jurisdiction_id, place.starts_on)
    if last_day is None or today <= last_day:
        return
    yield WorkItemSpec(
        jurisdiction_id=place.jurisdiction_id,
        kind="lines.reaward",
        key=str(place.pk),
        title=(
            f"Linha {place.line.code}: viagens não iniciadas até {br_date(last_day)} (autorização em "
            f"{br_date(place.starts_on)}); a linha pode ser adjudicada a terceiros ({citation})"
        )[:300],
        due_on=last_day + ONE_DAY,
        url=_line_url(place.line_id),
    )


def _unused(place: Place, today: dt.date) -> Iterator[WorkItemSpec]:
    since = place.last_trip_on or place.starts_on
    last_day, citation = unused_limit(place.jurisdiction_id, since)
    if last_day is None or today <= last_day:
        return
    plate = place.vehicle.plate_display if place.vehicle else "sem veículo"
    yield WorkItemSpec(
        jurisdiction_id=place.jurisdiction_id,
        kind="lines.unused",
        key=str(place.pk),
        title=(
            f"Permissão na linha {place.line.code} ({plate}) sem operação desde {br_date(since)}: mais "
            f"do que o tempo permitido ({citation})"
        )[:300],
        due_on=last_day + ONE_DAY,
        url=_line_url(place.line_id),
    )
