"""Every refusal the law implies for vehicles, insurance, inspections, seals and re-registration."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.inspections import rules, services
from lotacao.inspections.models import (
    Inspection,
    InsurancePolicy,
    IrregularityNotice,
    Reregistration,
    Seal,
    VehicleAssessment,
)
from lotacao.inspections.selectors import current_seal, public_vehicle_info
from lotacao.registry.models import Vehicle

from .conftest import TODAY

pytestmark = pytest.mark.django_db


def _refused(call: Any, *needles: str) -> str:
    with pytest.raises(ValidationError) as info:
        call()
    text = " ".join(info.value.messages)
    for needle in needles:
        assert needle in text, text
    return text


def _fresh(world: Any, code: str) -> Vehicle:
    """A vehicle of the world's holder with no inspection yet (the shared world has some)."""
    from lotacao.registry import services as registry

    j = world.a if code == world.a.code else world.b
    return registry.create_vehicle(
        actor=None,
        jurisdiction=j,
        plate="FRE5H00",
        manufacture_year=TODAY.year - 2,
        category="van",
        seats=16,
        doors=4,
        holder=world.objects[code]["registry.holder"],
        reason="teste",
    )


def _new(j: Any, **over: Any) -> dict[str, Any]:
    data = {
        "jurisdiction": j,
        "plate": "QQQ1A11",
        "manufacture_year": TODAY.year - 1,
        "category": "van",
        "seats": 16,
        "doors": 4,
        "reason": "teste",
        "actor": None,
    }
    data.update(over)
    return data


# --------------------------------------------------------------------------- admission and stay


def test_recife_refuses_entry_of_a_vehicle_older_than_three_years(world: Any) -> None:
    events = AuditEvent.objects.count()
    _refused(
        lambda: services.admit_vehicle(**_new(world.a, manufacture_year=TODAY.year - 4)),
        "ingresso admite até 3 anos",
        "Lei Municipal 16.856/2003 (Recife), art. 16, II",
    )
    assert not Vehicle.objects.filter(plate="QQQ1A11").exists()
    assert AuditEvent.objects.count() == events


def test_admission_stores_the_engine_decision_with_its_citations(world: Any) -> None:
    vehicle = services.admit_vehicle(**_new(world.a))
    decision = VehicleAssessment.objects.get(vehicle=vehicle)
    assert decision.action == "entry" and decision.eligible
    assert any("art. 16, II" in c for c in decision.citations)


def test_marica_refuses_seats_and_doors_out_of_range(marica: Any) -> None:
    j = marica["jurisdiction"]
    _refused(
        lambda: services.admit_vehicle(**_new(j, seats=8)), "8 lugares: o mínimo é 9", "(Maricá), art. 23"
    )
    _refused(lambda: services.admit_vehicle(**_new(j, seats=32)), "o máximo é 31", "art. 23")
    _refused(lambda: services.admit_vehicle(**_new(j, doors=2)), "2 portas: exigidas 4", "art. 23")
    assert not Vehicle.objects.filter(plate="QQQ1A11").exists()


def test_marica_refuses_keeping_a_vehicle_beyond_ten_years(marica: Any) -> None:
    vehicle = marica["vehicle"]
    _refused(
        lambda: services.update_vehicle(
            actor=None, vehicle=vehicle, changes={"manufacture_year": TODAY.year - 11}, reason="correção"
        ),
        "limite para van é de 10 anos",
        "(Maricá), art. 25",
    )
    vehicle.refresh_from_db()
    assert vehicle.manufacture_year == TODAY.year - 3


def test_age_limit_and_marica_replacement_deadline(marica: Any) -> None:
    vehicle = marica["vehicle"]
    limit = rules.age_limit(vehicle, TODAY)
    assert limit.limit_years == 10
    assert limit.reached_on == dt.date(vehicle.manufacture_year + 11, 1, 1)
    assert limit.replacement_due is not None
    # 90 calendar days; a last day that is not a business day moves to the next one
    assert 0 <= (limit.replacement_due - limit.reached_on - dt.timedelta(days=90)).days <= 4
    assert "art. 25, § 3º" in limit.replacement_citation


def test_recife_has_no_replacement_deadline(world: Any) -> None:
    limit = rules.age_limit(_fresh(world, "recife"), TODAY)
    assert limit.limit_years == 6 and limit.replacement_due is None


