"""Demo data for the five jurisdictions (`manage.py load_demo`); idempotent: agencies, people,
vehicles, lines and users here, then each domain's loader.

Everything is created through the same services the screens use, so it is validated and
audited like real work ("Dados de demonstração"). Identifiers (CPF, CNPJ, RENAVAM) are
generated with valid check digits from fixed seeds, so a second run finds the same rows.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from lotacao.accounts.models import HolderAccount, Role, StaffMembership, User
from lotacao.core.models import Jurisdiction
from lotacao.core.sample_ids import sample_cnpj, sample_cpf, sample_renavam
from lotacao.law.packs import get_pack
from lotacao.registry import services
from lotacao.registry.models import Company, Holder, Line, Person, Vehicle

DEMO_PASSWORD = "lotacao-demo"  # noqa: S105 - documented demo password
REASON = "Dados de demonstração"
OPERATOR = "operador"

AGENCIES = {
    "recife": ("Recife", "CTTU — Autarquia de Trânsito e Transporte Urbano do Recife", None),
    "cabo": ("Cabo de Santo Agostinho", "Secretaria Executiva de Serviços Públicos", 203_216),
    "esteio": ("Esteio", "SMOVT — Secretaria Municipal de Obras, Viação e Trânsito", None),
    "marica": ("Maricá", "EPT — Autarquia Empresa Pública de Transportes", None),
    "pernambuco": ("Pernambuco", "EPTI — Empresa Pernambucana de Transporte Intermunicipal", None),
}

# The agencies' service channels and ombudsman for the footer: fictitious (reserved example
# domains, numbers ending 0000) — each agency types its own in the admin.
CONTACT_DDD = {"recife": "81", "cabo": "81", "esteio": "51", "marica": "21", "pernambuco": "81"}


def _contacts(code: str, name: str, state: str) -> dict[str, str]:
    ddd = CONTACT_DDD.get(code, "61")
    return {
        "address": f"Endereço de demonstração, Centro — {name}/{state}",
        "phone": f"({ddd}) 3000-0000",
        "hours": "dias úteis, das 8h às 17h",
        "email": f"atendimento@{code}.example.org",
        "website": f"https://{code}.example.org/",
        "ombudsman_phone": f"({ddd}) 3000-0001",
        "ombudsman_email": f"ouvidoria@{code}.example.org",
        "ombudsman_url": f"https://{code}.example.org/ouvidoria/",
    }


FIRST_NAMES = ["José", "Maria", "Antônio", "Francisca", "João", "Ana", "Severino", "Luiza", "Carlos", "Rita"]
LAST_NAMES = [
    "da Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Lima",
    "Pereira",
    "Ferreira",
    "Costa",
    "Rodrigues",
    "Almeida",
]
LINES = {
    "recife": [
        ("L-101", "Casa Amarela — Derby", "Casa Amarela", "Derby"),
        ("L-205", "Ibura — Boa Vista", "Ibura", "Boa Vista"),
    ],
    "cabo": [
        ("C-01", "Ponte dos Carvalhos — Centro", "Ponte dos Carvalhos", "Centro"),
        ("C-02", "Gaibu — Centro", "Gaibu", "Centro"),
    ],
    "esteio": [
        ("A-1", "Autolotação Centro — Parque Amador", "Centro", "Parque Amador"),
        ("A-2", "Autolotação Centro — Novo Esteio", "Centro", "Novo Esteio"),
    ],
    "marica": [
        ("M-10", "Itaipuaçu — Centro", "Itaipuaçu", "Centro"),
        ("M-20", "Ponta Negra — Centro", "Ponta Negra", "Centro"),
    ],
}
# (category, seats, doors, age in years) of each demo holder's vehicle
FLEETS = {
    "recife": [("van", 16, 4, 3), ("van", 16, 4, 6), ("microbus", 21, 2, 8)],
    "cabo": [("van", 16, 4, 2), ("van", 12, 4, 7), ("van", 16, 4, 9)],
    "esteio": [("microbus", 21, 2, 4), ("microbus", 21, 2, 11), ("van", 16, 4, 1)],
    "marica": [("van", 16, 4, 5), ("microbus", 24, 2, 9), ("van", 16, 4, 2)],
    "pernambuco": [("bus", 46, 2, 5), ("bus", 46, 2, 12), ("microbus", 28, 2, 3)],
}
PLATE_PREFIX = {"recife": "PEA", "cabo": "PCB", "esteio": "IST", "marica": "RMA", "pernambuco": "PEF"}


@dataclass
class DemoSummary:
    created: int = 0
    existing: int = 0


def load(today: dt.date | None = None) -> DemoSummary:
    today = today or dt.date.today()  # noqa: DTZ011 - the demo only needs the calendar year
    summary = DemoSummary()
    with transaction.atomic():
        _operator(summary)
        for index, code in enumerate(AGENCIES):
            jurisdiction = _jurisdiction(code, summary)
            holders = _holders(jurisdiction, index, summary)
            _vehicles(jurisdiction, holders, index, today, summary)
            _lines(jurisdiction, summary)
            _users(jurisdiction, holders[0], summary)
        # Each domain extends the demo with what its models hold, in this order (a later one
        # reads what an earlier one made: inspections need permits, enforcement needs both).
        from lotacao.demo import (
            billing,
            chartering,
            documents,
            enforcement,
            inspections,
            lines,
            ombudsman,
            permits,
        )
        from lotacao.demo import holder_requests as requests

        loaders = [permits, documents, inspections, lines, chartering, enforcement, billing, requests]
        loaders.append(ombudsman)
        from lotacao.demo import councils

        loaders.append(councils)
        for loader in loaders:
            loader.load(today, summary)
        from lotacao.demo import duties

        duties.load(today, summary)
        from lotacao.demo import rosters

        rosters.load(today, summary)
        from lotacao.demo import delegation

        delegation.load(today, summary)
        from lotacao.demo import authorizations, tenders, training

        tenders.load(today, summary)
        training.load(today, summary)
        authorizations.load(today, summary)
        # What the nightly job would have queued, so the demo opens on a real work queue.
        from lotacao.workqueue.services import refresh

        refresh(today)
    return summary


def _operator(summary: DemoSummary) -> None:
    if User.objects.filter(username=OPERATOR).exists():
        summary.existing += 1
        return
    User.objects.create_superuser(OPERATOR, email="", password=DEMO_PASSWORD, first_name="Operador")
    summary.created += 1


def _jurisdiction(code: str, summary: DemoSummary) -> Jurisdiction:
    pack = get_pack(code)
    name, official, population = AGENCIES[code]
    jurisdiction, created = Jurisdiction.objects.get_or_create(
        code=code,
        defaults={
            "name": name,
            "official_name": official,
            "state": pack.state,
            "timezone": pack.timezone,
            "population": population,
        },
    )
    summary.created += created
    summary.existing += not created
    assert isinstance(jurisdiction, Jurisdiction)
    if not (jurisdiction.phone or jurisdiction.ombudsman_phone):  # never overwrite what the agency typed
        for field, value in _contacts(code, name, pack.state).items():
            setattr(jurisdiction, field, value)
        jurisdiction.save()
    return jurisdiction


def _holders(jurisdiction: Jurisdiction, index: int, summary: DemoSummary) -> list[Holder]:
    kinds = get_pack(jurisdiction.code).resolve("registry.holder_kinds", dt.date.today()).value  # noqa: DTZ011
    holders = []
    for n in range(3):
        seed = 100_000_000 + index * 1000 + n
        first, last = FIRST_NAMES[(index * 3 + n) % 10], LAST_NAMES[(index * 7 + n) % 10]
        # Companies only where the law allows them; in Esteio (persons and companies) the third one.
        use_company = "person" not in kinds or (n == 2 and "company" in kinds)
        party: dict[str, Any]
        if use_company:
            company = Company.objects.filter(jurisdiction=jurisdiction, cnpj=sample_cnpj(seed)).first()
            if company is None:
                company = services.create_company(
                    actor=None,
                    jurisdiction=jurisdiction,
                    cnpj=sample_cnpj(seed),
                    legal_name=f"{last.split()[-1]} Transportes e Turismo Ltda.",
                    trade_name=f"{last.split()[-1]} Turismo",
                    city=jurisdiction.name,
                    state=jurisdiction.state,
                    reason=REASON,
                )
            party = {"company": company}
        else:
            person = Person.objects.filter(jurisdiction=jurisdiction, cpf=sample_cpf(seed)).first()
            if person is None:
                person = services.create_person(
                    actor=None,
                    jurisdiction=jurisdiction,
                    cpf=sample_cpf(seed),
                    full_name=f"{first} {last}",
                    birth_date=dt.date(1970 + n * 5, 1 + index, 10 + n),
                    city=jurisdiction.name,
                    state=jurisdiction.state,
                    phone=f"(81) 9{seed % 10000:04d}-{n:04d}",
                    cnh_number=f"{seed:011d}",
                    cnh_category="D",
                    reason=REASON,
                )
            party = {"person": person}
        holder = Holder.objects.filter(**party).first()
        if holder is None:
            holder = services.register_holder(actor=None, reason=REASON, **party)
            summary.created += 1
        else:
            summary.existing += 1
        holders.append(holder)
    return holders


def _vehicles(
    jurisdiction: Jurisdiction, holders: list[Holder], index: int, today: dt.date, summary: DemoSummary
) -> None:
    for n, (holder, (category, seats, doors, age)) in enumerate(
        zip(holders, FLEETS[jurisdiction.code], strict=True)
    ):
        plate = f"{PLATE_PREFIX[jurisdiction.code]}{n + 1}{chr(ord('A') + index)}{10 + n}"
        if Vehicle.objects.filter(jurisdiction=jurisdiction, plate=plate).exists():
            summary.existing += 1
            continue
        services.create_vehicle(
            actor=None,
            jurisdiction=jurisdiction,
            plate=plate,
            renavam=sample_renavam(5_000_000 + index * 100 + n),
            manufacture_year=today.year - age,
            model_year=today.year - age,
            category=category,
            seats=seats,
            doors=doors,
            make_model={"van": "Renault Master", "microbus": "Volare W9", "bus": "Marcopolo Paradiso"}[
                category
            ],
            holder=holder,
            reason=REASON,
        )
        summary.created += 1


def _lines(jurisdiction: Jurisdiction, summary: DemoSummary) -> None:
    for code, name, origin, destination in LINES.get(jurisdiction.code, []):
        if Line.objects.filter(jurisdiction=jurisdiction, code=code).exists():
            summary.existing += 1
            continue
        services.create_line(
            actor=None,
            jurisdiction=jurisdiction,
            code=code,
            name=name,
            origin=origin,
            destination=destination,
            reason=REASON,
        )
        summary.created += 1


def _users(jurisdiction: Jurisdiction, holder: Holder, summary: DemoSummary) -> None:
    for role in Role:
        user = _user(f"{role.value}.{jurisdiction.code}", f"{role.label} — {jurisdiction.name}", summary)
        StaffMembership.objects.get_or_create(user=user, jurisdiction=jurisdiction, role=role.value)
    account_user = _user(f"permissionario.{jurisdiction.code}", str(holder), summary)
    HolderAccount.objects.get_or_create(user=account_user, defaults={"holder": holder})


def _user(username: str, full_name: str, summary: DemoSummary) -> User:
    user = User.objects.filter(username=username).first()
    if user is not None:
        summary.existing += 1
        return user
    first, _, last = full_name.partition(" ")
    user = User.objects.create_user(
        username, password=DEMO_PASSWORD, first_name=first[:150], last_name=last[:150]
    )
    summary.created += 1
    return user


def logins() -> list[tuple[str, str]]:
    rows = [(OPERATOR, "operador da instalação (administração)")]
    for code, (name, _official, _population) in AGENCIES.items():
        for role in Role:
            rows.append((f"{role.value}.{code}", f"{role.label} — {name}"))
        rows.append((f"permissionario.{code}", f"permissionário — {name}"))
    return rows
