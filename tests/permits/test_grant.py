"""Application and grant: eligibility, exclusivity, quotas, residence, the term and the ranking —
every refusal the laws imply, with its Portuguese message and article."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.billing.services import issue_charge
from lotacao.permits import services
from lotacao.permits.eligibility import check_eligibility, rank_applications
from lotacao.permits.models import Permit
from lotacao.permits.selectors import active_permit_for_vehicle, public_vehicle_info
from tests.permits.conftest import DAY, RECIFE

# ------------------------------------------------------------------ grant


def test_grant_in_recife_sets_number_term_and_audit(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    assert permit.status == "active" and permit.number == "0001/2025"
    assert permit.valid_until == dt.date(2031, 6, 15)
    assert permit.term_citation == f"{RECIFE}, art. 2º"
    assert permit.vehicle.holder_id == permit.holder_id
    assert AuditEvent.objects.filter(action="permit.granted", object_id=str(permit.pk)).exists()
    assert active_permit_for_vehicle(permit.vehicle, DAY) == permit
    info = public_vehicle_info(permit.vehicle, DAY)
    assert info["authorized"] and info["permit_number"] == "0001/2025" and info["permit_status"] == "Ativa"
    assert set(info) == {
        "authorized",
        "permit_number",
        "permit_status",
        "permit_valid_until",
        "line_code",
        "line_name",
        "reasons",
    }


def test_assessment_records_every_reason(make: Any, docs: Any) -> None:
    j = make.jurisdiction("recife")
    holder = make.holder(j, birth=dt.date(2010, 1, 1))
    docs.incomplete.add(holder.person_id)
    application = services.apply_for_permit(
        actor=None, holder=holder, reason="req", applied_on=DAY, other_service="Táxi (alvará 123)"
    )
    result = services.assess_application(actor=None, permit=application, reason="análise", on=DAY)
    codes = {r.code for r in result.reasons}
    assert codes == {"document_missing", "under_age", "other_service"}
    application.refresh_from_db()
    assert application.status == "ineligible" and application.eligibility["eligible"] is False
    other = next(r for r in result.reasons if r.code == "other_service")
    assert "art. 7º, § 3º" in other.unblock and "art. 2º, § 3º" in other.citation


def test_exclusive_law_refuses_a_second_permit(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    with pytest.raises(ValidationError, match=r"Já é titular da Permissão 0001/2025.*art\. 2º, § 3º"):
        make.permit(j, holder=permit.holder)
    assert Permit.objects.filter(status="active").count() == 1


def test_esteio_allows_five_permits_per_holder_not_six(make: Any) -> None:
    j = make.jurisdiction("esteio")
    holder = make.holder(j)
    for _ in range(5):
        make.permit(j, holder=holder)
    with pytest.raises(
        ValidationError, match=r"6 permissões por permissionário excede o máximo de 5.*art\. 21"
    ):
        make.permit(j, holder=holder)
    assert Permit.objects.filter(holder=holder, status="active").count() == 5


def test_cabo_quota_of_three_vehicles_per_3000_inhabitants(make: Any) -> None:
    j = make.jurisdiction("cabo", population=5999)  # one full block: 3 vehicles
    for _ in range(3):
        make.permit(j)
    with pytest.raises(
        ValidationError,
        match=r"Cota de veículos atingida: 3 de no máximo 3.*Agostinho\), art\. 2º",
    ):
        make.permit(j)
    assert Permit.objects.filter(jurisdiction=j, status="active").count() == 3
    j.population = None
    j.save()
    with pytest.raises(ValidationError, match="Informe a população"):
        make.permit(j)


def test_one_vehicle_serves_one_live_permit_and_one_line_per_holder(make: Any) -> None:
    j = make.jurisdiction("esteio")
    permit = make.permit(j)
    other = services.apply_for_permit(actor=None, holder=make.holder(j), reason="req", applied_on=DAY)
    with pytest.raises(ValidationError, match=r"outro permissionário|outra permissão vigente"):
        services.grant_permit(
            actor=None, permit=other, line=permit.line, vehicle=permit.vehicle, reason="outorga", on=DAY
        )
    m = make.jurisdiction("marica")
    first = make.permit(m, valid_until=dt.date(2030, 1, 1), residence_since=dt.date(2010, 1, 1))
    assert first.status == "active"


def test_clearance_blocks_the_grant_in_recife(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder = make.holder(j)
    issue_charge(
        actor=None,
        holder=holder,
        kind="fine",
        description="AI 1",
        amount="150.00",
        due_on=DAY - dt.timedelta(days=1),
        reason="multa",
    )
    with pytest.raises(ValidationError, match=r"Débitos vencidos .* art\. 26"):
        make.permit(j, holder=holder)
    assert not Permit.objects.filter(status="active").exists()


# ---------------------------------------------------- Maricá: residence, provisional permit


def test_marica_requires_one_year_of_residence(make: Any) -> None:
    j = make.jurisdiction("marica")
    holder = make.holder(j)
    application = services.apply_for_permit(
        actor=None, holder=holder, reason="req", applied_on=DAY, residence_since=dt.date(2025, 1, 10)
    )
    result = check_eligibility(holder=holder, on=DAY, application=application)
    reason = next(r for r in result.reasons if r.code == "residence_short")
    assert "10/01/2026" in reason.message and reason.citation.endswith("art. 15, XI")


def test_marica_regular_term_is_undefined_and_provisional_is_capped(make: Any) -> None:
    j = make.jurisdiction("marica")
    with pytest.raises(ValidationError, match=r"A lei não fixa o prazo da permissão .*art\. 7º, § 1º"):
        make.permit(j, residence_since=dt.date(2010, 1, 1))
    with pytest.raises(
        ValidationError,
        match=r"Permissão provisória de no máximo 12 meses: validade até 16/06/2026 .*art\. 76",
    ):
        make.permit(
            j, kind="provisional", valid_until=dt.date(2026, 7, 1), residence_since=dt.date(2010, 1, 1)
        )
    permit = make.permit(j, kind="provisional", residence_since=dt.date(2010, 1, 1))
    assert permit.valid_until == dt.date(2026, 6, 16)
    with pytest.raises(ValidationError, match="até 12 meses"):
        services.renew_permit(
            actor=None,
            permit=permit,
            reason="prorrogar",
            requested_on=DAY,
            on=DAY,
            valid_until=dt.date(2026, 12, 1),
        )


def test_provisional_permits_only_where_the_law_has_them(make: Any) -> None:
    j = make.jurisdiction("recife")
    with pytest.raises(ValidationError, match="não prevê permissão provisória"):
        services.apply_for_permit(
            actor=None, holder=make.holder(j), reason="r", applied_on=DAY, kind="provisional"
        )


# ------------------------------------------------------------------ selection


def test_ranking_follows_each_law(make: Any) -> None:
    cabo = make.jurisdiction("cabo", population=30_000)
    a = services.apply_for_permit(
        actor=None, holder=make.holder(cabo), reason="r", applied_on=dt.date(2025, 1, 1)
    )
    b = services.apply_for_permit(
        actor=None,
        holder=make.holder(cabo),
        reason="r",
        applied_on=dt.date(2025, 2, 1),
        existing_operator=True,
    )
    assert rank_applications([a, b], DAY) == [b, a]
    marica = make.jurisdiction("marica")
    c = services.apply_for_permit(
        actor=None,
        holder=make.holder(marica),
        reason="r",
        applied_on=DAY,
        service_months=24,
        infraction_count=3,
    )
    d = services.apply_for_permit(
        actor=None,
        holder=make.holder(marica),
        reason="r",
        applied_on=DAY,
        service_months=24,
        infraction_count=0,
    )
    e = services.apply_for_permit(
        actor=None,
        holder=make.holder(marica),
        reason="r",
        applied_on=DAY,
        service_months=60,
        infraction_count=9,
    )
    assert rank_applications([c, d, e], DAY) == [e, d, c]