# --------------------------------------------------------------------------- replacement


def test_recife_refuses_an_older_or_too_old_substitute(world: Any) -> None:
    old = _fresh(world, "recife")
    _refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=old,
            plate="QQQ1A11",
            manufacture_year=TODAY.year - 4,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
            decharacterization_proof="baixa 123",
        ),
        "substituição exige até 3 anos",
        "art. 19, parágrafo único",
    )
    old.refresh_from_db()
    assert old.deregistered_on is None


def test_marica_refuses_a_substitute_older_than_five_years(marica: Any) -> None:
    _refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=marica["vehicle"],
            plate="QQQ1A11",
            manufacture_year=TODAY.year - 6,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
            decharacterization_proof="baixa 123",
        ),
        "(Maricá), art. 25, § 1º",
    )


def test_replacement_requires_proof_of_the_old_vehicle_deregistration(marica: Any) -> None:
    old = marica["vehicle"]
    _refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=old,
            plate="QQQ1A11",
            manufacture_year=TODAY.year - 1,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
        ),
        "descaracterização",
        "baixa da placa de aluguel",
        "(Maricá), art. 25, § 4º",
    )
    old.refresh_from_db()
    assert old.deregistered_on is None and not Vehicle.objects.filter(plate="QQQ1A11").exists()

    new = services.replace_vehicle(
        actor=None,
        replaced=old,
        plate="QQQ1A11",
        manufacture_year=TODAY.year - 1,
        category="van",
        seats=16,
        doors=4,
        reason="troca",
        decharacterization_proof="Baixa da placa de aluguel, DETRAN 555",
    )
    old.refresh_from_db()
    assert old.deregistered_on == TODAY and new.holder == old.holder
    decision = VehicleAssessment.objects.get(vehicle=new)
    assert decision.replaced == old and any("art. 25, § 4º" in c for c in decision.citations)
    assert AuditEvent.objects.filter(action="vehicle.deregistered", object_id=str(old.pk)).exists()


def test_recife_replacement_also_requires_decharacterization(world: Any) -> None:
    _refused(
        lambda: services.replace_vehicle(
            actor=None,
            replaced=_fresh(world, "recife"),
            plate="QQQ1A11",
            manufacture_year=TODAY.year,
            category="van",
            seats=16,
            doors=4,
            reason="troca",
        ),
        "art. 13, XXVII",
    )


# --------------------------------------------------------------------------- insurance


def test_insurance_below_the_minimum_is_refused(pernambuco: Any) -> None:
    vehicle = pernambuco["vehicle"]
    kwargs = {
        "actor": None,
        "vehicle": vehicle,
        "insurer": "Seguradora X",
        "number": "A-1",
        "valid_from": TODAY,
        "valid_until": TODAY + dt.timedelta(days=365),
        "reason": "apólice",
    }
    _refused(
        lambda: services.register_insurance(
            **kwargs,
            civil_liability=Decimal("100000"),
            death_per_passenger=Decimal("13000"),
            disability_per_passenger=Decimal("5000"),
            third_party=Decimal("50000"),
        ),
        "Cobertura de responsabilidade civil: R$ 100.000,00; mínimo R$ 500.000,00",
        "art. 15",
    )
    assert not InsurancePolicy.objects.exists()
    policy = services.register_insurance(
        **kwargs,
        civil_liability=Decimal("500000"),
        death_per_passenger=Decimal("13000"),
        disability_per_passenger=Decimal("5000"),
        third_party=Decimal("50000"),
    )
    assert any("art. 15" in c for c in policy.citations)


def test_insurance_without_minimum_in_the_law_is_accepted(world: Any) -> None:
    policy = services.register_insurance(
        actor=None,
        vehicle=_fresh(world, "recife"),
        insurer="Seg",
        number="1",
        valid_from=TODAY,
        valid_until=TODAY + dt.timedelta(days=30),
        reason="apólice",
        civil_liability=Decimal("1000"),
    )
    assert policy.pk
    _refused(
        lambda: services.register_insurance(
            actor=None,
            vehicle=policy.vehicle,
            insurer="Seg",
            number="2",
            valid_from=TODAY,
            valid_until=TODAY - dt.timedelta(days=1),
            reason="apólice",
        ),
        "anterior ao início",
    )


