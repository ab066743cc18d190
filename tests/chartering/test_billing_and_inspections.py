"""Chartering wired to billing and inspections (Lei 16.205/2017 as amended in 2020; Lei 15.177/2013):
the CRC enrols the company for FUSP-F with its modalities and a cancellation ends it; FUSP-F counts
the vehicles with a traffic authorization (art. 21, § 3º); the 7-seat car is inspected for the
company's modalities (art. 3º, § 3º)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from dateutil.relativedelta import relativedelta

from lotacao.billing.ledger.models import Account, Charge
from lotacao.billing.runs import services as runs
from lotacao.chartering import sanctions
from lotacao.inspections import services as inspections
from lotacao.inspections.models import Inspection, Seal
from lotacao.registry import services as registry

pytestmark = pytest.mark.django_db


def _next_month(pe: Any) -> dt.date:
    return pe.today.replace(day=1) + relativedelta(months=1)


def test_the_crc_enrols_the_company_with_its_modalities(pe: Any) -> None:
    company = pe.company(["eventual", "tourism"], buses=2)
    account = Account.objects.get(holder=company.holder)
    assert account.opened_on == pe.today and account.closed_on is None
    assert account.modalities == ["eventual", "tourism"]


def test_three_authorized_vehicles_owe_121_35_on_the_10th_and_one_without_is_not_counted(pe: Any) -> None:
    company = pe.company(["eventual"], buses=3)
    unauthorized = pe.vehicle(company, "PEZ9Z99")
    Seal.objects.filter(vehicle=unauthorized.vehicle).delete()  # no traffic authorization
    social = pe.company(["social"], buses=2, name="Associação Social")
    period = _next_month(pe)
    plan = runs.preview("pernambuco", period)
    assert [(x["holder_id"], x["amount"], x["due_on"]) for x in plan.lines] == [
        (company.holder_id, "121.35", str(period.replace(day=10)))
    ], plan.refusals
    assert plan.lines[0]["base_label"].startswith("3 veículos com Autorização para Tráfego")
    assert "Anexo I" in plan.lines[0]["citation"]
    assert not any(x["holder_id"] == social.holder_id for x in plan.lines)  # the social modality is exempt


def test_a_cancelled_crc_is_not_billed_the_month_after(pe: Any) -> None:
    company = pe.company(["eventual"], buses=2)
    period = _next_month(pe)
    sanctions.apply_sanction(
        actor=pe.users["gestor"],
        company=company,
        kind="cancellation",
        starts_on=period,
        grounds="Reincidência (teste)",
        reason="decisão definitiva",
    )
    account = Account.objects.get(holder=company.holder)
    assert account.closed_on == period - dt.timedelta(days=1)
    assert runs.preview("pernambuco", period).lines == []
    assert not Charge.objects.filter(holder=company.holder).exists()


def _inspect(pe: Any, vehicle: Any) -> Inspection:
    inspection = inspections.schedule_inspection(
        actor=None, vehicle=vehicle, scheduled_for=pe.today, reason="vistoria anual"
    )
    checks = {item["id"]: True for item in (inspections.checklist_for("pernambuco", pe.today)[0] or [])}
    return inspections.record_inspection(
        actor=None,
        inspection=inspection,
        performed_on=pe.today,
        reason="vistoria",
        checklist=checks,
        representation_due=pe.today + dt.timedelta(days=30),  # the law sets no term: the inspector's
    )


def test_a_7_seat_car_of_a_tourism_company_passes_the_inspection(pe: Any) -> None:
    company = pe.company(["tourism"], buses=2)
    entry = pe.vehicle(company, "PEC7A01", category="car7", age=2)
    inspection = _inspect(pe, entry.vehicle)
    assert inspection.status == Inspection.Status.PASSED, inspection.faults


def test_a_7_seat_car_of_a_company_without_tourism_fails_citing_the_article(pe: Any) -> None:
    company = pe.company(["eventual"], buses=2)
    car = registry.create_vehicle(
        actor=None,
        jurisdiction=pe.jurisdiction,
        plate="PEC7B02",
        manufacture_year=pe.today.year - 2,
        category="car7",
        seats=7,
        doors=4,
        holder=company.holder,
        reason="teste",
    )
    inspection = _inspect(pe, car)
    assert inspection.status == Inspection.Status.FAILED
    faults = inspection.faults
    assert any("fretamento turístico" in f and "art. 3º, § 3º" in f for f in faults), faults
