"""Demo permits: in each jurisdiction with permits, one in every state the law has (active,
suspended, revoked with its ban, expired, application pending, withdrawn where the law regulates
it), an agent where the law allows one, and an unpaid charge. Idempotent."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.billing.models import Charge
from lotacao.billing.services import issue_charge
from lotacao.core.models import Jurisdiction
from lotacao.core.sample_ids import sample_cpf
from lotacao.demo.base import PLATE_PREFIX, REASON
from lotacao.permits import rules, services
from lotacao.permits.models import Permit
from lotacao.registry import services as registry
from lotacao.registry.models import Holder, Line, Person, Vehicle

AGENT_ROLE_ORDER = ("fare_collector", "auxiliary_driver", "relief_driver")


def load(today: dt.date, summary: Any) -> None:
    for index, jurisdiction in enumerate(Jurisdiction.objects.order_by("code")):
        code = jurisdiction.code
        if rules.entry(code, "permit.term", today) is None:
            continue  # the law has no permits of this kind (Pernambuco: chartering)
        existing = Permit.unscoped.filter(jurisdiction=jurisdiction).count()
        if existing:
            summary.existing += existing
            continue
        _load(jurisdiction, index, today, summary)


def _term(code: str, start: dt.date) -> dt.date:
    term = rules.value(code, "permit.term", start)
    return rules.add(start, term or {"years": 5}) - dt.timedelta(days=1)


def _extra_holder(jurisdiction: Jurisdiction, index: int, n: int, summary: Any) -> tuple[Holder, Vehicle]:
    cpf = sample_cpf(100_500_000 + index * 1000 + n)
    person = Person.unscoped.filter(jurisdiction=jurisdiction, cpf=cpf).first() or registry.create_person(
        actor=None,
        jurisdiction=jurisdiction,
        cpf=cpf,
        full_name=f"Permissionário Demonstração {n + 1}",
        birth_date=dt.date(1975 + n, 3, 1 + n),
        city=jurisdiction.name,
        state=jurisdiction.state,
        reason=REASON,
    )
    holder = Holder.unscoped.filter(person=person).first() or registry.register_holder(
        actor=None, person=person, reason=REASON
    )
    plate = f"{PLATE_PREFIX[jurisdiction.code]}8Z{n:02d}"
    vehicle = Vehicle.unscoped.filter(
        jurisdiction=jurisdiction, plate=plate
    ).first() or registry.create_vehicle(
        actor=None,
        jurisdiction=jurisdiction,
        plate=plate,
        manufacture_year=2021,
        category="van",
        seats=16,
        doors=4,
        holder=holder,
        reason=REASON,
    )
    summary.created += 3
    return holder, vehicle


def _load(jurisdiction: Jurisdiction, index: int, today: dt.date, summary: Any) -> None:
    code = jurisdiction.code
    lines = list(Line.unscoped.filter(jurisdiction=jurisdiction).order_by("code"))
    holders = list(Holder.unscoped.filter(jurisdiction=jurisdiction).order_by("id")[:3])
    if not lines or len(holders) < 3:
        return
    seq = iter(range(1, 100))

    def existing_permit(
        holder: Holder, vehicle: Vehicle, granted: dt.date, line: Line, until: dt.date | None = None
    ) -> Permit:
        summary.created += 1
        if until is None:
            term = rules.value(code, "permit.term", granted) or {"years": 4}  # undefined: the edital's
            until = rules.add(granted, term) - dt.timedelta(days=1)
        return services.import_existing_permit(
            actor=None,
            holder=holder,
            line=line,
            vehicle=vehicle,
            number=f"{next(seq):04d}/{granted.year}",
            granted_on=granted,
            valid_until=until,
            reason=REASON,
            existing_operator=True,
        )

    def vehicle_of(holder: Holder) -> Vehicle:
        vehicle = Vehicle.unscoped.filter(holder=holder).order_by("id").first()
        assert vehicle is not None
        return vehicle

    # Active, with an agent where the law allows one.
    active = existing_permit(holders[0], vehicle_of(holders[0]), today - dt.timedelta(days=730), lines[0])
    limits = rules.value(code, "agents.limits", today) or {}
    role = next((r for r in AGENT_ROLE_ORDER if int(limits.get(r, 0)) > 0), None)
    if role is not None:
        agent_holder, _ = _extra_holder(jurisdiction, index, 9, summary)
        assert agent_holder.person is not None
        services.import_existing_agent(
            actor=None,
            permit=active,
            person=agent_holder.person,
            role=role,
            starts_on=today - dt.timedelta(days=300),
            reason=REASON,
        )
        summary.created += 1
    # Suspended.
    suspended = existing_permit(holders[1], vehicle_of(holders[1]), today - dt.timedelta(days=400), lines[-1])
    services.suspend_permit(
        actor=None,
        permit=suspended,
        until=today + dt.timedelta(days=20),
        reason="Penalidade de suspensão (demonstração).",
        on=today - dt.timedelta(days=10),
    )
    # Expired: granted one term ago, recorded by the expiry job.
    old = rules.subtract(today, rules.value(code, "permit.term", today) or {"years": 2})
    expired = existing_permit(
        holders[2], vehicle_of(holders[2]), old, lines[0], until=today - dt.timedelta(days=30)
    )
    services.expire_permit(actor=None, permit=expired, on=today)
    # Revoked, with the re-entry ban the law sets.
    holder, vehicle = _extra_holder(jurisdiction, index, 0, summary)
    revoked = existing_permit(holder, vehicle, today - dt.timedelta(days=900), lines[-1])
    services.revoke_permit(
        actor=None,
        permit=revoked,
        reason="Cassação por reincidência (demonstração).",
        on=today - dt.timedelta(days=120),
    )
    # Application waiting for analysis.
    holder, _ = _extra_holder(jurisdiction, index, 1, summary)
    services.apply_for_permit(
        actor=None,
        holder=holder,
        reason="Requerimento (demonstração).",
        applied_on=today - dt.timedelta(days=3),
        residence_since=dt.date(2015, 1, 1),
    )
    summary.created += 1
    # An unpaid fine of the applicant: the grant flow shows it where the law requires clearance.
    if not Charge.unscoped.filter(holder=holder).exists():
        issue_charge(
            actor=None,
            holder=holder,
            kind="fine",
            description="Auto de infração (demonstração)",
            amount="250.00",
            due_on=today - dt.timedelta(days=15),
            reason=REASON,
        )
        summary.created += 1
    # Withdrawn, where the law regulates withdrawal.
    if rules.entry(code, "deadline.withdrawal_notice", today) is not None:
        holder, vehicle = _extra_holder(jurisdiction, index, 2, summary)
        withdrawn = existing_permit(holder, vehicle, today - dt.timedelta(days=500), lines[0])
        services.withdraw_permit(
            actor=None,
            permit=withdrawn,
            notice_on=today - dt.timedelta(days=45),
            ceases_on=today - dt.timedelta(days=5),
            reason="Desistência comunicada pelo permissionário (demonstração).",
            on=today,
        )
