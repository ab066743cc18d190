"""Helpers for the online requests: jurisdictions of the four municipal laws, holders with an
account, permits and vehicles made directly (the grant's own checks are tested in tests/permits)."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest
from django.utils import timezone

from lotacao.core.sample_ids import sample_cpf

_seq = itertools.count(1)
NAMES = {"cabo": "Cabo de Santo Agostinho", "marica": "Maricá", "recife": "Recife", "esteio": "Esteio"}


class Docs:
    """The document check faked complete (the documents app tests its own check)."""

    def __call__(self, **kwargs: Any) -> Any:
        from tests.permits.conftest import FakeCheck

        return FakeCheck()


@pytest.fixture
def docs_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("lotacao.documents.selectors.document_check", Docs())


class Make:
    def jurisdiction(self, code: str) -> Any:
        from lotacao.core.models import Jurisdiction

        j, _ = Jurisdiction.objects.get_or_create(
            code=code,
            defaults={
                "name": NAMES[code],
                "official_name": f"Órgão de {NAMES[code]}",
                "state": "PE",
                "population": 200_000,
            },
        )
        return j

    def holder(self, j: Any, **fields: Any) -> tuple[Any, Any]:
        from lotacao.accounts.models import HolderAccount, User
        from lotacao.registry import services

        n = next(_seq)
        person = services.create_person(
            actor=None,
            jurisdiction=j,
            cpf=sample_cpf(400_000_000 + n),
            full_name=f"Requerente {n}",
            birth_date=dt.date(1980, 1, 1),
            email=f"requerente{n}@example.org",
            reason="teste",
            **fields,
        )
        holder = services.register_holder(actor=None, person=person, reason="teste")
        user = User.objects.create_user(
            f"requerente{n}.{j.code}", password="senha-de-teste-123", email=person.email
        )
        HolderAccount.objects.create(user=user, holder=holder)
        return holder, user

    def clerk(self, j: Any, role: str = "atendente") -> Any:
        from lotacao.accounts.models import StaffMembership, User

        user, _ = User.objects.get_or_create(username=f"{role}.{j.code}")
        StaffMembership.objects.get_or_create(user=user, jurisdiction=j, role=role)
        return user

    def vehicle(self, j: Any, holder: Any, year: int = 2022, seats: int = 16) -> Any:
        from lotacao.registry import services

        n = next(_seq)
        return services.create_vehicle(
            actor=None,
            jurisdiction=j,
            plate=f"RQS{n % 10}{chr(65 + n % 26)}{n % 100:02d}",
            manufacture_year=year,
            category="van",
            seats=seats,
            doors=4,
            holder=holder,
            reason="teste",
        )

    def permit(self, j: Any, holder: Any, vehicle: Any = None, valid_for: int = 365, **fields: Any) -> Any:
        from lotacao.permits.models import Permit
        from lotacao.registry import services

        today = timezone.localdate()
        n = next(_seq)
        line = services.create_line(
            actor=None, jurisdiction=j, code=f"R{n}", name=f"Linha {n}", reason="teste"
        )
        return Permit.objects.create(
            jurisdiction=j,
            number=f"{n:04d}/{today.year}",
            holder=holder,
            line=line,
            vehicle=vehicle or self.vehicle(j, holder),
            status=Permit.Status.ACTIVE,
            applied_on=today - dt.timedelta(days=400),
            granted_on=today - dt.timedelta(days=400),
            valid_until=today + dt.timedelta(days=valid_for),
            term_citation="teste",
            **fields,
        )

    def debt(self, holder: Any) -> Any:
        from lotacao.billing.ledger.services import issue_charge

        return issue_charge(
            actor=None,
            holder=holder,
            kind="fee",
            description="Taxa vencida (teste)",
            amount="50.00",
            due_on=timezone.localdate() - dt.timedelta(days=30),
            reason="teste",
        )

    def slot(self, j: Any, capacity: int = 2, days: int = 7) -> Any:
        from lotacao.holder_requests.models import InspectionSlot

        starts = timezone.now().replace(hour=12, minute=0, second=0, microsecond=0) + dt.timedelta(days=days)
        return InspectionSlot.objects.create(
            jurisdiction=j, starts_at=starts, place="Pátio do órgão", capacity=capacity
        )


@pytest.fixture
def make(db: Any, settings: Any, tmp_path: Any) -> Make:
    settings.MEDIA_ROOT = tmp_path / "media"
    return Make()
