"""The authorizations' services (Esteio Lei 3.839/2004): each refusal the law implies changes
nothing and says why in Portuguese; the walk request → grant → suspension → revocation."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.authorizations import rules, services
from lotacao.authorizations.models import Authorization
from tests.authorizations.conftest import TODAY, set_value, turn_on, vehicle

pytestmark = pytest.mark.django_db
S = Authorization.Status


def _request(gestor: Any, person: Any, car: Any, kind: str = "taxi_common", **more: Any) -> Authorization:
    return services.request_authorization(
        actor=gestor, jurisdiction_code="esteio", kind=kind, vehicle=car, person=person, **more
    )


def _grant(gestor: Any, row: Authorization, number: str = "TX-10/2026") -> Authorization:
    return services.grant(
        actor=gestor, authorization=row, number=number, act="Portaria SMOVT nº 4/2026", starts_on=TODAY()
    )


def test_esteio_walks_request_grant_suspension_revocation(
    world: Any, esteio: None, gestor: Any, person: Any
) -> None:
    car = vehicle("TAX1A11")
    row = _request(gestor, person, car)
    assert row.status == S.REQUESTED
    row = _grant(gestor, row)
    assert row.status == S.GRANTED and row.number == "TX-10/2026"
    assert row.valid_until == TODAY().replace(year=TODAY().year + 1) - dt.timedelta(days=1)
    assert "Decreto municipal nº 9/2020" in row.validity_citation
    assert services.valid_for_vehicle(car, TODAY()) == row
    row = services.suspend(
        actor=gestor, authorization=row, act="Portaria 5", reasons="Taxímetro sem aferição."
    )
    assert row.status == S.SUSPENDED and services.valid_for_vehicle(car, TODAY()) is None
    row = services.revoke(actor=gestor, authorization=row, act="Portaria 6", reasons="Reincidência.")
    assert row.status == S.REVOKED and row.ended_on == TODAY()
    actions = list(AuditEvent.objects.filter(object_id=str(row.pk)).values_list("action", flat=True))
    for action in (
        "authorization.requested",
        "authorization.granted",
        "authorization.suspended",
        "authorization.revoked",
    ):
        assert action in actions
    with pytest.raises(ValidationError, match="a autorização foi cassada"):
        services.reinstate(actor=gestor, authorization=row, reasons="engano")


def test_it_refuses_a_vehicle_bound_to_a_live_permit(
    world: Any, esteio: None, gestor: Any, person: Any
) -> None:
    bound = world.objects["esteio"]["registry.vehicle"]  # the world's permit runs with it
    with pytest.raises(ValidationError, match="vinculado à Permissão"):
        _request(gestor, person, bound, kind="school")
    assert Authorization.objects.filter(vehicle=bound).count() == 1  # only the world's own row


def test_it_refuses_a_vehicle_of_another_authorization(
    world: Any, esteio: None, gestor: Any, person: Any
) -> None:
    car = vehicle("TAX1A12")
    _grant(gestor, _request(gestor, person, car))
    with pytest.raises(ValidationError, match="já está na Autorização TX-10/2026"):
        _request(gestor, person, car, kind="chartered")
    assert Authorization.objects.filter(vehicle=car).count() == 1


def test_art_52_refuses_a_two_door_taxi_at_replacement(
    world: Any, esteio: None, gestor: Any, person: Any
) -> None:
    first = _grant(gestor, _request(gestor, person, vehicle("TAX1A13")))
    two_doors = vehicle("TAX1A14", doors=2)
    with pytest.raises(
        ValidationError, match="Na substituição do veículo do táxi, o novo veículo deve ter 4 portas"
    ):
        _request(gestor, person, two_doors, replaces=first)
    assert not Authorization.objects.filter(vehicle=two_doors).exists()
    four = vehicle("TAX1A15")
    new = _grant(gestor, _request(gestor, person, four, replaces=first), number="TX-11/2026")
    first.refresh_from_db()
    assert new.status == S.GRANTED and first.status == S.REPLACED


def test_art_52_keeps_two_door_taxis_acquired_before_the_regulation(
    world: Any, esteio: None, gestor: Any, person: Any
) -> None:
    two_doors = vehicle("TAX1A16", doors=2)
    with pytest.raises(ValidationError, match="informe a data de aquisição"):
        _request(gestor, person, two_doors)
    with pytest.raises(ValidationError, match="cuja data o órgão ainda não informou"):
        _request(gestor, person, two_doors, vehicle_acquired_on=dt.date(2005, 1, 10))
    set_value("esteio", "authorization.regulation_date", "2005-06-01", since=dt.date(2005, 1, 1))
    with pytest.raises(ValidationError, match="depois da regulamentação da lei"):
        _request(gestor, person, two_doors, vehicle_acquired_on=dt.date(2010, 1, 10))
    row = _request(gestor, person, two_doors, vehicle_acquired_on=dt.date(2005, 1, 10))
    assert "continua incluído" in services.doors_note(row)
    school = vehicle("ESC1A17", doors=2, category="van")
    assert _request(gestor, person, school, kind="school").kind == "school"  # doors are the taxi's rule


def test_it_refuses_a_kind_the_agency_did_not_turn_on(
    world: Any, esteio: None, gestor: Any, person: Any
) -> None:
    from lotacao.core.models import Jurisdiction

    Jurisdiction.objects.filter(pk="esteio").update(authorize_chartered=False)
    with pytest.raises(ValidationError, match="transporte fretado não está ativado"):
        _request(gestor, person, vehicle("FRE1A18", category="van"), kind="chartered")
    turn_on(on=False)
    assert rules.enabled_kinds("esteio", TODAY()) == []
    with pytest.raises(ValidationError, match="não está ativado"):
        _request(gestor, person, vehicle("TAX1A19"))
    assert not Authorization.objects.filter(kind="chartered").exists()


def test_a_law_without_authorizations_refuses_everything(world: Any, gestor: Any) -> None:
    turn_on("recife")
    assert rules.enabled_kinds("recife", TODAY()) == []
    with pytest.raises(ValidationError, match="não prevê autorização"):
        services.request_authorization(
            actor=None,
            jurisdiction_code="recife",
            kind="taxi_common",
            vehicle=vehicle("REC1A20", code="recife"),
            person=world.objects["recife"]["registry.person"],
        )


def test_the_grant_waits_for_the_agency_validity(world: Any, gestor: Any, person: Any) -> None:
    turn_on()
    row = _request(gestor, person, vehicle("TAX1A21"))
    with pytest.raises(ValidationError, match="não fixa o prazo da autorização"):
        _grant(gestor, row)
    row.refresh_from_db()
    assert row.status == S.REQUESTED and row.number == ""


def test_conditions_fare_and_boarding(world: Any, esteio: None, gestor: Any, person: Any) -> None:
    from lotacao.authorizations.selectors import conditions

    taxi = _grant(gestor, _request(gestor, person, vehicle("TAX1A22")))
    assert "ainda não foram informados" in conditions(taxi)["fare"]["missing"]
    set_value("esteio", "authorization.taxi_fare", {"flag_fall": "5.20", "per_km": "3.10"})
    fare = conditions(taxi)["fare"]
    assert (
        fare["words"]
        .replace("\xa0", " ")
        .startswith("bandeirada inicial de R$ 5,20 e R$ 3,10 por quilômetro rodado")
    )
    assert "Decreto municipal nº 9/2020" in fare["citation"]
    assert conditions(taxi)["boarding"] == ""
    school = _request(gestor, person, vehicle("ESC1A23", category="van"), kind="school")
    said = conditions(school)
    assert said["fare"] == {} and "vedada a cobrança de tarifa no embarque" in said["boarding"]
    assert "art. 17, parágrafo único" in said["boarding"]


def test_expiry_only_after_the_validity(world: Any, esteio: None, gestor: Any, person: Any) -> None:
    row = _grant(gestor, _request(gestor, person, vehicle("TAX1A24")))
    with pytest.raises(ValidationError, match="não cabe registrar o vencimento"):
        services.expire(actor=gestor, authorization=row)
    assert row.effective_status(row.valid_until + dt.timedelta(days=1)) == S.EXPIRED  # type: ignore[operator]
    done = services.expire(actor=gestor, authorization=row, on=row.valid_until + dt.timedelta(days=1))  # type: ignore[operator]
    assert done.status == S.EXPIRED
