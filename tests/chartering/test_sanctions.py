"""The CRC's sanctions: 90-day suspension, 180-day cancellation (art. 23), extension on recidivism
up to double (art. 31), end only after the term and the proof of cure (art. 30, § 1º)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.chartering import crc, sanctions, selectors, trips
from lotacao.chartering.models import FleetVehicle, Sanction, Trip
from lotacao.chartering.status import crc_state
from tests.chartering.test_trips import _data


def _suspend(pe: Any, company: Any, start: dt.date) -> Sanction:
    return sanctions.apply_sanction(
        actor=pe.users["gestor"],
        company=company,
        kind="suspension",
        starts_on=start,
        grounds="Decisão definitiva do auto AI-2026-000001",
        reason="teste",
        decision_reference="AI-2026-000001",
    )


def test_a_new_offence_during_a_90_day_suspension_extends_it_up_to_180_and_no_further(pe: Any) -> None:
    company = pe.company()
    suspension = _suspend(pe, company, pe.today)
    assert suspension.days == 90 and suspension.ends_on == pe.today + dt.timedelta(days=89)
    during = pe.today + dt.timedelta(days=30)
    with pytest.raises(ValidationError, match="dobro"):
        sanctions.extend_sanction(
            actor=None, sanction=suspension, extra_days=91, grounds="nova", reason="t", on=during
        )
    sanctions.extend_sanction(
        actor=None, sanction=suspension, extra_days=60, grounds="IV-i", reason="t", on=during
    )
    sanctions.extend_sanction(
        actor=None, sanction=suspension, extra_days=30, grounds="IV-d", reason="t", on=during
    )
    suspension.refresh_from_db()
    assert suspension.days == 180 and suspension.ends_on == pe.today + dt.timedelta(days=179)
    with pytest.raises(ValidationError, match="já chegou ao limite"):
        sanctions.extend_sanction(
            actor=None, sanction=suspension, extra_days=1, grounds="III-e", reason="t", on=during
        )
    suspension.refresh_from_db()
    assert suspension.days == 180 and len(suspension.extensions) == 2


def test_an_offence_after_the_sanction_does_not_extend_it(pe: Any) -> None:
    company = pe.company()
    suspension = _suspend(pe, company, pe.today)
    with pytest.raises(ValidationError, match="não ocorreu durante"):
        sanctions.extend_sanction(
            actor=None,
            sanction=suspension,
            extra_days=10,
            grounds="x",
            reason="t",
            on=pe.today + dt.timedelta(days=95),
        )


def test_a_suspension_bars_trips_and_cancels_those_declared(pe: Any) -> None:
    company = pe.company()
    entry = FleetVehicle.objects.filter(company=company).first()
    trip = trips.declare_trip(actor=None, company=company, data=_data(entry), passengers=[], reason="teste")
    _suspend(pe, company, pe.today)
    trip.refresh_from_db()
    assert trip.status == Trip.Status.CANCELLED
    with pytest.raises(ValidationError, match="suspenso"):
        trips.declare_trip(actor=None, company=company, data=_data(entry), passengers=[], reason="teste")
    assert selectors.public_vehicle_info(entry.vehicle, pe.today)["authorized"] is False
    assert crc_state(company, pe.today).status == "suspended"


def test_the_suspension_ends_only_after_the_term_and_with_the_proof(pe: Any) -> None:
    company = pe.company(on=pe.today - dt.timedelta(days=120))
    suspension = _suspend(pe, company, pe.today - dt.timedelta(days=100))
    assert suspension.ends_on is not None
    with pytest.raises(ValidationError, match="comprovação"):
        sanctions.end_sanction(actor=None, sanction=suspension, cure_proof=" ", reason="t")
    assert crc_state(company, pe.today).status == "suspended"  # term served, no proof: still barred
    early = _suspend(pe, pe.company(), pe.today)
    with pytest.raises(ValidationError, match="depois do prazo"):
        sanctions.end_sanction(actor=None, sanction=early, cure_proof="Rastreadores religados", reason="t")
    sanctions.end_sanction(actor=None, sanction=suspension, cure_proof="Rastreadores religados", reason="t")
    assert crc_state(company, pe.today).status == "valid"


def test_cancellation_lasts_180_days_and_then_a_new_crc_is_requested(pe: Any) -> None:
    company = pe.company(on=pe.today - dt.timedelta(days=200))
    cancellation = sanctions.apply_sanction(
        actor=None,
        company=company,
        kind="cancellation",
        starts_on=pe.today - dt.timedelta(days=190),
        grounds="Decisão definitiva",
        reason="teste",
    )
    assert cancellation.days == 180
    state = crc_state(company, pe.today)
    assert state.status == "cancelled"
    with pytest.raises(ValidationError, match="novo CRC só pode ser pedido"):
        crc.file_application(actor=None, company=company, modalities=["eventual"], reason="teste")
    sanctions.end_sanction(actor=None, sanction=cancellation, cure_proof="Seguro regularizado", reason="t")
    assert crc_state(company, pe.today).status == "cancelled"  # the old CRC stays cancelled
    application = crc.file_application(actor=None, company=company, modalities=["eventual"], reason="teste")
    assert application.kind == "initial"


def test_the_manager_confirms_the_cassacao_flagged_for_another_modality(pe: Any) -> None:
    company = pe.company(["own"])
    entry = FleetVehicle.objects.filter(company=company).first()
    with pytest.raises(ValidationError):
        trips.declare_trip(
            actor=None, company=company, data=_data(entry, "tourism"), passengers=[("A", "1")], reason="t"
        )
    proposal = Sanction.objects.get(company=company)
    sanctions.confirm_proposal(
        actor=pe.users["gestor"], sanction=proposal, starts_on=pe.today, reason="Art. 35"
    )
    assert crc_state(company, pe.today).status == "revoked"
    assert crc_state(company, pe.today).public_status == "cancelled"


def test_a_proposal_is_dismissed_only_with_a_reason(pe: Any) -> None:
    company = pe.company(on=dt.date(2027, 1, 10))
    crc.run_clocks(today=dt.date(2027, 12, 11))
    proposal = Sanction.objects.get(company=company)
    with pytest.raises(ValidationError, match="motivo"):
        sanctions.dismiss_proposal(actor=None, sanction=proposal, reason="")
    sanctions.dismiss_proposal(
        actor=None, sanction=proposal, reason="Renovação protocolada por correio em 01/12/2027"
    )
    proposal.refresh_from_db()
    assert proposal.status == Sanction.Status.DISMISSED


def test_a_second_sanction_while_one_is_in_force_is_refused(pe: Any) -> None:
    company = pe.company()
    _suspend(pe, company, pe.today)
    with pytest.raises(ValidationError, match="majora"):
        _suspend(pe, company, pe.today)
    assert timezone.localdate() == pe.today


def test_a_renewal_filed_before_a_suspension_is_not_issued_during_it(pe: Any) -> None:
    # Art. 23, par. único: no service with a suspended CRC. A renewal filed in time, before the
    # suspension, must not give a new CRC during it: that CRC would carry no sanction and erase it.
    company = pe.company(on=dt.date(2027, 1, 10))
    current = crc.Crc.objects.get(company=company)
    filed = current.valid_until - dt.timedelta(days=40)
    renewal = crc.file_application(actor=None, company=company, modalities=["eventual"], reason="t", on=filed)
    suspension = _suspend(pe, company, filed + dt.timedelta(days=5))
    during = filed + dt.timedelta(days=20)
    with pytest.raises(ValidationError, match=r"suspenso.*parágrafo único"):
        crc.issue_crc(actor=pe.users["gestor"], application=renewal, reason="t", on=during)
    renewal.refresh_from_db()
    assert renewal.status == crc.CrcApplication.Status.FILED
    assert crc.Crc.objects.filter(company=company).count() == 1
    assert crc_state(company, during).status == "suspended"
    after = suspension.ends_on + dt.timedelta(days=1)
    sanctions.end_sanction(actor=None, sanction=suspension, cure_proof="Sanada", reason="t", on=after)
    # The sanction served and cured, the request is judged on its merits again (its documents).
    with pytest.raises(ValidationError) as error:
        crc.issue_crc(actor=pe.users["gestor"], application=renewal, reason="t", on=after)
    assert not any("suspenso" in m for m in error.value.messages), error.value.messages
    assert "documentação incompleta" in error.value.messages[0]


def test_a_request_filed_before_a_cancellation_never_gives_the_new_crc(pe: Any) -> None:
    company = pe.company(on=pe.today - dt.timedelta(days=200))
    current = crc.Crc.objects.get(company=company)
    renewal = crc.file_application(
        actor=None,
        company=company,
        modalities=["eventual"],
        reason="t",
        on=current.valid_until - dt.timedelta(days=40),
    )
    cancellation = sanctions.apply_sanction(
        actor=None,
        company=company,
        kind="cancellation",
        starts_on=current.valid_until - dt.timedelta(days=35),
        grounds="Decisão definitiva",
        reason="t",
    )
    during = current.valid_until - dt.timedelta(days=30)
    with pytest.raises(ValidationError, match="fim do prazo do cancelamento"):
        crc.issue_crc(actor=None, application=renewal, reason="t", on=during)
    after = cancellation.ends_on + dt.timedelta(days=1)
    sanctions.end_sanction(actor=None, sanction=cancellation, cure_proof="Sanada", reason="t", on=after)
    with pytest.raises(ValidationError, match="antes do cancelamento"):
        crc.issue_crc(actor=None, application=renewal, reason="t", on=after)
    assert crc.Crc.objects.filter(company=company).count() == 1


def test_after_a_cassacao_no_new_crc_unless_the_agency_sets_a_ban(pe: Any) -> None:
    # Art. 35 sets no term for a new CRC after cassação: the pack reads "none", as an interpretation
    # the agency sees in Valores da lei and may change with a ban in years.
    from lotacao.core.law import pack_for
    from lotacao.core.models import Jurisdiction
    from lotacao.web.agency_values import set_agency_value

    company = pe.company(on=pe.today - dt.timedelta(days=30))
    sanctions.apply_sanction(
        actor=None, company=company, kind="revocation", starts_on=pe.today, grounds="Art. 35", reason="t"
    )
    assert crc_state(company, pe.today).status == "revoked"
    reading = pack_for("pernambuco").parameters["chartering.revocation_reentry"].interpretation
    assert reading is not None and "não fixa prazo" in reading.sentence
    later = pe.today + dt.timedelta(days=3 * 365)
    with pytest.raises(ValidationError, match=r"não fixa prazo.*Valores da lei"):
        crc.file_application(actor=None, company=company, modalities=["eventual"], reason="t", on=later)

    set_agency_value(
        actor=None,
        jurisdiction=Jurisdiction.objects.get(code="pernambuco"),
        parameter="chartering.revocation_reentry",
        valid_from=pe.today,
        value={"ban_years": 2},
        cite="Portaria de teste",
        reason="t",
    )
    with pytest.raises(ValidationError, match="só pode ser pedido a partir de"):
        crc.file_application(
            actor=None,
            company=company,
            modalities=["eventual"],
            reason="t",
            on=pe.today + dt.timedelta(days=300),
        )
    application = crc.file_application(
        actor=None, company=company, modalities=["eventual"], reason="t", on=later
    )
    assert application.kind == "initial"
