"""The permit's state machine: every refusal the laws imply, with its Portuguese message and article."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.billing.services import issue_charge
from lotacao.permits import services
from lotacao.permits.eligibility import check_eligibility, rank_applications
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.permits.selectors import active_permit_for_vehicle, public_vehicle_info
from tests.permits.conftest import DAY

RECIFE = "Lei Municipal 16.856/2003 (Recife)"


def _snapshot(permit: Permit) -> tuple[Any, ...]:
    p = Permit.unscoped.get(pk=permit.pk)
    return (p.status, p.valid_until, p.renewals, p.suspended_until, p.ends_on, p.number, p.transfers)


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


def test_revocation_bans_reentry_for_five_years_in_recife(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j, on=dt.date(2022, 3, 12))
    services.revoke_permit(
        actor=None, permit=permit, reason="segunda reincidência G4", on=dt.date(2022, 3, 12)
    )
    ban = Ban.objects.get(permit=permit)
    assert ban.ends_on == dt.date(2027, 3, 12) and ban.citation == f"{RECIFE}, art. 37"
    application = services.apply_for_permit(actor=None, holder=permit.holder, reason="novo", applied_on=DAY)
    result = check_eligibility(holder=permit.holder, on=DAY, application=application)
    assert not result.eligible
    message = f"{result.reasons[0].message}, {result.reasons[0].citation}"
    assert (
        message == "CPF em período de impedimento até 12/03/2027 — cassação da permissão em 12/03/2022, "
        f"{RECIFE}, art. 37"
    )
    assert "13/03/2027" in result.reasons[0].unblock
    before = _snapshot(application)
    with pytest.raises(ValidationError, match="impedimento até 12/03/2027"):
        services.grant_permit(
            actor=None,
            permit=application,
            line=make.line(j),
            vehicle=make.vehicle(j),
            reason="outorga",
            on=DAY,
        )
    assert _snapshot(application) == before


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


# ------------------------------------------------------------ Maricá: residence, provisional, withdrawal


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


def test_marica_withdrawal_needs_thirty_days_notice(make: Any) -> None:
    j = make.jurisdiction("marica")
    permit = make.permit(j, valid_until=dt.date(2030, 1, 1), residence_since=dt.date(2010, 1, 1))
    before = _snapshot(permit)
    with pytest.raises(ValidationError, match=r"antecedência mínima de 30 dias .*art\. 13, parágrafo único"):
        services.withdraw_permit(
            actor=None,
            permit=permit,
            notice_on=DAY,
            ceases_on=DAY + dt.timedelta(days=29),
            reason="desiste",
            on=DAY,
        )
    assert _snapshot(permit) == before
    services.withdraw_permit(
        actor=None,
        permit=permit,
        notice_on=DAY,
        ceases_on=DAY + dt.timedelta(days=30),
        reason="desiste",
        on=DAY,
    )
    permit.refresh_from_db()
    assert permit.status == "active" and permit.effective_status(DAY + dt.timedelta(days=30)) == "withdrawn"
    assert services.expire_due(on=DAY + dt.timedelta(days=31)) == 1
    permit.refresh_from_db()
    assert permit.status == "withdrawn"


def test_withdrawal_needs_no_notice_where_the_law_sets_none(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    services.withdraw_permit(
        actor=None, permit=permit, notice_on=DAY, ceases_on=DAY, reason="desiste", on=DAY
    )
    permit.refresh_from_db()
    assert permit.status == "withdrawn" and permit.ends_on == DAY


# ------------------------------------------------------------------ renewal


def test_recife_renews_once_with_cmtt_approval(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    later = dt.date(2031, 1, 10)
    with pytest.raises(ValidationError, match=r"aprovação do CMTT/Recife.*ouvidos os usuários .*art\. 2º"):
        services.renew_permit(actor=None, permit=permit, reason="prorrogar", requested_on=later, on=later)
    services.renew_permit(
        actor=None,
        permit=permit,
        reason="prorrogar",
        requested_on=later,
        on=later,
        approval_reference="Resolução CMTT 12/2031",
        users_heard=True,
    )
    permit.refresh_from_db()
    assert permit.valid_until == dt.date(2037, 6, 15) and permit.renewals == 1
    before = _snapshot(permit)
    with pytest.raises(ValidationError, match=r"já foi prorrogada 1 vez.*uma única prorrogação .*art\. 2º"):
        services.renew_permit(
            actor=None,
            permit=permit,
            reason="de novo",
            requested_on=later,
            on=later,
            approval_reference="Resolução CMTT 13/2031",
            users_heard=True,
        )
    assert _snapshot(permit) == before


def test_esteio_renewal_request_deadline(make: Any) -> None:
    j = make.jurisdiction("esteio")
    permit = make.permit(j)
    assert permit.valid_until == dt.date(2040, 6, 15)
    late = dt.date(2040, 1, 2)
    with pytest.raises(ValidationError, match=r"devia ser feito até 15/12/2039, 6 meses antes .*art\. 41"):
        services.renew_permit(actor=None, permit=permit, reason="prorrogar", requested_on=late, on=late)
    services.renew_permit(
        actor=None, permit=permit, reason="prorrogar", requested_on=dt.date(2039, 12, 15), on=late
    )
    permit.refresh_from_db()
    assert permit.valid_until == dt.date(2055, 6, 15)


# ------------------------------------------------------------------ transfer


def test_no_transfer_where_the_permit_is_personal(make: Any) -> None:
    for code, article in (("recife", r"art\. 2º, § 4º"), ("marica", r"art\. 14")):
        j = make.jurisdiction(code)
        permit = make.permit(j, valid_until=dt.date(2030, 1, 1), residence_since=dt.date(2010, 1, 1))
        with pytest.raises(ValidationError, match=rf"pessoal e intransferível \(.*{article}\)"):
            services.transfer_permit(
                actor=None,
                permit=permit,
                to_holder=make.holder(j),
                cause="death",
                reason="herança",
                consent_reference="Ofício 1",
                on=DAY,
                event_on=DAY,
            )
        assert Permit.unscoped.get(pk=permit.pk).status == "active"


def test_cabo_third_party_transfer_once_for_existing_operators(make: Any) -> None:
    j = make.jurisdiction("cabo", population=300_000)
    newcomer = make.permit(j)
    with pytest.raises(ValidationError, match="alínea a"):
        services.transfer_permit(
            actor=None,
            permit=newcomer,
            to_holder=make.holder(j),
            cause="third_party",
            reason="venda",
            consent_reference="Ofício 1",
            on=DAY,
        )
    operator = make.permit(j, existing_operator=True)
    new = services.transfer_permit(
        actor=None,
        permit=operator,
        to_holder=make.holder(j),
        cause="third_party",
        reason="cessão",
        consent_reference="Ofício 2",
        on=DAY,
    )
    assert new.number == operator.number and new.transfers == 1 and new.vehicle_id == operator.vehicle_id
    assert Permit.unscoped.get(pk=operator.pk).status == "transferred"
    assert new.vehicle.holder_id == new.holder_id
    with pytest.raises(ValidationError, match=r"alínea a|já foi transferida"):
        services.transfer_permit(
            actor=None,
            permit=new,
            to_holder=make.holder(j),
            cause="third_party",
            reason="de novo",
            consent_reference="Ofício 3",
            on=DAY,
        )
    heir = services.transfer_permit(
        actor=None,
        permit=new,
        to_holder=make.holder(j),
        cause="death",
        reason="falecimento",
        consent_reference="Ofício 4",
        on=DAY,
        event_on=DAY,
    )
    assert heir.transfers == 2


def test_esteio_successors_have_six_months(make: Any) -> None:
    j = make.jurisdiction("esteio")
    permit = make.permit(j)
    with pytest.raises(ValidationError, match=r"terminou em 01/06/2025.*|6 meses desde 01/12/2024"):
        services.transfer_permit(
            actor=None,
            permit=permit,
            to_holder=make.holder(j),
            cause="death",
            reason="sucessão",
            consent_reference="Ofício 1",
            on=DAY,
            event_on=dt.date(2024, 12, 1),
        )
    with pytest.raises(ValidationError, match="só por"):
        services.transfer_permit(
            actor=None,
            permit=permit,
            to_holder=make.holder(j),
            cause="third_party",
            reason="venda",
            consent_reference="Ofício 1",
            on=DAY,
        )
    new = services.transfer_permit(
        actor=None,
        permit=permit,
        to_holder=make.holder(j),
        cause="consent",
        reason="venda autorizada",
        consent_reference="Portaria 5",
        on=DAY,
    )
    assert new.status == "active"


# ------------------------------------------------------------------ suspension, revocation, state machine


def test_suspension_and_reinstatement(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    services.suspend_permit(
        actor=None, permit=permit, until=DAY + dt.timedelta(days=30), reason="pena", on=DAY
    )
    permit.refresh_from_db()
    assert permit.status == "suspended"
    assert public_vehicle_info(permit.vehicle, DAY)["authorized"] is False
    with pytest.raises(ValidationError, match="vai até 16/07/2025"):
        services.reinstate_permit(actor=None, permit=permit, reason="volta", on=DAY + dt.timedelta(days=10))
    services.reinstate_permit(actor=None, permit=permit, reason="cumprida", on=DAY + dt.timedelta(days=31))
    assert Permit.unscoped.get(pk=permit.pk).status == "active"


@pytest.mark.parametrize(
    "action",
    ["suspend", "reinstate", "revoke", "renew", "grant_again"],
)
def test_invalid_transitions_are_refused(make: Any, action: str) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    if action != "grant_again":
        services.revoke_permit(actor=None, permit=permit, reason="cassada", on=DAY)
    before = _snapshot(permit)
    with pytest.raises(ValidationError, match=r"Não é possível .*: a permissão está (cassada|ativa)"):
        if action == "suspend":
            services.suspend_permit(
                actor=None, permit=permit, until=DAY + dt.timedelta(days=5), reason="x", on=DAY
            )
        elif action == "reinstate":
            services.reinstate_permit(actor=None, permit=permit, reason="x", on=DAY)
        elif action == "revoke":
            services.revoke_permit(actor=None, permit=permit, reason="x", on=DAY)
        elif action == "renew":
            services.renew_permit(actor=None, permit=permit, reason="x", requested_on=DAY, on=DAY)
        else:
            services.grant_permit(
                actor=None, permit=permit, line=permit.line, vehicle=permit.vehicle, reason="x", on=DAY
            )
    assert _snapshot(permit) == before


def test_application_cannot_be_suspended(make: Any) -> None:
    j = make.jurisdiction("recife")
    application = services.apply_for_permit(actor=None, holder=make.holder(j), reason="req", applied_on=DAY)
    with pytest.raises(ValidationError, match="requerimento em análise"):
        services.suspend_permit(
            actor=None, permit=application, until=DAY + dt.timedelta(days=5), reason="x", on=DAY
        )


def test_expiry_is_automatic_and_recorded_by_the_job(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j, on=dt.date(2018, 1, 10))
    assert permit.effective_status(DAY) == "expired"
    assert active_permit_for_vehicle(permit.vehicle, DAY) is None
    info = public_vehicle_info(permit.vehicle, DAY)
    assert info["authorized"] is False and info["permit_status"] == "Vencida"
    from django.core.management import call_command

    call_command("expire_permits", "--date", DAY.isoformat())
    permit.refresh_from_db()
    assert permit.status == "expired"
    assert AuditEvent.objects.filter(action="permit.expired", object_id=str(permit.pk)).exists()


# ------------------------------------------------------------------ agents


def test_recife_agent_limits_and_age(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    for _ in range(2):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )
    with pytest.raises(ValidationError, match=r"Limite de 2 cobrador\(es\) .*arts\. 9º e 10"):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )
    with pytest.raises(ValidationError, match=r"ao menos 18 anos .*art\. 10"):
        services.add_agent(
            actor=None,
            permit=permit,
            person=make.person(j, birth=dt.date(2009, 1, 1)),
            role="auxiliary_driver",
            reason="r",
            starts_on=DAY,
        )
    services.add_agent(
        actor=None, permit=permit, person=make.person(j), role="relief_driver", reason="r", starts_on=DAY
    )
    assert PermitAgent.objects.filter(permit=permit).count() == 3


def test_marica_allows_one_auxiliary_driver_and_no_collector(make: Any, docs: Any) -> None:
    j = make.jurisdiction("marica")
    permit = make.permit(j, valid_until=dt.date(2030, 1, 1), residence_since=dt.date(2010, 1, 1))
    with pytest.raises(ValidationError, match=r"não prevê cobrador .*art\. 36"):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )
    unregistered = make.person(j)
    docs.incomplete.add(unregistered.pk)
    with pytest.raises(ValidationError, match="Cadastro do condutor auxiliar incompleto"):
        services.add_agent(
            actor=None, permit=permit, person=unregistered, role="auxiliary_driver", reason="r", starts_on=DAY
        )
    services.add_agent(
        actor=None, permit=permit, person=make.person(j), role="auxiliary_driver", reason="r", starts_on=DAY
    )
    with pytest.raises(ValidationError, match="Limite de 1 condutor auxiliar"):
        services.add_agent(
            actor=None,
            permit=permit,
            person=make.person(j),
            role="auxiliary_driver",
            reason="r",
            starts_on=DAY,
        )


def test_esteio_agent_limits_are_undefined(make: Any) -> None:
    j = make.jurisdiction("esteio")
    permit = make.permit(j)
    with pytest.raises(ValidationError, match=r"não definido.*art\. 8º, VII"):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )


def test_recife_agent_revocation_bans_for_two_years(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    person = make.person(j)
    agent = services.add_agent(
        actor=None, permit=permit, person=person, role="fare_collector", reason="r", starts_on=DAY
    )
    ban = services.revoke_agent(actor=None, agent=agent, reason="reincidência", on=DAY)
    assert ban is not None and ban.ends_on == dt.date(2027, 6, 16) and ban.citation.endswith("art. 34, § 2º")
    with pytest.raises(ValidationError, match="impedimento até 16/06/2027"):
        services.add_agent(
            actor=None,
            permit=permit,
            person=person,
            role="fare_collector",
            reason="r",
            starts_on=DAY + dt.timedelta(days=1),
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
