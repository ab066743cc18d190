"""Helpers for the permit tests: more jurisdictions, people, vehicles, lines; documents faked complete.

The document check is H5's (lotacao.documents.selectors.document_check); these tests replace it by
a fake (complete unless a test says otherwise), so that each test exercises one legal rule.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest

from lotacao.core.sample_ids import sample_cpf

DAY = dt.date(2025, 6, 16)
RECIFE = "Lei Municipal 16.856/2003 (Recife)"
_seq = itertools.count(1)


@dataclass
class FakeCheck:
    complete: bool = True
    missing: list[str] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=lambda: ["Lei (teste), art. 7º"])
    labels: dict[str, str] = field(default_factory=dict)
    explanation: list[str] = field(default_factory=list)
    missing_parameters: list[str] = field(default_factory=list)


class Docs:
    def __init__(self) -> None:
        self.incomplete: set[int] = set()  # person ids whose file is incomplete

    def __call__(
        self,
        *,
        jurisdiction_code: str,
        role: str,
        person: Any = None,
        company: Any = None,
        vehicle: Any = None,
        on: dt.date,
    ) -> FakeCheck:
        if person is not None and person.pk in self.incomplete:
            return FakeCheck(
                complete=False,
                missing=["criminal_record"],
                labels={"criminal_record": "Certidão criminal"},
                explanation=["Certidão criminal: não apresentada."],
            )
        return FakeCheck()


@pytest.fixture(autouse=True)
def docs(monkeypatch: pytest.MonkeyPatch) -> Docs:
    fake = Docs()
    monkeypatch.setattr("lotacao.documents.selectors.document_check", fake)
    return fake


class Factory:
    def jurisdiction(self, code: str, population: int | None = None) -> Any:
        from lotacao.core.models import Jurisdiction

        names = {
            "cabo": "Cabo de Santo Agostinho",
            "marica": "Maricá",
            "recife": "Recife",
            "esteio": "Esteio",
        }
        j, _ = Jurisdiction.objects.get_or_create(
            code=code,
            defaults={
                "name": names.get(code, code),
                "official_name": f"Órgão de {code}",
                "state": "PE",
                "population": population,
            },
        )
        if population is not None and j.population != population:
            j.population = population
            j.save()
        return j

    def holder(self, j: Any, birth: dt.date = dt.date(1980, 1, 1), **fields: Any) -> Any:
        from lotacao.registry import services

        person = self.person(j, birth=birth, **fields)
        return services.register_holder(actor=None, person=person, reason="teste", on=DAY)

    def person(self, j: Any, birth: dt.date | None = dt.date(1980, 1, 1), **fields: Any) -> Any:
        from lotacao.registry import services

        n = next(_seq)
        return services.create_person(
            actor=None,
            jurisdiction=j,
            cpf=sample_cpf(300_000_000 + n),
            full_name=f"Pessoa Teste {n}",
            birth_date=birth,
            reason="teste",
            **fields,
        )

    def vehicle(self, j: Any, holder: Any = None) -> Any:
        from lotacao.registry import services

        n = next(_seq)
        return services.create_vehicle(
            actor=None,
            jurisdiction=j,
            plate=f"TST{n % 10}{chr(65 + n % 26)}{n % 100:02d}",
            manufacture_year=2022,
            category="van",
            seats=16,
            doors=4,
            holder=holder,
            reason="teste",
        )

    def line(self, j: Any) -> Any:
        from lotacao.registry import services

        n = next(_seq)
        return services.create_line(
            actor=None, jurisdiction=j, code=f"T{n}", name=f"Linha {n}", reason="teste"
        )

    def permit(self, j: Any, holder: Any = None, on: dt.date = DAY, line: Any = None, **apply: Any) -> Any:
        from lotacao.permits import services

        holder = holder or self.holder(j)
        valid_until = apply.pop("valid_until", None)
        application = services.apply_for_permit(
            actor=None, holder=holder, reason="requerimento", applied_on=on, **apply
        )
        return services.grant_permit(
            actor=None,
            permit=application,
            line=line or self.line(j),
            vehicle=self.vehicle(j, holder),
            reason="outorga",
            on=on,
            valid_until=valid_until,
        )


@pytest.fixture
def make(db: Any) -> Factory:
    return Factory()


def snapshot(permit: Any) -> tuple[Any, ...]:
    """What a refused transition must leave as it was."""
    from lotacao.permits.models import Permit

    p = Permit.unscoped.get(pk=permit.pk)
    return (p.status, p.valid_until, p.renewals, p.suspended_until, p.ends_on, p.number, p.transfers)
