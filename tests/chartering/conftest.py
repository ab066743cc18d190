"""Fixtures of the chartering tests: Pernambuco (Lei 16.205/2017 as amended in 2020) beside the
shared world (Recife, Esteio): its staff, and `pe.company(...)`, a company whose CRC request is
filed with its documents accepted, with own buses insured and inspected."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from lotacao.core.sample_ids import sample_cnpj, sample_renavam

PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
PASSWORD = "senha-de-teste-123"


def make_pernambuco() -> Any:
    from lotacao.core.models import Jurisdiction
    from lotacao.law.packs import get_pack

    pack = get_pack("pernambuco")
    return Jurisdiction.objects.create(
        code="pernambuco", name=pack.name, official_name="EPTI", state=pack.state, timezone=pack.timezone
    )


@dataclass
class Pe:
    jurisdiction: Any
    users: dict[str, Any]
    today: dt.date = field(default_factory=timezone.localdate)
    seq: int = 0

    def holder(self, name: str = "Fretamentos Ltda.", kind: str = "empresa") -> Any:
        from lotacao.registry import services

        self.seq += 1
        party = services.create_company(
            actor=None,
            jurisdiction=self.jurisdiction,
            cnpj=sample_cnpj(88_000_000 + self.seq),
            legal_name=f"{name} {self.seq}",
            trade_name=f"{name.split()[0]} {self.seq}",
            kind=kind,
            city="Caruaru",
            state="PE",
            reason="teste",
        )
        return services.register_holder(actor=None, company=party, reason="teste")

    def accept_documents(self, company: Any, modalities: list[str], on: dt.date | None = None) -> None:
        from lotacao.chartering.crc import required_documents
        from lotacao.documents.models import Document

        day = on or self.today
        party = company.holder.company
        codes, _ = required_documents("pernambuco", modalities, party.kind, day)
        for code in codes:
            doc = Document(
                jurisdiction=self.jurisdiction,
                company=party,
                code=code,
                label=code,
                content_type="application/pdf",
                size=len(PDF),
                sha256="0" * 64,
                status=Document.Status.ACCEPTED,
                issued_on=day - dt.timedelta(days=30),
                valid_until=day + dt.timedelta(days=400),
            )
            doc.file.save("teste.pdf", ContentFile(PDF), save=False)
            doc.save()

    def vehicle(
        self,
        company: Any,
        plate: str,
        *,
        category: str = "bus",
        age: int = 3,
        tenure: str = "own",
        insured_until: dt.date | None = None,
        on: dt.date | None = None,
        **options: Any,
    ) -> Any:
        from lotacao.chartering import fleet

        day = on or self.today
        seats = {"bus": 46, "microbus": 28, "car7": 7}[category]
        self.seq += 1
        lessor = (
            {"lessor_name": "Locadora Ltda.", "lessor_cnpj": sample_cnpj(99_000_000 + self.seq)}
            if tenure != "own"
            else {}
        )
        entry = fleet.add_vehicle(
            actor=None,
            company=company,
            reason="teste",
            tenure=tenure,
            on=day,
            plate=plate,
            renavam=sample_renavam(7_000_000 + self.seq),
            manufacture_year=day.year - age,
            category=category,
            seats=seats,
            doors=2 if category != "car7" else 4,
            **lessor,
            **options,
        )
        self.equip(entry, insured_until or day + dt.timedelta(days=500), day)
        return entry

    def equip(self, entry: Any, insured_until: dt.date, day: dt.date) -> None:
        """A policy in force and a passed inspection with its seal (the traffic authorization)."""
        from lotacao.inspections.models import Inspection, InsurancePolicy, Seal

        cover = {"bus": "500000.00", "microbus": "300000.00", "car7": "150000.00"}[entry.vehicle.category]
        InsurancePolicy.objects.create(
            jurisdiction=self.jurisdiction,
            vehicle=entry.vehicle,
            insurer="Seguradora",
            number=f"AP-{entry.pk}",
            civil_liability=Decimal(cover),
            death_per_passenger=Decimal("13000"),
            disability_per_passenger=Decimal("5000"),
            third_party=Decimal("50000"),
            valid_from=day - dt.timedelta(days=10),
            valid_until=insured_until,
        )
        inspection = Inspection.objects.create(
            jurisdiction=self.jurisdiction,
            vehicle=entry.vehicle,
            scheduled_for=day,
            performed_on=day,
            status=Inspection.Status.PASSED,
        )
        Seal.objects.create(
            jurisdiction=self.jurisdiction,
            vehicle=entry.vehicle,
            inspection=inspection,
            number=f"S-PE-{entry.pk}",
            issued_on=day - dt.timedelta(days=1),
            valid_until=day + dt.timedelta(days=360),
        )

    def company(
        self,
        modalities: list[str] | None = None,
        *,
        buses: int = 2,
        issue: bool = True,
        on: dt.date | None = None,
        kind: str = "empresa",
        name: str = "Fretamentos Ltda.",
    ) -> Any:
        """A company with its request filed, documents accepted, `buses` own buses; the CRC issued."""
        from lotacao.chartering import crc

        day = on or self.today
        modalities = modalities or ["eventual"]
        company = crc.register_company(actor=None, holder=self.holder(name, kind), reason="teste")
        application = crc.file_application(
            actor=None, company=company, modalities=modalities, reason="teste", on=day
        )
        self.accept_documents(company, modalities, day)
        for n in range(buses):
            self.seq += 1
            self.vehicle(company, f"PE{chr(65 + self.seq % 26)}{self.seq % 10}A{10 + n}", on=day)
        if issue:
            crc.issue_crc(actor=self.users["gestor"], application=application, reason="teste", on=day)
        return company

    def login(self, client: Any, role: str) -> None:
        client.force_login(self.users[role])


@pytest.fixture
def pe(world: Any) -> Pe:
    from lotacao.accounts.models import Role, StaffMembership, User

    j = make_pernambuco()
    users = {}
    for role in Role:
        user = User.objects.create_user(f"{role.value}.pernambuco", password=PASSWORD)
        StaffMembership.objects.create(user=user, jurisdiction=j, role=role.value)
        users[role.value] = user
    return Pe(jurisdiction=j, users=users)


def company_account(company: Any, username: str = "empresa.pe") -> Any:
    from lotacao.accounts.models import HolderAccount, User

    user = User.objects.create_user(username, password=PASSWORD)
    HolderAccount.objects.create(user=user, holder=company.holder)
    return user
