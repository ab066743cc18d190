"""Demo authorizations: where the law has the táxi, escolar and fretado authorizations (Esteio,
read from the pack), the agency turns the four kinds on, informs the validity and the taxi's fare
(demonstration acts: the law leaves both to the municipality), and a few authorizations of each
kind go through the procedure — granted, one requested, one suspended, one revoked. The date of
the regulation (art. 52) stays uninformed: the demo does not invent it. Idempotent: a
jurisdiction that already has authorizations is left as it is."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.audit.services import update_audited
from lotacao.authorizations import rules, services
from lotacao.authorizations.models import Authorization
from lotacao.core import law
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.demo import inspections
from lotacao.registry import services as registry
from lotacao.registry.models import Company, Person, Vehicle

REASON = "Dados de demonstração"
# (kind, plate, category, what happens after the request)
PLAN = (
    ("taxi_common", "ZTC1A01", "car7", "grant"),
    ("taxi_common", "ZTC1A02", "car7", "grant"),
    ("taxi_common", "ZTC1A03", "car7", "request"),
    ("taxi_special", "ZTE1A04", "car7", "grant"),
    ("taxi_special", "ZTE1A05", "car7", "suspend"),
    ("school", "ZES1A06", "van", "grant"),
    ("school", "ZES1A07", "microbus", "grant"),
    ("school", "ZES1A08", "van", "suspend"),
    ("chartered", "ZFR1A09", "microbus", "grant"),
    ("chartered", "ZFR1A10", "bus", "revoke"),
)
# Plates after the demo's own (the inspections' demo takes the first three of each agency).
SEATS = {"car7": 5, "van": 16, "microbus": 24, "bus": 44}


def _values(j: Jurisdiction, since: dt.date) -> None:
    from lotacao.web.agency_values import set_agency_value

    for parameter, value, cite in (
        (rules.VALIDITY, {"months": 12}, "Decreto de demonstração nº 1 (regulamento das autorizações)"),
        (rules.FARE, {"flag_fall": "5.50", "per_km": "3.20"}, "Planilha tarifária de demonstração nº 1"),
    ):
        if AgencyValue.unscoped.filter(
            jurisdiction=j, parameter=parameter, annulled_at__isnull=True
        ).exists():
            continue
        set_agency_value(
            actor=None,
            jurisdiction=j,
            parameter=parameter,
            valid_from=since,
            value=value,
            cite=cite,
            reason=REASON,
        )
    law.forget(j.code)


def load(today: dt.date, summary: Any) -> None:
    for j in Jurisdiction.objects.filter(active=True).order_by("code"):
        if not rules.law_kinds(j.code, today):
            continue
        if Authorization.unscoped.filter(jurisdiction=j).exists():
            summary.existing += 1
            continue
        update_audited(
            actor=None,
            instance=j,
            changes=dict.fromkeys(rules.SETTING.values(), True),
            reason="Demonstração: o órgão registra as autorizações de táxi, escolar e fretado no sistema",
        )
        since = dt.date(today.year - 1, 1, 1)
        _values(j, since)
        people = list(Person.objects.filter(jurisdiction=j).order_by("pk")[:6])
        companies = list(Company.objects.filter(jurisdiction=j).order_by("pk")[:3])
        if not people:
            continue
        requested = today - dt.timedelta(days=60)
        for n, (kind, plate, category, then) in enumerate(PLAN):
            car = Vehicle.objects.filter(jurisdiction=j, plate=plate).first() or registry.create_vehicle(
                actor=None,
                jurisdiction=j,
                plate=plate,
                manufacture_year=today.year - 3,
                category=category,
                seats=SEATS[category],
                doors=4 if category == "car7" else 2,
                make_model="Sedã de demonstração" if category == "car7" else "",
                reason=REASON,
            )
            company = companies[n % len(companies)] if kind == "chartered" and companies else None
            row = services.request_authorization(
                actor=None,
                jurisdiction_code=j.code,
                kind=kind,
                vehicle=car,
                person=None if company else people[n % len(people)],
                company=company,
                requested_on=requested,
                reason=REASON,
            )
            if then == "request":
                continue
            row = services.grant(
                actor=None,
                authorization=row,
                number=f"{kind[:3].upper()}-{n + 1:03d}/{requested.year}",
                act=f"Portaria de demonstração nº {n + 10}/{requested.year}",
                starts_on=requested + dt.timedelta(days=5),
                reason=REASON,
            )
            inspections._passed(car, today, summary)  # the seal the plate check also asks for
            if then == "suspend":
                services.suspend(
                    actor=None,
                    authorization=row,
                    act=f"Portaria de demonstração nº {n + 30}/{today.year}",
                    reasons="Vistoria do veículo vencida: suspensa até a nova vistoria.",
                )
            elif then == "revoke":
                services.revoke(
                    actor=None,
                    authorization=row,
                    act=f"Portaria de demonstração nº {n + 50}/{today.year}",
                    reasons="Cobrança de passagem no embarque, vedada no fretado (art. 17, parágrafo único).",
                )
