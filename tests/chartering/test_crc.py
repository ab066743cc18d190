"""The CRC register: the clocks of art. 6, the validity of art. 8, renewals, documents and issue."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.chartering import crc
from lotacao.chartering.models import Crc, CrcApplication, Sanction
from lotacao.chartering.status import crc_state


def test_a_complete_request_filed_on_friday_05_03_2027_is_due_on_06_04_2027(pe: Any) -> None:
    # Reading: art. 6 counts 30 days "a partir do 1º dia útil subsequente" to the filing: Saturday
    # 06/03/2027 (also the state holiday) and Sunday 07/03 are not business days, so Monday
    # 08/03/2027 is day 1 and day 30 is Tuesday 06/04/2027.
    company = pe.company(issue=False, buses=0, on=dt.date(2027, 2, 1))
    CrcApplication.objects.filter(company=company).delete()
    application = crc.file_application(
        actor=None, company=company, modalities=["eventual"], reason="teste", on=dt.date(2027, 3, 5)
    )
    assert application.issue_due == dt.date(2027, 4, 6)
    assert "08/03/2027 (dia 1)" in application.explanation
    assert any("art. 6º" in c for c in application.citations)


def test_a_crc_issued_on_10_01_with_the_policy_ending_30_09_is_valid_until_30_09(pe: Any) -> None:
    company = pe.company(issue=False, buses=0, on=dt.date(2027, 1, 10))
    application = CrcApplication.objects.get(company=company)
    for n in range(2):
        pe.vehicle(company, f"PEX1A1{n}", on=dt.date(2027, 1, 10), insured_until=dt.date(2027, 9, 30))
    issued = crc.issue_crc(
        actor=pe.users["gestor"], application=application, reason="teste", on=dt.date(2027, 1, 10)
    )
    assert issued.valid_until == dt.date(2027, 9, 30) and issued.limited_by_policy


def test_without_a_shorter_policy_the_crc_lasts_one_year(pe: Any) -> None:
    company = pe.company(on=dt.date(2027, 1, 10))
    issued = Crc.objects.get(company=company)
    assert issued.valid_until == dt.date(2028, 1, 9) and not issued.limited_by_policy


def test_no_crc_without_an_insurance_policy_in_force(pe: Any) -> None:
    from lotacao.inspections.models import InsurancePolicy

    company = pe.company(issue=False)
    InsurancePolicy.objects.all().delete()
    with pytest.raises(ValidationError, match="apólice"):
        crc.issue_crc(
            actor=None, application=CrcApplication.objects.get(company=company), reason="teste", on=pe.today
        )
    assert not Crc.objects.filter(jurisdiction_id="pernambuco").exists()


def test_a_renewal_filed_20_days_before_expiry_is_late_and_cancellation_is_proposed(pe: Any) -> None:
    company = pe.company(on=dt.date(2027, 1, 10))
    current = Crc.objects.get(company=company)
    late = current.valid_until - dt.timedelta(days=20)
    renewal = crc.file_application(
        actor=None, company=company, modalities=["eventual"], reason="teste", on=late
    )
    assert renewal.kind == CrcApplication.Kind.RENEWAL and renewal.late_renewal
    proposal = Sanction.objects.get(crc=current)
    assert proposal.kind == Sanction.Kind.CANCELLATION and proposal.status == Sanction.Status.PROPOSED
    assert "art. 8º" in proposal.grounds and "10/12/2027" in proposal.grounds


def test_a_renewal_filed_40_days_before_expiry_is_in_time(pe: Any) -> None:
    company = pe.company(on=dt.date(2027, 1, 10))
    current = Crc.objects.get(company=company)
    renewal = crc.file_application(
        actor=None,
        company=company,
        modalities=["eventual"],
        reason="teste",
        on=current.valid_until - dt.timedelta(days=40),
    )
    assert not renewal.late_renewal and not Sanction.objects.filter(company=company).exists()


def test_the_nightly_clock_proposes_cancellation_when_no_renewal_was_filed(pe: Any) -> None:
    company = pe.company(on=dt.date(2027, 1, 10))
    current = Crc.objects.get(company=company)
    assert crc.run_clocks(today=dt.date(2027, 12, 10))["cancelamentos_propostos"] == 0  # the last day
    assert crc.run_clocks(today=dt.date(2027, 12, 11))["cancelamentos_propostos"] == 1
    assert crc.run_clocks(today=dt.date(2027, 12, 12))["cancelamentos_propostos"] == 0  # once
    assert Sanction.objects.get(crc=current).status == Sanction.Status.PROPOSED


def test_incomplete_documents_refuse_the_issue_and_write_nothing(pe: Any) -> None:
    company = pe.company(["tourism"], issue=False)
    from lotacao.documents.models import Document

    Document.objects.filter(code="cadastur_registration").delete()
    application = CrcApplication.objects.get(company=company)
    with pytest.raises(ValidationError) as error:
        crc.issue_crc(actor=None, application=application, reason="teste")
    assert any("Cadastur" in m for m in error.value.messages)
    assert not Crc.objects.filter(jurisdiction_id="pernambuco").exists()
    application.refresh_from_db()
    assert application.status == CrcApplication.Status.FILED


def test_a_cooperative_needs_its_members_certificates_and_ocb(pe: Any) -> None:
    codes, _cite = crc.required_documents("pernambuco", ["eventual"], "cooperativa", pe.today)
    assert {"cooperative_members_criminal_records", "ocb_registration"} <= set(codes)
    plain, _ = crc.required_documents("pernambuco", ["eventual"], "empresa", pe.today)
    assert "ocb_registration" not in plain and "cadastur_registration" not in plain


def test_missing_documents_are_completed_in_30_business_days_or_archived(pe: Any) -> None:
    company = pe.company(issue=False)
    application = CrcApplication.objects.get(company=company)
    notified = crc.notify_deficiency(
        actor=pe.users["atendente"],
        application=application,
        missing="Certidão de falência",
        reason="teste",
        on=dt.date(2025, 6, 2),
    )
    assert notified.complement_due == dt.date(2025, 7, 14)
    with pytest.raises(ValidationError, match="venceu"):
        crc.record_completion(actor=None, application=notified, reason="teste", on=dt.date(2025, 7, 15))
    assert crc.run_clocks(today=dt.date(2025, 7, 14))["arquivados"] == 0
    assert crc.run_clocks(today=dt.date(2025, 7, 15))["arquivados"] == 1
    notified.refresh_from_db()
    assert notified.status == CrcApplication.Status.ARCHIVED
    assert AuditEvent.objects.filter(action="chartering.crc_archived", actor_label="sistema").exists()


def test_a_second_open_request_is_refused(pe: Any) -> None:
    company = pe.company(issue=False)
    with pytest.raises(ValidationError, match="em análise"):
        crc.file_application(actor=None, company=company, modalities=["eventual"], reason="teste")


def test_a_person_holder_cannot_enter_the_chartering_register(pe: Any) -> None:
    from lotacao.registry.models import Holder

    recife_person = Holder.objects.filter(jurisdiction_id="recife").first()
    with pytest.raises(ValidationError, match="não regula"):
        crc.register_company(actor=None, holder=recife_person, reason="teste")


def test_an_unknown_modality_is_refused(pe: Any) -> None:
    company = pe.company(issue=False)
    CrcApplication.objects.filter(company=company).delete()
    with pytest.raises(ValidationError, match="desconhecida"):
        crc.file_application(actor=None, company=company, modalities=["escolar"], reason="teste")


def test_state_reads_valid_then_expired(pe: Any) -> None:
    company = pe.company(on=dt.date(2027, 1, 10))
    assert crc_state(company, dt.date(2028, 1, 9)).status == "valid"
    assert crc_state(company, dt.date(2028, 1, 10)).status == "expired"
