"""Helpers for the authorizations' tests: Esteio's agency with the services turned on and the
validity it fixed (Lei 3.839/2004, art. 17 leaves it to the regulation), vehicles of the registry."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests import clock

TODAY = clock.today


def set_value(code: str, parameter: str, value: Any, since: dt.date = dt.date(2020, 1, 1)) -> None:
    from lotacao.core import law
    from lotacao.core.models import Jurisdiction
    from lotacao.web.agency_values import set_agency_value

    set_agency_value(
        actor=None,
        jurisdiction=Jurisdiction.objects.get(pk=code),
        parameter=parameter,
        valid_from=since,
        value=value,
        cite="Decreto municipal nº 9/2020 (teste)",
        reason="teste",
    )
    law.forget(code)


def turn_on(code: str = "esteio", on: bool = True) -> None:
    from lotacao.core.models import Jurisdiction

    Jurisdiction.objects.filter(pk=code).update(
        authorize_taxi_common=on, authorize_taxi_special=on, authorize_school=on, authorize_chartered=on
    )


def vehicle(plate: str, doors: int = 4, code: str = "esteio", category: str = "car7") -> Any:
    from lotacao.core.models import Jurisdiction
    from lotacao.registry import services

    return services.create_vehicle(
        actor=None,
        jurisdiction=Jurisdiction.objects.get(pk=code),
        plate=plate,
        manufacture_year=2019,
        category=category,
        seats=5,
        doors=doors,
        reason="teste",
    )


@pytest.fixture
def gestor(world: Any) -> Any:
    return world.users["gestor.esteio"]


@pytest.fixture
def esteio(world: Any) -> None:
    turn_on()
    set_value("esteio", "authorization.validity", {"months": 12})


@pytest.fixture
def person(world: Any) -> Any:
    return world.objects["esteio"]["registry.person"]
