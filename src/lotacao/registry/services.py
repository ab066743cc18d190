"""Write services of the registries: keyword-only, atomic, validated, audited."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.core import law
from lotacao.core.models import Jurisdiction
from lotacao.core.services import create_audited
from lotacao.core.validators import normalize_cnpj, normalize_cpf, normalize_plate, normalize_renavam
from lotacao.registry.models import Company, Holder, Line, Person, Vehicle

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
    day = on or timezone.localdate()
    allowed = law.resolve(jurisdiction.code, HOLDER_KINDS_PARAMETER, day)
    if allowed is None:
        raise ValidationError(
            f"A lei de {jurisdiction.name} não define quem pode ser permissionário; "
            "o órgão gestor precisa informar esse valor antes do cadastro."
        )
    if kind not in allowed:
        cite = law.citation(jurisdiction.code, HOLDER_KINDS_PARAMETER, day)
        raise ValidationError(
            f"Em {jurisdiction.name}, {KIND_LABELS[kind]} não pode ser permissionário(a) ({cite})."
        )
    if Holder.unscoped.filter(person=person, company=company).exists():
        raise ValidationError(f"{party} já está cadastrado(a) como permissionário(a).")
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
    this_year = timezone.localdate().year
    if not 1950 <= int(manufacture_year) <= this_year + 1:
        raise ValidationError(f"Ano de fabricação {manufacture_year} inválido.")
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
