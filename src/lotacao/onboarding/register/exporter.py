"""The export: the same files the import reads, written from what the jurisdiction has, so that an
export imported into an empty agency reproduces its register."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lotacao.billing.ledger.models import Charge
from lotacao.enforcement.models import InfractionNotice
from lotacao.inspections.models import Inspection, InsurancePolicy
from lotacao.onboarding.register.files import dataset, render
from lotacao.onboarding.register.other_kinds import fine_amount
from lotacao.onboarding.register.spec import (
    AGENTS,
    COMPANIES,
    DEBTS,
    HOLDERS,
    INSPECTIONS,
    INSURANCE,
    KINDS,
    LINES,
    NOTICES,
    PERMITS,
    PERSONS,
    VEHICLES,
    Kind,
)
from lotacao.permits.models import Permit, PermitAgent
from lotacao.registry.models import Company, Holder, Line, Person, Vehicle


def _fields(kind: Kind) -> list[str]:
    return [c.name for c in kind.columns]


def _plain(model: Any, kind: Kind, code: str) -> Iterator[dict[str, Any]]:
    yield from (
        model.unscoped.filter(jurisdiction_id=code).order_by("pk").values(*_fields(kind)).iterator(2000)
    )


def _holder_document(holder: Holder | None) -> str:
    if holder is None:
        return ""
    return (
        holder.person.cpf
        if holder.person_id and holder.person
        else (holder.company.cnpj if holder.company else "")
    )


def _holders(code: str) -> Iterator[dict[str, Any]]:
    for person_cpf, company_cnpj in (
        Holder.unscoped.filter(jurisdiction_id=code)
        .order_by("pk")
        .values_list("person__cpf", "company__cnpj")
    ):
        yield {"document": person_cpf or company_cnpj}


def _vehicles(code: str) -> Iterator[dict[str, Any]]:
    names = [n for n in _fields(VEHICLES) if n != "holder_document"]
    for row in (
        Vehicle.unscoped.filter(jurisdiction_id=code)
        .order_by("pk")
        .values(*names, "holder__person__cpf", "holder__company__cnpj")
        .iterator(2000)
    ):
        row["holder_document"] = row.pop("holder__person__cpf") or row.pop("holder__company__cnpj") or ""
        yield row


def _permits(code: str) -> Iterator[dict[str, Any]]:
    qs = (
        Permit.unscoped.filter(jurisdiction_id=code)
        .exclude(number="")
        .exclude(status__in=[*Permit.OPEN, Permit.Status.TRANSFERRED])
        .order_by("pk")
    )
    for row in qs.values(
        "number",
        "holder__person__cpf",
        "holder__company__cnpj",
        "vehicle__plate",
        "line__code",
        "status",
        "kind",
        "applied_on",
        "granted_on",
        "valid_until",
        "suspended_until",
        "ends_on",
    ).iterator(2000):
        data: dict[str, Any] = dict(row)
        data["holder_document"] = data.pop("holder__person__cpf") or data.pop("holder__company__cnpj") or ""
        data["plate"] = data.pop("vehicle__plate") or ""
        data["line"] = data.pop("line__code") or ""
        yield data


def _agents(code: str) -> Iterator[dict[str, Any]]:
    qs = PermitAgent.unscoped.filter(jurisdiction_id=code).exclude(permit__number="").order_by("pk")
    for row in qs.values("permit__number", "person__cpf", "role", "starts_on", "ends_on"):
        yield {
            "permit": row["permit__number"],
            "cpf": row["person__cpf"],
            "role": row["role"],
            "starts_on": row["starts_on"],
            "ends_on": row["ends_on"],
        }


def _insurance(code: str) -> Iterator[dict[str, Any]]:
    names = [n for n in _fields(INSURANCE) if n != "plate"]
    for row in (
        InsurancePolicy.unscoped.filter(jurisdiction_id=code).order_by("pk").values(*names, "vehicle__plate")
    ):
        row["plate"] = row.pop("vehicle__plate")
        yield row


def _inspections(code: str) -> Iterator[dict[str, Any]]:
    qs = Inspection.unscoped.filter(jurisdiction_id=code).order_by("pk").select_related("vehicle")
    for inspection in qs:
        seal = getattr(inspection, "seal", None)
        yield {
            "plate": inspection.vehicle.plate,
            "kind": inspection.kind,
            "scheduled_for": inspection.scheduled_for,
            "status": inspection.status,
            "performed_on": inspection.performed_on,
            "place": inspection.place,
            "notes": inspection.notes,
            "seal_number": seal.number if seal else "",
            "seal_issued_on": seal.issued_on if seal else None,
            "seal_valid_until": seal.valid_until if seal else None,
        }


def _notices(code: str) -> Iterator[dict[str, Any]]:
    qs = InfractionNotice.unscoped.filter(jurisdiction_id=code).order_by("drawn_up_at", "pk")
    qs = qs.select_related("holder__person", "holder__company", "permit", "agent")
    for notice in qs:
        yield {
            "number": notice.number,
            "drawn_up_at": notice.drawn_up_at.astimezone(_zone(notice)),
            "offender_kind": notice.offender_kind,
            "infraction_code": notice.infraction_code,
            "infraction_group": notice.infraction_group,
            "holder_document": _holder_document(notice.holder),
            "permit": notice.permit.number if notice.permit else "",
            "plate": notice.plate,
            "agent_cpf": notice.agent.cpf if notice.agent else "",
            "offender_name": notice.offender_name,
            "offender_document": notice.offender_document,
            "place": notice.place,
            "description": notice.description,
            "status": notice.status,
            "fine_amount": fine_amount(notice.penalty),
            "served_on": notice.served_on,
            "archived_on": notice.archived_on,
        }


def _zone(notice: InfractionNotice) -> Any:
    from zoneinfo import ZoneInfo

    return ZoneInfo(notice.jurisdiction.timezone or "America/Sao_Paulo")


def _debts(code: str) -> Iterator[dict[str, Any]]:
    """Open debts (unpaid, not cancelled); the reference is the charge's own, or its slip code."""
    qs = Charge.unscoped.filter(jurisdiction_id=code, paid_on__isnull=True, cancelled=False).order_by("pk")
    for charge in qs.select_related("holder__person", "holder__company"):
        reference = (
            charge.key.removeprefix("importacao:")
            if charge.key.startswith("importacao:")
            else charge.slip_code
        )
        yield {
            "reference": reference,
            "holder_document": _holder_document(charge.holder),
            "kind": charge.kind,
            "description": charge.description,
            "amount": charge.amount,
            "due_on": charge.due_on,
            "competence": charge.competence,
        }


SOURCES = {
    PERSONS.name: lambda code: _plain(Person, PERSONS, code),
    COMPANIES.name: lambda code: _plain(Company, COMPANIES, code),
    HOLDERS.name: _holders,
    LINES.name: lambda code: _plain(Line, LINES, code),
    VEHICLES.name: _vehicles,
    INSURANCE.name: _insurance,
    PERMITS.name: _permits,
    AGENTS.name: _agents,
    INSPECTIONS.name: _inspections,
    NOTICES.name: _notices,
    DEBTS.name: _debts,
}


def export_register(*, code: str, directory: Path, fmt: str = "csv") -> dict[str, int]:
    """Write one file per kind into `directory`; the number of rows of each."""
    directory.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for kind in KINDS:
        rows = list(SOURCES[kind.name](code))
        (directory / f"{kind.name}.{fmt}").write_bytes(render(dataset(kind, rows), fmt))
        counts[kind.name] = len(rows)
    return counts
