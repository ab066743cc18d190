"""Work-queue provider: insurance expiring, seals expiring (inspection due), vehicles reaching their
age limit and irregularity notices whose re-presentation deadline is near or past.

Set-based: one aggregate query per kind, plus one per (jurisdiction, category) age rule.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.db.models import Max, Q, QuerySet
from django.urls import reverse

from lotacao.inspections import rules
from lotacao.inspections.models import IrregularityNotice
from lotacao.registry.models import Vehicle
from lotacao.workqueue.services import WorkItemSpec


def _plate(plate: str) -> str:
    return f"{plate[:3]}-{plate[3:]}" if len(plate) > 4 and plate[4].isdigit() else plate


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    limit = today + dt.timedelta(days=horizon)
    active = Vehicle.unscoped.filter(Q(deregistered_on__isnull=True) | Q(deregistered_on__gt=today))

    rows = (
        active.annotate(until=Max("insurance_policies__valid_until"))
        .filter(until__lte=limit)
        .values_list("pk", "jurisdiction_id", "plate", "until")
    )
    for pk, code, plate, until in rows.iterator(chunk_size=5000):
        verb = "venceu" if until < today else "vence"
        yield WorkItemSpec(
            jurisdiction_id=code,
            kind="inspections.insurance",
            key=str(pk),
            title=f"Seguro do veículo {_plate(plate)} {verb} em {rules.pt(until)}",
            due_on=until,
            url=_url(pk),
        )

    rows = (
        active.annotate(until=Max("seals__valid_until"))
        .filter(until__lte=limit)
        .values_list("pk", "jurisdiction_id", "plate", "until")
    )
    for pk, code, plate, until in rows.iterator(chunk_size=5000):
        verb = "venceu" if until < today else "vence"
        yield WorkItemSpec(
            jurisdiction_id=code,
            kind="inspections.seal",
            key=str(pk),
            title=f"Vistoria devida: selo do veículo {_plate(plate)} {verb} em {rules.pt(until)}",
            due_on=until,
            url=_url(pk),
        )

    yield from _age_limits(active, today, limit)

    notices = IrregularityNotice.unscoped.filter(
        resolved_on__isnull=True, representation_due__lte=limit
    ).values_list("pk", "jurisdiction_id", "number", "vehicle_id", "vehicle__plate", "representation_due")
    for pk, code, number, vehicle_id, plate, due in notices.iterator(chunk_size=5000):
        yield WorkItemSpec(
            jurisdiction_id=code,
            kind="inspections.representation",
            key=str(pk),
            title=f"Reapresentação do veículo {_plate(plate)} (notificação {number}) até {rules.pt(due)}",
            due_on=due,
            url=_url(vehicle_id),
        )


def _age_limits(active: QuerySet[Vehicle], today: dt.date, limit: dt.date) -> Iterator[WorkItemSpec]:
    """A vehicle of manufacture year Y with limit N is over it from 1 January of Y + N + 1."""
    pairs = active.order_by().values_list("jurisdiction_id", "category").distinct()
    for code, category in pairs:
        years, _cite = rules.max_age_years(code, category, today)
        if years is None:
            continue
        last_year = limit.year - years - 1  # reached on or before `limit`
        rows = active.filter(
            jurisdiction_id=code, category=category, manufacture_year__lte=last_year
        ).values_list("pk", "plate", "manufacture_year")
        deadlines: dict[dt.date, dt.date | None] = {}
        for pk, plate, year in rows.iterator(chunk_size=5000):
            reached = dt.date(year + years + 1, 1, 1)
            if reached not in deadlines:
                deadlines[reached] = rules.replacement_deadline(code, reached)[0]
            due = deadlines[reached]
            title = f"Veículo {_plate(plate)} atinge a idade limite de {years} anos em {rules.pt(reached)}"
            if reached <= today:
                title = (
                    f"Veículo {_plate(plate)} acima da idade limite de {years} anos desde {rules.pt(reached)}"
                )
            if due is not None:
                title += f"; substituição até {rules.pt(due)}"
            yield WorkItemSpec(
                jurisdiction_id=code,
                kind="inspections.age_limit",
                key=str(pk),
                title=title[:300],
                due_on=due or reached,
                url=_url(pk),
            )


def _url(vehicle_id: int) -> str:
    return reverse("vehicles:file", kwargs={"pk": 999999999}).replace("999999999", str(vehicle_id))
