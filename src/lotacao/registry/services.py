"""Write services of the registries: keyword-only, atomic, validated, audited."""

from __future__ import annotations

import datetime as dt
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core import law
from lotacao.core.models import Jurisdiction
from lotacao.core.validators import normalize_cnpj, normalize_cpf, normalize_plate, normalize_renavam
from lotacao.registry.models import (
    POSITION_LABELS,
    Company,
    Holder,
    Line,
    LineRepresentative,
    Person,
    Vehicle,
)

HOLDER_KINDS_PARAMETER = "registry.holder_kinds"
KIND_LABELS = {"person": "pessoa física", "company": "pessoa jurídica"}


@transaction.atomic
def create_person(
    *, actor: Any, jurisdiction: Jurisdiction, cpf: str, full_name: str, reason: str, **fields: Any
) -> Person:
    digits = normalize_cpf(cpf)
    if Person.unscoped.filter(jurisdiction=jurisdiction, cpf=digits).exists():
        raise ValidationError(f"Já existe uma pessoa com o CPF {cpf} em {jurisdiction.name}.")
    person = Person(jurisdiction=jurisdiction, cpf=digits, full_name=full_name.strip(), **fields)
    return create_audited(actor=actor, instance=person, reason=reason)


@transaction.atomic
def create_company(
    *, actor: Any, jurisdiction: Jurisdiction, cnpj: str, legal_name: str, reason: str, **fields: Any
) -> Company:
    digits = normalize_cnpj(cnpj)
    if Company.unscoped.filter(jurisdiction=jurisdiction, cnpj=digits).exists():
        raise ValidationError(f"Já existe uma pessoa jurídica com o CNPJ {cnpj} em {jurisdiction.name}.")
    company = Company(jurisdiction=jurisdiction, cnpj=digits, legal_name=legal_name.strip(), **fields)
    return create_audited(actor=actor, instance=company, reason=reason)


def check_holder_kind(*, jurisdiction: Jurisdiction, kind: str, on: dt.date) -> None:
    """Refuse a holder of a kind ("person", "company") the jurisdiction's law does not allow
    (`registry.holder_kinds`): the rule of the holder's screen and of the register's import."""
    allowed = law.value(jurisdiction.code, HOLDER_KINDS_PARAMETER, on)
    if allowed is None:
        raise ValidationError(
            f"A lei de {jurisdiction.name} não define quem pode ser permissionário; "
            "o órgão gestor precisa informar esse valor antes do cadastro."
        )
    if kind not in allowed:
        cite = law.citation(jurisdiction.code, HOLDER_KINDS_PARAMETER, on)
        raise ValidationError(
            f"Em {jurisdiction.name}, {KIND_LABELS[kind]} não pode ter permissão ({cite})."
        )


def check_manufacture_year(year: int, *, today: dt.date | None = None) -> None:
    """The year of manufacture a vehicle may have (the vehicle's screen and the import)."""
    this_year = (today or timezone.localdate()).year
    if not 1950 <= int(year) <= this_year + 1:
        raise ValidationError(f"Ano de fabricação {year} inválido.")


@transaction.atomic
def register_holder(
    *,
    actor: Any,
    person: Person | None = None,
    company: Company | None = None,
    reason: str,
    on: dt.date | None = None,
) -> Holder:
    """Register a person or company as permit holder, where the jurisdiction's law allows that kind."""
    if (person is None) == (company is None):
        raise ValidationError("Informe uma pessoa física ou uma pessoa jurídica (apenas uma).")
    party = person or company
    assert party is not None
    jurisdiction = party.jurisdiction
    kind = "person" if person is not None else "company"
    check_holder_kind(jurisdiction=jurisdiction, kind=kind, on=on or timezone.localdate())
    if Holder.unscoped.filter(person=person, company=company).exists():
        raise ValidationError(f"{party} já tem cadastro de permissionário.")
    holder = Holder(jurisdiction=jurisdiction, person=person, company=company)
    return create_audited(actor=actor, instance=holder, reason=reason)


@transaction.atomic
def create_vehicle(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    plate: str,
    manufacture_year: int,
    category: str,
    seats: int,
    doors: int,
    reason: str,
    renavam: str = "",
    holder: Holder | None = None,
    **fields: Any,
) -> Vehicle:
    normalized = normalize_plate(plate)
    if Vehicle.unscoped.filter(jurisdiction=jurisdiction, plate=normalized).exists():
        raise ValidationError(f"A placa {plate} já está cadastrada em {jurisdiction.name}.")
    if holder is not None and holder.jurisdiction_id != jurisdiction.code:
        raise ValidationError("O permissionário pertence a outra jurisdição.")
    check_manufacture_year(manufacture_year)
    vehicle = Vehicle(
        jurisdiction=jurisdiction,
        plate=normalized,
        renavam=normalize_renavam(renavam) if renavam else "",
        manufacture_year=manufacture_year,
        category=category,
        seats=seats,
        doors=doors,
        holder=holder,
        **fields,
    )
    return create_audited(actor=actor, instance=vehicle, reason=reason)


