"""Helpers for the duties tests: a Maricá jurisdiction with a holder (portal account) and a van,
beside the shared world's Recife and Esteio."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from lotacao.core.sample_ids import sample_cpf


def jpeg(name: str = "foto.jpg") -> SimpleUploadedFile:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, format="JPEG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/jpeg")


def set_value(code: str, parameter: str, value: Any, since: dt.date = dt.date(2020, 1, 1)) -> None:
    from lotacao.core.models import Jurisdiction
    from lotacao.web.agency_values import set_agency_value

    set_agency_value(
        actor=None,
        jurisdiction=Jurisdiction.objects.get(pk=code),
        parameter=parameter,
        valid_from=since,
        value=value,
        cite="Portaria nº 1/2020 (teste)",
        reason="teste",
    )
    from lotacao.core import law

    law.forget(code)


@pytest.fixture
def marica(world: Any) -> dict[str, Any]:
    from lotacao.accounts.models import HolderAccount, Role, StaffMembership, User
    from lotacao.core.models import Jurisdiction
    from lotacao.registry import services

    j = Jurisdiction.objects.create(
        code="marica", name="Maricá", official_name="EPT", state="RJ", timezone="America/Sao_Paulo"
    )
    person = services.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(300_000_001),
        full_name="Pessoa de Maricá",
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    holder = services.register_holder(actor=None, person=person, reason="teste")
    user = User.objects.create_user(
        "permissionario.marica", password="senha-de-teste-123", email="p@example.org"
    )
    HolderAccount.objects.create(user=user, holder=holder)
    gestor = User.objects.create_user("gestor.marica", password="senha-de-teste-123")
    StaffMembership.objects.create(user=gestor, jurisdiction=j, role=Role.MANAGER.value)
    vehicle = services.create_vehicle(
        actor=None,
        jurisdiction=j,
        plate="RIO1A23",
        manufacture_year=2021,
        category="van",
        seats=16,
        doors=4,
        holder=holder,
        reason="teste",
    )
    return {"j": j, "holder": holder, "user": user, "gestor": gestor, "vehicle": vehicle}


@pytest.fixture(autouse=True)
def no_world_duties(request: Any) -> None:
    """The shared world carries one row of each duties model (for the tenancy walk); these tests
    count their own rows, so they start without them."""
    if "world" not in request.fixturenames:
        return
    request.getfixturevalue("world")
    from lotacao.duties.models import Authorization, IncidentPhoto, IncidentReport, PeriodicReport

    IncidentPhoto.unscoped.all().delete()
    IncidentReport.unscoped.all().delete()
    Authorization.unscoped.all().delete()
    PeriodicReport.unscoped.all().delete()
