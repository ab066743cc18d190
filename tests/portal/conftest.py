"""Fixtures of the portal's tests: a Maricá holder with a portal account and a fine in UFIMA
(art. 51) on a notice served two days ago, so its appeal is open (art. 70) and needs the fine
paid first (art. 70, parágrafo único)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from lotacao.core.sample_ids import sample_cpf
from tests.enforcement.conftest import make_jurisdiction

UFIMA_FINE = {"penalties": [{"type": "fine", "units": "2", "unit": "UFIMA"}]}
PASSWORD = "senha-de-teste-123"


@dataclass
class Marica:
    j: Any
    holder: Any
    user: Any
    notice: Any
    fine: Any
    today: dt.date

    def set_ufima(self, value: str = "150.00") -> None:
        from lotacao.web.agency_values import set_agency_value

        set_agency_value(
            actor=None,
            jurisdiction=self.j,
            parameter="fiscal_unit.UFIMA",
            valid_from=self.today - dt.timedelta(days=60),
            value=value,
            cite="Decreto municipal da UFIMA (teste)",
            reason="teste",
        )

    def set_pix(self) -> None:
        from lotacao.web.agency_values import set_agency_value

        set_agency_value(
            actor=None,
            jurisdiction=self.j,
            parameter="billing.pix",
            valid_from=self.today - dt.timedelta(days=60),
            value={"key": "pix@marica.teste.gov.br", "beneficiary": "EPT Marica", "city": "Marica"},
            cite="Ato da EPT (teste)",
            reason="teste",
        )


def holder_with_account(j: Any, n: int, name: str) -> tuple[Any, Any]:
    from lotacao.accounts.models import HolderAccount, User
    from lotacao.registry import services

    person = services.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(300_000_000 + n),
        full_name=name,
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    holder = services.register_holder(actor=None, person=person, reason="teste")
    user = User.objects.create_user(f"titular{n}.{j.code}", password=PASSWORD)
    HolderAccount.objects.create(user=user, holder=holder)
    return holder, user


def make_marica(*, ufima: bool = False, pix: bool = False) -> Marica:
    from lotacao.enforcement.models import InfractionNotice
    from lotacao.enforcement.sanctions import fines
    from tests.enforcement.conftest import at

    today = timezone.localdate()
    j = make_jurisdiction("marica")
    holder, user = holder_with_account(j, 1, "Rita de Maricá")
    notice = InfractionNotice.objects.create(
        jurisdiction=j,
        number="AI-2026-000003",
        drawn_up_at=at((today - dt.timedelta(days=3)).isoformat()),
        infraction_code="art42-I",
        offender_kind="permit_holder",
        holder=holder,
        penalty=UFIMA_FINE,
    )
    InfractionNotice.unscoped.filter(pk=notice.pk).update(
        served_on=today - dt.timedelta(days=2), status="notified"
    )
    notice.refresh_from_db()
    world = Marica(j=j, holder=holder, user=user, notice=notice, fine=None, today=today)
    if ufima:
        world.set_ufima()
    if pix:
        world.set_pix()
    world.fine = fines.issue_fine(
        actor=None, notice=notice, reason="teste", due_on=today + dt.timedelta(days=30), today=today
    )
    return world


@pytest.fixture
def marica(db: Any) -> Marica:
    return make_marica()


from tests.chartering.conftest import pe  # noqa: E402, F401  (the Pernambuco fixture)