# --------------------------------------------------------------------------- inspections and seals


def _schedule(vehicle: Any, **over: Any) -> Inspection:
    return services.schedule_inspection(
        actor=None, vehicle=vehicle, scheduled_for=TODAY, reason="agenda", **over
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
        due_on=TODAY - dt.timedelta(days=10),
        reason="teste",
    )
    _refused(
        lambda: services.record_inspection(
            actor=None, inspection=inspection, performed_on=TODAY, checklist=ALL_OK, reason="vistoria"
        ),
        "bloqueada por falta de quitação",
        "art. 27, § 3º",
    )
    _refused(lambda: _schedule(marica["vehicle"]), "quitação")
    inspection.refresh_from_db()
    assert inspection.status == Inspection.Status.SCHEDULED and not Seal.objects.filter(
        vehicle=marica["vehicle"]
    )


def test_failed_then_passed_inspection_in_marica(marica: Any) -> None:
    vehicle = marica["vehicle"]
    failed = _schedule(vehicle)
    answers = {**ALL_OK, "tachograph": False}
    # Maricá's law leaves the re-presentation deadline to the notice: the date must be given.
    _refused(
        lambda: services.record_inspection(
            actor=None,
            inspection=failed,
            performed_on=TODAY,
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
    due = TODAY + dt.timedelta(days=15)
    services.record_inspection(
        actor=None,
        inspection=failed,
        performed_on=TODAY,
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
    assert current_seal(vehicle, TODAY) is None

    again = _schedule(vehicle, kind=Inspection.Kind.REPRESENTATION)
    services.record_inspection(
        actor=None, inspection=again, performed_on=TODAY, checklist=ALL_OK, reason="vistoria"
    )
    notice.refresh_from_db()
    assert notice.resolved_by == again and notice.resolved_on == TODAY
    seal = current_seal(vehicle, TODAY)
    assert seal is not None and seal.inspection == again
    assert seal.valid_until == dt.date(TODAY.year + 1, TODAY.month, TODAY.day) - dt.timedelta(days=1)
    assert any("art. 27" in c for c in seal.citations)


def test_seal_requires_a_passed_inspection(marica: Any) -> None:
    _refused(
        lambda: services.issue_seal(actor=None, vehicle=marica["vehicle"], reason="selo"),
        "não tem vistoria aprovada",
        "art. 27",
    )
    assert not Seal.objects.filter(vehicle=marica["vehicle"]).exists()


def test_recife_seal_waits_for_the_reregistration(world: Any) -> None:
    vehicle = _fresh(world, "recife")
    inspection = _schedule(vehicle)
    services.record_inspection(
        actor=None,
        inspection=inspection,
        performed_on=TODAY,
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
    _refused(
        lambda: services.issue_seal(actor=None, vehicle=vehicle, reason="selo"),
        f"selo do exercício {TODAY.year} só é emitido após o recadastramento",
        "art. 23",
    )
    campaign = services.open_campaign(
        actor=None,
        jurisdiction=world.a,
        year=TODAY.year,
        starts_on=dt.date(TODAY.year, 1, 1),
        ends_on=dt.date(TODAY.year, 12, 31),
        reason="calendário",
    )
    entry = services.reregister_vehicle(actor=None, campaign=campaign, vehicle=vehicle, reason="recadastro")
    assert entry.total_fees == Decimal("80.00") and not entry.late and not entry.fine_due
    assert {f["fee"] for f in entry.fees} == {"reregistration_holder", "reregistration_vehicle"}
    seal = current_seal(vehicle, TODAY)
    assert (
        seal is not None and seal.valid_until == dt.date(TODAY.year, 12, 31) and seal.reregistration == entry
    )


def test_late_reregistration_and_force_majeure(world: Any) -> None:
    vehicle = _fresh(world, "recife")
    start = dt.date(TODAY.year, 1, 1)
    campaign = services.open_campaign(
        actor=None,
        jurisdiction=world.a,
        year=TODAY.year,
        starts_on=start,
        ends_on=start + dt.timedelta(days=1),
        reason="calendário",
    )
    day = start + dt.timedelta(days=5)
    _refused(
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
    start = dt.date(TODAY.year, 1, 1)
    campaign = services.open_campaign(
        actor=None, jurisdiction=world.a, year=TODAY.year, starts_on=start, ends_on=start, reason="calendário"
    )
    entry = services.reregister_vehicle(
        actor=None,
        campaign=campaign,
        on=start + dt.timedelta(days=3),
        vehicle=_fresh(world, "recife"),
        reason="r",
    )
    assert entry.fine_due and any("Grupo 3, j" in c for c in entry.citations)


def test_no_reregistration_campaign_where_the_law_has_none(world: Any) -> None:
    _refused(
        lambda: services.open_campaign(
            actor=None,
            jurisdiction=world.b,
            year=TODAY.year,
            starts_on=dt.date(TODAY.year, 1, 1),
            ends_on=dt.date(TODAY.year, 2, 1),
            reason="c",
        ),
        "não prevê recadastramento anual",
    )


def test_esteio_seal_validity_is_undefined(world: Any) -> None:
    vehicle = _fresh(world, "esteio")
    inspection = _schedule(vehicle)
    services.record_inspection(actor=None, inspection=inspection, performed_on=TODAY, reason="vistoria")
    inspection.refresh_from_db()
    assert inspection.status == Inspection.Status.PASSED  # no checklist in the law: free-text faults only
    _refused(
        lambda: services.issue_seal(actor=None, vehicle=vehicle, reason="selo"),
        "não define a validade do selo",
        "Anexo II, I-03",
    )


# --------------------------------------------------------------------------- public information


def test_public_info_reports_an_expired_seal(marica: Any) -> None:
    vehicle = marica["vehicle"]
    info = public_vehicle_info(vehicle, TODAY)
    assert info["authorized"] is False and info["seal_valid_until"] is None
    assert any("Sem selo de vistoria válido" in r and "art. 40, XXVI" in r for r in info["reasons"])
    inspection = _schedule(vehicle)
    services.record_inspection(
        actor=None, inspection=inspection, performed_on=TODAY, checklist=ALL_OK, reason="v"
    )
    seal = Seal.objects.get(vehicle=vehicle)
    info = public_vehicle_info(vehicle, TODAY)
    assert "authorized" not in info and info["seal_valid_until"] == seal.valid_until.isoformat()
    later = seal.valid_until + dt.timedelta(days=1)
    info = public_vehicle_info(vehicle, later)
    assert info["authorized"] is False
    assert any(f"vencido em {seal.valid_until:%d/%m/%Y}" in r for r in info["reasons"])
    assert set(info) <= {"authorized", "seal_valid_until", "insurance_valid_until", "reasons"}


def test_replacement_moves_the_permit_to_the_new_vehicle(marica: Any) -> None:
    from lotacao.permits.models import Permit

    old = marica["vehicle"]
    permit = Permit.objects.create(
        jurisdiction=marica["jurisdiction"],
        holder=marica["holder"],
        vehicle=old,
        number="TP-1",
        status="active",
        applied_on=TODAY - dt.timedelta(days=100),
        granted_on=TODAY - dt.timedelta(days=90),
    )
    new = services.replace_vehicle(
        actor=None,
        replaced=old,
        plate="QQQ1A11",
        manufacture_year=TODAY.year,
        category="van",
        seats=16,
        doors=4,
        reason="troca",
        decharacterization_proof="baixa da placa de aluguel",
    )
    permit.refresh_from_db()
    assert permit.vehicle == new
    assert AuditEvent.objects.filter(action="permit.vehicle_replaced", object_id=str(permit.pk)).exists()


def test_demo_has_insurance_notices_seals_and_a_campaign(db: Any) -> None:
    from lotacao.demo import base as demo
    from lotacao.inspections.models import ReregistrationCampaign

    demo.load(TODAY)
    assert IrregularityNotice.objects.filter(jurisdiction_id="marica", resolved_on__isnull=True).exists()
    assert Seal.objects.filter(jurisdiction_id="marica").exists()
    assert Seal.objects.filter(jurisdiction_id="recife", reregistration__isnull=False).exists()
    assert InsurancePolicy.objects.filter(valid_until__lte=TODAY + dt.timedelta(days=30)).count() >= 5
    assert ReregistrationCampaign.objects.filter(jurisdiction_id="recife", year=TODAY.year).exists()
    again = demo.load(TODAY)
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
