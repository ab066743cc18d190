"""Reads of the operator duties for the screens, the holder's home (`holder_duties`), the road
check (`authorizations_in_force`) and the work queue (`work_items`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from lotacao.core.formats import br_date, lower_first
from lotacao.duties import rules
from lotacao.duties.models import Authorization, IncidentReport, PeriodicReport
from lotacao.duties.periods import periods_between
from lotacao.registry.models import Holder, Vehicle
from lotacao.workqueue.services import WorkItemSpec

EXPIRY_HORIZON = 30  # days before an authorization ends that the holder's home shows it


def holder_start(holder: Holder) -> dt.date:
    """The first day the holder's duties run: their first permit's grant, else the registration."""
    from lotacao.permits.models import Permit

    granted = (
        Permit.unscoped.filter(holder=holder, granted_on__isnull=False)
        .order_by("granted_on")
        .values_list("granted_on", flat=True)
        .first()
    )
    return granted or holder.created_at.date()


@dataclass(frozen=True)
class Period:
    rule: rules.ReportRule
    start: dt.date
    end: dt.date
    due: dt.date
    delivered: PeriodicReport | None

    @property
    def overdue(self) -> bool:
        return self.delivered is None and self._today > self.due

    _today: dt.date = dt.date.min

    @property
    def label(self) -> str:
        if self.rule.every_months == 1:
            return f"{self.start:%m/%Y}"
        return f"{br_date(self.start)} a {br_date(self.end)}"


def report_periods(holder: Holder, today: dt.date) -> list[Period]:
    """Every finished period of each report the law (or the agency) defines, newest first."""
    code = holder.jurisdiction_id
    delivered = {(r.report, r.period_start): r for r in PeriodicReport.unscoped.filter(holder=holder)}
    start = holder_start(holder)
    out = []
    for rule in rules.report_rules(code, today):
        for begin, end, due in periods_between(rule, start, today):
            out.append(Period(rule, begin, end, due, delivered.get((rule.id, begin)), today))
    return out


def pending_rules(code: str, today: dt.date) -> list[rules.ReportRule]:
    """Reports the law requires whose period and deadline the agency has not supplied yet."""
    return [r for r in rules.report_rules(code, today) if not r.defined]


def authorizations_in_force(vehicle: Vehicle, on: dt.date) -> list[dict[str, Any]]:
    """The vehicle's authorizations in force on `on` (and its holder's interruptions): what the
    inspector reads on the road check."""
    rows = Authorization.unscoped.filter(
        Q(vehicle=vehicle) | Q(vehicle__isnull=True, holder_id=vehicle.holder_id),
        jurisdiction_id=vehicle.jurisdiction_id,
        status=Authorization.Status.GRANTED,
        starts_on__lte=on,
        ends_on__gte=on,
    ).order_by("ends_on", "pk")
    return [
        {
            "what": row.get_kind_display(),
            "starts_on": row.starts_on,
            "ends_on": row.ends_on,
            "citation": row.citation,
            "purpose": row.purpose,
        }
        for row in rows
    ]


def holder_duties(holder: Holder, today: dt.date) -> list[dict[str, Any]]:
    """The holder's deadlines for their home: periodic reports due or overdue, authorizations about
    to end, post-accident inspections scheduled — `[{"what", "due", "citation"}]`, soonest first."""
    out: list[dict[str, Any]] = []
    for period in report_periods(holder, today):
        if period.delivered is None:
            out.append(
                {
                    "what": f"Entregar: {period.rule.description} ({period.label})",
                    "due": period.due,
                    "citation": period.rule.citation,
                }
            )
    horizon = today + dt.timedelta(days=EXPIRY_HORIZON)
    for row in Authorization.unscoped.filter(
        holder=holder, status=Authorization.Status.GRANTED, ends_on__gte=today, ends_on__lte=horizon
    ).select_related("vehicle"):
        vehicle = f" do veículo {row.vehicle}" if row.vehicle_id else ""
        out.append(
            {
                "what": f"Autorização termina: {lower_first(row.get_kind_display())}{vehicle}",
                "due": row.ends_on,
                "citation": row.citation,
            }
        )
    for report in IncidentReport.unscoped.filter(
        holder=holder, inspection__status="scheduled"
    ).select_related("inspection", "vehicle"):
        out.append(
            {
                "what": f"Levar o veículo {report.vehicle} à vistoria após o acidente ({report.protocol})",
                "due": report.inspection.scheduled_for if report.inspection else None,
                "citation": report.citations[-1] if report.citations else "",
            }
        )
    return sorted(out, key=lambda d: d["due"])


def work_items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    """For staff: late incident reports not yet reviewed (with the infraction suggested),
    accidents whose inspection could not be scheduled, authorization requests to decide, and
    periodic reports overdue."""
    from lotacao.duties.services import (
        LATE_REPORT_KIND,
        authorization_item,
        inspection_item,
        late_incident_item,
    )

    late = IncidentReport.unscoped.filter(late=True, reviewed_at__isnull=True).select_related("vehicle")
    for report in late:
        yield late_incident_item(report)
    for report in IncidentReport.unscoped.filter(
        kind=IncidentReport.Kind.ACCIDENT, inspection__isnull=True, reviewed_at__isnull=True
    ).select_related("vehicle", "jurisdiction"):
        rule = rules.incident_rule(report.jurisdiction_id, report.occurred_at.date())
        if rule and "inspection" in rule:
            yield inspection_item(report)
    for row in Authorization.unscoped.filter(status=Authorization.Status.REQUESTED).select_related(
        "holder__person", "holder__company", "vehicle"
    ):
        yield authorization_item(row)
    holders = Holder.unscoped.filter(jurisdiction__in=_report_jurisdictions(today))
    for holder in holders.select_related("person", "company"):
        for period in report_periods(holder, today):
            if not period.overdue:
                continue
            infractions = rules.suggested_infractions(
                holder.jurisdiction_id, rules.REPORT_INFRACTIONS, period.end
            )
            words = "; ".join(f"{i['citation']} — {i['description']}" for i in infractions)
            yield WorkItemSpec(
                jurisdiction_id=holder.jurisdiction_id,
                kind=LATE_REPORT_KIND,
                key=f"report:{holder.pk}:{period.rule.id}:{period.start.isoformat()}",
                title=(
                    f"{holder}: {period.rule.description} ({period.label}) não entregue, venceu em "
                    f"{br_date(period.due)}" + (f" — infração sugerida {words}" if words else "")
                )[:300],
                due_on=period.due,
                url=f"/deveres/relatorios/?permissionario={holder.pk}",
            )


def _report_jurisdictions(today: dt.date) -> list[str]:
    from lotacao.core.law import pack_ids
    from lotacao.core.models import Jurisdiction

    known = set(pack_ids())
    return [
        code
        for code in Jurisdiction.objects.values_list("code", flat=True)
        if code in known and any(r.defined for r in rules.report_rules(code, today))
    ]
