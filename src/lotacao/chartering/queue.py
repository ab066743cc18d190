"""Work-queue provider: CRC renewals coming (alerts at 60 and 30 days before expiry), requests whose
issue or completion deadline is near, sanctions proposed to the manager or whose term is served
(waiting for the proof of cure), 7-seat trips waiting for authorization, and trackers that
stopped reporting (after the silence the agency sets)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.urls import reverse
from django.utils import timezone

from lotacao.chartering import rules, tracking
from lotacao.chartering.models import CharteringCompany, CrcApplication, FleetVehicle, Sanction, Trip
from lotacao.chartering.status import states
from lotacao.workqueue.services import WorkItemSpec

RENEWAL_ALERTS = (60, 30)  # days before expiry: a product choice, the law fixes only the 30 of art. 8


def _url(name: str, pk: int) -> str:
    return reverse(name, kwargs={"pk": 999999999}).replace("999999999", str(pk))


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    yield from _renewals(today)
    yield from _applications()
    yield from _sanctions(today)
    yield from _authorizations()
    yield from _silent(today)


def _renewals(today: dt.date) -> Iterator[WorkItemSpec]:
    companies = list(CharteringCompany.unscoped.select_related("holder__company"))
    found = states(companies, today)
    for company in companies:
        state = found[company.pk]
        if state.status != "valid" or state.crc is None:
            continue
        left = (state.crc.valid_until - today).days
        alert = next((a for a in sorted(RENEWAL_ALERTS) if left <= a), None)
        if alert is None or state.crc.renewals.exists():
            continue
        yield WorkItemSpec(
            jurisdiction_id=company.jurisdiction_id,
            kind=f"chartering.renewal_{alert}",
            key=str(state.crc.pk),
            title=f"CRC {state.crc.number} de {company} vence em {rules.pt(state.crc.valid_until)}: renovação "  # noqa: E501
            f"até 30 dias antes",
            due_on=state.crc.valid_until,
            url=_url("chartering:company", company.pk),
        )


def _applications() -> Iterator[WorkItemSpec]:
    for application in CrcApplication.unscoped.filter(status__in=CrcApplication.OPEN).select_related(
        "company__holder__company"
    ):
        due = (
            application.complement_due
            if application.status == CrcApplication.Status.DEFICIENT
            else application.issue_due
        )
        what = "complementação" if application.status == CrcApplication.Status.DEFICIENT else "emissão do CRC"
        yield WorkItemSpec(
            jurisdiction_id=application.jurisdiction_id,
            kind="chartering.application",
            key=str(application.pk),
            title=f"Requerimento de CRC de {application.company}: prazo de {what} até {rules.pt(due)}",
            due_on=due,
            url=_url("chartering:application", application.pk),
        )


def _sanctions(today: dt.date) -> Iterator[WorkItemSpec]:
    for sanction in Sanction.unscoped.filter(
        status__in=[Sanction.Status.PROPOSED, Sanction.Status.IN_FORCE]
    ).select_related("company__holder__company"):
        if sanction.status == Sanction.Status.PROPOSED:
            title, due = (
                f"{sanction.get_kind_display()} proposta: {sanction.company} — decisão do gestor",
                today,
            )
        elif sanction.ends_on is not None and sanction.ends_on < today:
            title, due = (
                f"{sanction.get_kind_display()} de {sanction.company}: prazo cumprido, aguarda comprovação",
                sanction.ends_on,
            )
        else:
            continue
        yield WorkItemSpec(
            jurisdiction_id=sanction.jurisdiction_id,
            kind="chartering.sanction",
            key=str(sanction.pk),
            title=title[:300],
            due_on=due,
            url=_url("chartering:sanction", sanction.pk),
        )


def _authorizations() -> Iterator[WorkItemSpec]:
    for trip in Trip.unscoped.filter(status=Trip.Status.AWAITING).select_related("vehicle"):
        yield WorkItemSpec(
            jurisdiction_id=trip.jurisdiction_id,
            kind="chartering.authorization",
            key=str(trip.pk),
            title=f"Autorizar viagem em automóvel de 7 lugares {trip.vehicle}: {trip.origin} — {trip.destination}",  # noqa: E501
            due_on=timezone.localtime(trip.departs_at).date(),
            url=_url("chartering:trip", trip.pk),
        )


def _silent(today: dt.date) -> Iterator[WorkItemSpec]:
    now = timezone.now()
    codes = (
        FleetVehicle.unscoped.filter(removed_on__isnull=True)
        .values_list("jurisdiction_id", flat=True)
        .distinct()
    )
    for code in set(codes):
        minutes = tracking.silence_minutes(code, today)
        if minutes is None:
            continue
        limit = now - dt.timedelta(minutes=minutes)
        rows = FleetVehicle.unscoped.filter(jurisdiction_id=code, removed_on__isnull=True).filter(
            last_position_at__isnull=True
        ) | FleetVehicle.unscoped.filter(
            jurisdiction_id=code, removed_on__isnull=True, last_position_at__lt=limit
        )
        for entry in rows.select_related("vehicle"):
            since = (
                f"desde {timezone.localtime(entry.last_position_at):%d/%m/%Y %H:%M}"
                if entry.last_position_at
                else "nunca enviou"
            )
            yield WorkItemSpec(
                jurisdiction_id=code,
                kind="chartering.tracker_silent",
                key=str(entry.pk),
                title=f"Rastreador do veículo {entry.vehicle} sem posição {since} ({rules.cite(code, 'art. 14, IV')})",  # noqa: E501
                due_on=today,
                url=_url("chartering:company", entry.company_id),
            )
