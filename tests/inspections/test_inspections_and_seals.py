"""Inspections and seals, re-registration and what the public page says — each refusal with its article."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from lotacao.inspections import services
from lotacao.inspections.models import Inspection, InsurancePolicy, IrregularityNotice, Reregistration, Seal
from lotacao.inspections.selectors import current_seal, public_vehicle_info
from tests.clock import today

from .conftest import fresh_vehicle, refused

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- inspections and seals


def _schedule(vehicle: Any, **over: Any) -> Inspection:
    return services.schedule_inspection(
        actor=None, vehicle=vehicle, scheduled_for=today(), reason="agenda", **over
    )


ALL_OK = {
    "detran": True,
    "doors": True,
    "seats": True,
    "reserved_seats": True,
    "tachograph": True,
    "seat_belts": True,
    "equipment": True,
    "age": True,
    "visual": True,
    "insurance": True,
    "maintenance": True,
}


def test_marica_blocks_inspection_while_charges_are_unpaid(marica: Any) -> None:
    from lotacao.billing.services import issue_charge

    inspection = _schedule(marica["vehicle"])
    issue_charge(
        actor=None,
        holder=marica["holder"],
        kind="fine",
        description="Multa",
        amount="100.00",
        due_on=today() - dt.timedelta(days=10),
        reason="teste",
    )
    refused(
        lambda: services.record_inspection(
            actor=None, inspection=inspection, performed_on=today(), checklist=ALL_OK, reason="vistoria"
        ),
        "bloqueada por falta de quitação",
        "art. 27, § 3º",
    )
    refused(lambda: _schedule(marica["vehicle"]), "quitação")
    inspection.refresh_from_db()
    assert inspection.status == Inspection.Status.SCHEDULED and not Seal.objects.filter(
        vehicle=marica["vehicle"]
    )


def test_failed_then_passed_inspection_in_marica(marica: Any) -> None:
    vehicle = marica["vehicle"]
    failed = _schedule(vehicle)
    answers = {**ALL_OK, "tachograph": False}
    # Maricá's law leaves the re-presentation deadline to the notice: the date must be given.
    refused(
        lambda: services.record_inspection(
            actor=None,
            inspection=failed,
            performed_on=today(),
            checklist=answers,
            faults=["Pneu dianteiro gasto"],
            reason="vistoria",
        ),
        "informe a data de reapresentação",
        "art. 65",
    )
    failed.refresh_from_db()
    assert failed.status == Inspection.Status.SCHEDULED
    assert not IrregularityNotice.objects.filter(vehicle=vehicle).exists()
    due = today() + dt.timedelta(days=15)
    services.record_inspection(
        actor=None,
        inspection=failed,
        performed_on=today(),
        checklist=answers,
        faults=["Pneu dianteiro gasto"],
        representation_due=due,
        reason="vistoria",
    )
    failed.refresh_from_db()
    assert failed.status == Inspection.Status.FAILED
    notice = IrregularityNotice.objects.get(inspection=failed)
    assert notice.representation_due == due and "Pneu dianteiro gasto" in notice.faults
    assert any("Tacógrafo" in f and "art. 24" in f for f in notice.faults)
    assert current_seal(vehicle, today()) is None

    again = _schedule(vehicle, kind=Inspection.Kind.REPRESENTATION)
    services.record_inspection(
        actor=None, inspection=again, performed_on=today(), checklist=ALL_OK, reason="vistoria"
    )
    notice.refresh_from_db()
    assert notice.resolved_by == again and notice.resolved_on == today()
    seal = current_seal(vehicle, today())
    assert seal is not None and seal.inspection == again
    assert seal.valid_until == dt.date(today().year + 1, today().month, today().day) - dt.timedelta(days=1)
    assert any("art. 27" in c for c in seal.citations)


def test_seal_requires_a_passed_inspection(marica: Any) -> None:
    refused(
        lambda: services.issue_seal(actor=None, vehicle=marica["vehicle"], reason="selo"),
        "não tem vistoria aprovada",
        "art. 27",
    )
    assert not Seal.objects.filter(vehicle=marica["vehicle"]).exists()


def test_recife_seal_waits_for_the_reregistration(world: Any) -> None:
    vehicle = fresh_vehicle(world, "recife")
    inspection = _schedule(vehicle)
    services.record_inspection(
        actor=None,
        inspection=inspection,
        performed_on=today(),
        reason="vistoria",
        checklist=dict.fromkeys(
            (
                "seats",
                "age",
                "visual",
                "reports",
                "tachograph",
                "original",
                "insurance",
                "licensing",
                "debts",
            ),
            True,
        ),
    )
    inspection.refresh_from_db()
    assert inspection.status == Inspection.Status.PASSED and not Seal.objects.filter(vehicle=vehicle).exists()
    refused(
        lambda: services.issue_seal(actor=None, vehicle=vehicle, reason="selo"),
        f"selo do exercício {today().year} só é emitido após o recadastramento",
        "art. 23",
    )
    campaign = services.open_campaign(
        actor=None,
        jurisdiction=world.a,
        year=today().year,
        starts_on=dt.date(today().year, 1, 1),
        ends_on=dt.date(today().year, 12, 31),
        reason="calendário",
    )
    entry = services.reregister_vehicle(actor=None, campaign=campaign, vehicle=vehicle, reason="recadastro")
    assert entry.total_fees == Decimal("80.00") and not entry.late and not entry.fine_due
    assert {f["fee"] for f in entry.fees} == {"reregistration_holder", "reregistration_vehicle"}
    from lotacao.billing.models import Charge

    # Billing records each fee with its id, the law's citation and the earmarked fund (art. 46).
    charges = {
        c.fee: c
        for c in Charge.objects.filter(holder=vehicle.holder, reference__startswith="recadastramento:")
    }
    assert set(charges) == {"reregistration_holder", "reregistration_vehicle"}
    for fee in entry.fees:
        charge = charges[fee["fee"]]
        assert fee["charge_id"] == charge.pk and charge.amount == Decimal(fee["amount"])
        assert "art. 25" in charge.citation and charge.fund and charge.due_on == today()
    seal = current_seal(vehicle, today())
    assert (
        seal is not None
        and seal.valid_until == dt.date(today().year, 12, 31)
        and seal.reregistration == entry
    )


def test_late_reregistration_and_force_majeure(world: Any) -> None:
    vehicle = fresh_vehicle(world, "recife")
    start = dt.date(today().year, 1, 1)
    campaign = services.open_campaign(
        actor=None,
        jurisdiction=world.a,
        year=today().year,
        starts_on=start,
        ends_on=start + dt.timedelta(days=1),
        reason="calendário",
    )
    day = start + dt.timedelta(days=5)
    refused(
        lambda: services.reregister_vehicle(
            actor=None,
            campaign=campaign,
            vehicle=vehicle,
            on=day,
            reason="r",
            exemption="force_majeure",
            exemption_reason="enchente",
            exemption_filed_on=day,
        ),
        "formalizado até o fim do calendário",
        "art. 22",
    )
    assert not Reregistration.objects.filter(vehicle=vehicle).exists()
    entry = services.reregister_vehicle(
        actor=None,
        campaign=campaign,
        vehicle=vehicle,
        on=day,
        reason="r",
        exemption="force_majeure",
        exemption_reason="enchente",
        exemption_filed_on=start,
    )
    assert entry.late and not entry.fine_due and any("art. 22" in c for c in entry.citations)


def test_late_reregistration_without_exemption_is_subject_to_the_fine(world: Any) -> None:
    start = dt.date(today().year, 1, 1)
    campaign = services.open_campaign(
        actor=None,
        jurisdiction=world.a,
        year=today().year,
        starts_on=start,
        ends_on=start,
        reason="calendário",
    )
    entry = services.reregister_vehicle(
        actor=None,
        campaign=campaign,
        on=start + dt.timedelta(days=3),
        vehicle=fresh_vehicle(world, "recife"),
        reason="r",
    )
    assert entry.fine_due and any("Grupo 3, j" in c for c in entry.citations)


def test_no_reregistration_campaign_where_the_law_has_none(world: Any) -> None:
    refused(
        lambda: services.open_campaign(
            actor=None,
            jurisdiction=world.b,
            year=today().year,
            starts_on=dt.date(today().year, 1, 1),
            ends_on=dt.date(today().year, 2, 1),
            reason="c",
        ),
        "não prevê recadastramento anual",
    )


def test_esteio_seal_validity_is_undefined(world: Any) -> None:
    vehicle = fresh_vehicle(world, "esteio")
    inspection = _schedule(vehicle)
    services.record_inspection(actor=None, inspection=inspection, performed_on=today(), reason="vistoria")
    inspection.refresh_from_db()
    assert inspection.status == Inspection.Status.PASSED  # no checklist in the law: free-text faults only
    refused(
        lambda: services.issue_seal(actor=None, vehicle=vehicle, reason="selo"),
        "não define a validade do selo",
        "Anexo II, I-03",
    )


# --------------------------------------------------------------------------- public information


def test_public_info_reports_an_expired_seal(marica: Any) -> None:
    vehicle = marica["vehicle"]
    info = public_vehicle_info(vehicle, today())
    assert info["authorized"] is False and info["seal_valid_until"] is None
    assert any("Sem selo de vistoria válido" in r and "art. 40, XXVI" in r for r in info["reasons"])
    inspection = _schedule(vehicle)
    services.record_inspection(
        actor=None, inspection=inspection, performed_on=today(), checklist=ALL_OK, reason="v"
    )
    seal = Seal.objects.get(vehicle=vehicle)
    info = public_vehicle_info(vehicle, today())
    assert "authorized" not in info and info["seal_valid_until"] == seal.valid_until.isoformat()
    later = seal.valid_until + dt.timedelta(days=1)
    info = public_vehicle_info(vehicle, later)
    assert info["authorized"] is False
    assert any(f"vencido em {seal.valid_until:%d/%m/%Y}" in r for r in info["reasons"])
    assert set(info) <= {"authorized", "seal_valid_until", "insurance_valid_until", "reasons"}


def test_demo_has_insurance_notices_seals_and_a_campaign(db: Any) -> None:
    from lotacao.demo import base as demo
    from lotacao.inspections.models import ReregistrationCampaign

    demo.load(today())
    assert IrregularityNotice.objects.filter(jurisdiction_id="marica", resolved_on__isnull=True).exists()
    assert Seal.objects.filter(jurisdiction_id="marica").exists()
    assert Seal.objects.filter(jurisdiction_id="recife", reregistration__isnull=False).exists()
    assert InsurancePolicy.objects.filter(valid_until__lte=today() + dt.timedelta(days=30)).count() >= 5
    assert ReregistrationCampaign.objects.filter(jurisdiction_id="recife", year=today().year).exists()
    again = demo.load(today())
    assert again.created == 0


def test_clearance_that_fails_refuses_the_inspection_instead_of_clearing(
    marica: Any, monkeypatch: Any
) -> None:
    from lotacao.billing import selectors as billing_selectors

    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("cobranças indisponíveis")

    monkeypatch.setattr(billing_selectors, "clearance", broken)
    with pytest.raises(RuntimeError, match="cobranças indisponíveis"):
        _schedule(marica["vehicle"])
    assert not Inspection.objects.filter(vehicle=marica["vehicle"], status="scheduled").exists()