@transaction.atomic
def create_line(
    *, actor: Any, jurisdiction: Jurisdiction, code: str, name: str, reason: str, **fields: Any
) -> Line:
    code = code.strip().upper()
    if Line.unscoped.filter(jurisdiction=jurisdiction, code=code).exists():
        raise ValidationError(f"A linha {code} já existe em {jurisdiction.name}.")
    line = Line(jurisdiction=jurisdiction, code=code, name=name.strip(), **fields)
    return create_audited(actor=actor, instance=line, reason=reason)


PERSON_EDITABLE = frozenset(
    {
        "cpf",
        "full_name",
        "birth_date",
        "email",
        "phone",
        "street",
        "number",
        "complement",
        "district",
        "city",
        "state",
        "postal_code",
        "cnh_number",
        "cnh_category",
        "cnh_expiry",
        "residence_since",
    }
)


@transaction.atomic
def update_person(*, actor: Any, person: Person, changes: dict[str, Any], reason: str) -> Person:
    """Change a person's registration (CPF re-validated and unique in the jurisdiction), audited."""
    unknown = set(changes) - PERSON_EDITABLE
    if unknown:
        raise ValidationError(f"Campos que não podem ser alterados aqui: {', '.join(sorted(unknown))}.")
    changes = dict(changes)
    if "cpf" in changes:
        raw = changes["cpf"]
        changes["cpf"] = normalize_cpf(raw)
        duplicate = Person.unscoped.filter(jurisdiction_id=person.jurisdiction_id, cpf=changes["cpf"])
        if duplicate.exclude(pk=person.pk).exists():
            raise ValidationError(f"Já existe uma pessoa com o CPF {raw} em {person.jurisdiction.name}.")
    if "full_name" in changes:
        changes["full_name"] = str(changes["full_name"]).strip()
    if changes.get("cnh_category"):
        changes["cnh_category"] = str(changes["cnh_category"]).strip().upper()
    person = Person.unscoped.select_for_update().get(pk=person.pk)
    return update_audited(actor=actor, instance=person, changes=changes, reason=reason)


REPRESENTATIVES_PARAMETER = "people.line_representatives"
TERM_PARAMETER = "people.representative_term"


@transaction.atomic
def add_line_representative(
    *,
    actor: Any,
    line: Line,
    person: Person,
    position: str,
    term_start: dt.date,
    reason: str,
    organization: Company | None = None,
) -> LineRepresentative:
    """Record a representative elected by a line's permit holders, within the positions and
    numbers the law sets per line (`people.line_representatives`); the term from the pack."""
    jurisdiction = line.jurisdiction
    if person.jurisdiction_id != line.jurisdiction_id or (
        organization is not None and organization.jurisdiction_id != line.jurisdiction_id
    ):
        raise ValidationError("A pessoa, a entidade e a linha devem ser da mesma jurisdição.")
    if organization is not None and organization.kind == Company.Kind.COMPANY:
        raise ValidationError("A entidade de representação deve ser uma associação ou cooperativa.")
    positions = law.value(jurisdiction.code, REPRESENTATIVES_PARAMETER, term_start)
    cite = law.citation(jurisdiction.code, REPRESENTATIVES_PARAMETER, term_start)
    if not positions:
        raise ValidationError(f"A lei de {jurisdiction.name} não prevê representantes de linha ({cite}).")
    if position not in positions:
        names = ", ".join(POSITION_LABELS.get(p, p).lower() for p in positions)
        raise ValidationError(f"Em {jurisdiction.name}, as funções de representação são: {names} ({cite}).")
    Line.unscoped.select_for_update().filter(pk=line.pk).first()  # serialize elections on a line
    current = LineRepresentative.unscoped.filter(line=line, ended_on__isnull=True).filter(
        Q(term_end__isnull=True) | Q(term_end__gte=term_start)
    )
    if current.filter(person=person).exists():
        raise ValidationError(f"{person} já é representante desta linha.")
    limit = int(positions[position])
    if current.filter(position=position).count() >= limit:
        raise ValidationError(
            f"A linha {line.code} já tem {limit} {POSITION_LABELS.get(position, position).lower()}"
            f"{'(es)' if limit > 1 else ''} com mandato em curso — o máximo da lei ({cite})."
        )
    term = law.value(jurisdiction.code, TERM_PARAMETER, term_start)
    term_end = term_start + relativedelta(**term) - dt.timedelta(days=1) if term else None
    representative = LineRepresentative(
        jurisdiction=jurisdiction,
        line=line,
        person=person,
        organization=organization,
        position=position,
        term_start=term_start,
        term_end=term_end,
    )
    return create_audited(actor=actor, instance=representative, reason=reason)


@transaction.atomic
def end_line_representative(
    *, actor: Any, representative: LineRepresentative, ended_on: dt.date, reason: str
) -> LineRepresentative:
    if representative.ended_on is not None:
        raise ValidationError("Este mandato já foi encerrado.")
    if ended_on < representative.term_start:
        raise ValidationError("O encerramento não pode ser anterior ao início do mandato.")
    return update_audited(
        actor=actor, instance=representative, changes={"ended_on": ended_on}, reason=reason
    )
