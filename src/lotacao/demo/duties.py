"""Demo operator duties: for the portal holder of each jurisdiction whose law has them, an
incident report filed late (its infraction suggested to staff) and, where the law requires the
inspection after an accident (Maricá), an accident with its inspection; prior authorizations
granted and waiting; and the agency's values the laws leave open for the periodic reports
("Portaria de demonstração"). Idempotent (a jurisdiction with reports is left as it is)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from lotacao.accounts.models import HolderAccount
from lotacao.core.formats import lower_first
from lotacao.core.law import pack_for
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.demo.base import REASON
from lotacao.duties import rules, services
from lotacao.duties.models import Authorization, IncidentReport
from lotacao.registry.models import Vehicle

AGENCY_VALUES: dict[str, dict[str, dict[str, Any]]] = {
    "recife": {"report.operational_data": {"every_months": 1, "due_days": 10}},
    "esteio": {
        "report.statements_monthly": {"every_months": 1, "due_days": 15},
        # Art. 27 admits an interruption by an external fact but sets no deadline to report it.
        "deadline.accident_report": {"days": 1, "counting": "business_days"},
    },
    "marica": {"report.tachograph_discs": {"every_months": 3, "due_days": 10}},
}
# (kind, days from today, days of validity, decided: None = waiting, True = granted)
AUTHORIZATIONS: dict[str, list[tuple[str, int, int, bool | None]]] = {
    "recife": [("advertising", 0, 89, True), ("leave_municipality", 3, 1, None)],
    "esteio": [("other_use", 0, 20, True), ("sale", 5, 30, None)],
    "marica": [("leave_municipality", 0, 2, True), ("interruption", 10, 14, None)],
}


def load(today: dt.date, summary: Any) -> None:
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        code = jurisdiction.code
        if rules.incident_rule(code, today) is None:
            continue  # the law has no operator duties of this kind (Cabo, Pernambuco)
        if IncidentReport.unscoped.filter(jurisdiction=jurisdiction).exists():
            summary.existing += 1
            continue
        _agency_values(jurisdiction)
        account = (
            HolderAccount.objects.select_related("holder").filter(holder__jurisdiction=jurisdiction).first()
        )
        if account is None:
            continue
        holder = account.holder
        vehicle = Vehicle.unscoped.filter(holder=holder, deregistered_on__isnull=True).order_by("pk").first()
        if vehicle is None:
            continue
        _incidents(jurisdiction, holder, vehicle, today)
        _authorizations(jurisdiction, holder, vehicle, today)
        summary.created += 1


def _agency_values(jurisdiction: Jurisdiction) -> None:
    from lotacao.web.agency_values import set_agency_value

    for parameter, value in AGENCY_VALUES.get(jurisdiction.code, {}).items():
        if AgencyValue.unscoped.filter(jurisdiction=jurisdiction, parameter=parameter).exists():
            continue
        set_agency_value(
            actor=None,
            jurisdiction=jurisdiction,
            parameter=parameter,
            valid_from=pack_for(jurisdiction.code).start,
            value=value,
            cite="Portaria de demonstração nº 2",
            reason=REASON,
        )
    from lotacao.core import law

    law.forget(jurisdiction.code)


def _incidents(jurisdiction: Jurisdiction, holder: Any, vehicle: Vehicle, today: dt.date) -> None:
    tz = ZoneInfo(jurisdiction.timezone)
    rule = rules.incident_rule(jurisdiction.code, today) or {}
    late = dt.datetime.combine(today - dt.timedelta(days=10), dt.time(7, 40), tzinfo=tz)
    services.report_incident(
        actor=None,
        holder=holder,
        vehicle=vehicle,
        kind="incident",
        occurred_at=late,
        description="Alagamento na avenida principal: viagens suspensas por duas horas.",
        place="Avenida principal, perto do terminal",
        reason=REASON,
    )
    if "inspection" in rule:
        recent = dt.datetime.combine(today, dt.time(6, 15), tzinfo=tz) - dt.timedelta(days=1)
        services.report_incident(  # the inspection is scheduled, or a work item asks for it
            actor=None,
            holder=holder,
            vehicle=vehicle,
            kind="accident",
            occurred_at=recent,
            description="Colisão traseira leve num semáforo, sem feridos; para-choque amassado.",
            place="Rua do centro, em frente ao nº 120",
            reason=REASON,
        )


def _authorizations(jurisdiction: Jurisdiction, holder: Any, vehicle: Vehicle, today: dt.date) -> None:
    kinds = rules.authorization_kinds(jurisdiction.code, today)
    for kind, start, days, decided in AUTHORIZATIONS.get(jurisdiction.code, []):
        if kind not in kinds:
            continue
        row = services.request_authorization(
            actor=None,
            holder=holder,
            vehicle=None if kind == Authorization.Kind.INTERRUPTION else vehicle,
            kind=kind,
            starts_on=today + dt.timedelta(days=start),
            ends_on=today + dt.timedelta(days=start + days),
            purpose="Pedido de demonstração: " + lower_first(Authorization.Kind(kind).label) + ".",
            reason=REASON,
            today=today,
        )
        if decided:
            services.decide_authorization(
                actor=None,
                authorization=row,
                grant=True,
                reasons="Atende às condições do órgão gestor (demonstração).",
                citation=kinds[kind],
                decided_on=today,
                reason=REASON,
            )
