"""Esteio's delegation end to end (Lei 3.839/2004): the contract with its essential clauses
(art. 42) and term (art. 41); the caducidade inquiry with due process (art. 37): opening act,
notification, the agency's defense deadline, defense, the CMTT's recommendation and the decree
(art. 46, § 3º), the permit ended through its state machine; and the refusals."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.councils.models import Resolution
from lotacao.delegation import services
from lotacao.delegation.models import Contract, Extinction, Inquiry
from lotacao.permits.models import Permit
from tests.delegation.conftest import TODAY, all_clauses, cmtt_resolution

pytestmark = pytest.mark.django_db


def _days(n: int) -> dt.date:
    return TODAY() - dt.timedelta(days=n)


def test_the_contract_has_every_clause_and_the_fifteen_year_term(contract: Any) -> None:
    assert contract.status == Contract.Status.IN_FORCE
    assert sorted(contract.clauses) == list("abcdefghijklmn")
    assert contract.ends_on == contract.starts_on.replace(year=contract.starts_on.year + 15)
    assert "art. 41" in contract.term_citation
    assert services.missing_clauses(contract) == []
    assert AuditEvent.objects.filter(
        action="delegation_contract.recorded", object_id=str(contract.pk)
    ).exists()


def test_a_contract_without_an_essential_clause_is_refused(world: Any, gestor: Any, permit: Any) -> None:
    clauses = all_clauses()
    del clauses["n"]
    clauses["c"] = "  "
    with pytest.raises(ValidationError) as error:
        services.record_contract(
            actor=gestor, permit=permit, number="CT-9", signed_on=TODAY(), clauses=clauses, reason="teste"
        )
    text = error.value.messages[0]
    assert "c) critérios" in text and "n) padronização da frota" in text and "art. 42" in text
    assert not Contract.objects.exists()


def test_other_laws_have_no_such_procedure(world: Any) -> None:
    recife = world.objects["recife"]["permits.permit"]
    with pytest.raises(ValidationError, match="não se aplicam a esta jurisdição"):
        services.record_contract(
            actor=world.users["gestor.recife"],
            permit=recife,
            number="CT-1",
            signed_on=TODAY(),
            clauses=all_clauses(),
            reason="teste",
        )


def test_caducidade_with_due_process_ends_the_permit(
    contract: Any, gestor: Any, permit: Any, defense_days: None
) -> None:
    inquiry = services.open_inquiry(
        actor=gestor,
        contract=contract,
        number="INQ-1/2026",
        opening_act="Portaria SMOVT nº 12/2026",
        facts="Reiteração de faltas graves: cinco autos do grupo III em seis meses.",
        on=_days(20),
    )
    assert inquiry.status == Inquiry.Status.OPENED and inquiry.opened_on == _days(20)
    inquiry = services.notify_inquiry(
        actor=gestor, inquiry=inquiry, notified_on=_days(19), means="correio com AR"
    )
    assert inquiry.status == Inquiry.Status.NOTIFIED
    assert inquiry.defense_due is not None and inquiry.defense_due >= _days(9)
    assert "Portaria SMOVT nº 7/2020" in inquiry.defense_deadline_act
    inquiry = services.record_defense(
        actor=gestor, inquiry=inquiry, filed_on=_days(12), text="A permissionária nega a reiteração."
    )
    assert inquiry.status == Inquiry.Status.DEFENDED
    extinction = services.declare_caducidade(
        actor=gestor,
        inquiry=inquiry,
        reasons="Faltas comprovadas; a defesa não as afasta.",
        recommendation=cmtt_resolution(_days(3)),
        decree_number="1.234",
        decree_on=_days(1),
    )
    inquiry.refresh_from_db()
    contract.refresh_from_db()
    permit = Permit.objects.get(pk=permit.pk)
    assert inquiry.status == Inquiry.Status.DECLARED
    assert contract.status == Contract.Status.EXTINCT
    assert extinction.cause == Extinction.Cause.CADUCIDADE and extinction.inquiry == inquiry
    assert extinction.extinct_on == _days(1)
    assert extinction.indemnity_due is not None and extinction.indemnity_due >= _days(1) + dt.timedelta(
        days=180
    )
    assert permit.status == Permit.Status.REVOKED and permit.ends_on == _days(1)
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {
        "delegation_inquiry.opened",
        "delegation_inquiry.notified",
        "delegation_inquiry.defended",
        "delegation_inquiry.declared",
        "delegation_extinction.recorded",
        "delegation_contract.extinct",
        "permit.revoked",
    } <= actions
    with pytest.raises(ValidationError, match="a caducidade já foi declarada"):
        services.archive_inquiry(actor=gestor, inquiry=inquiry, reasons="teste")
    with pytest.raises(ValidationError, match="o contrato já foi extinto"):
        services.open_inquiry(actor=gestor, contract=contract, number="INQ-2", opening_act="P", facts="F")


def _notified(contract: Any, gestor: Any, notified: dt.date) -> Inquiry:
    inquiry = services.open_inquiry(
        actor=gestor,
        contract=contract,
        number="INQ-7",
        opening_act="Portaria 1",
        facts="Faltas.",
        on=notified,
    )
    return services.notify_inquiry(actor=gestor, inquiry=inquiry, notified_on=notified, means="pessoal")


def test_no_decision_before_the_defense_deadline_ends_without_a_defense(
    contract: Any, gestor: Any, defense_days: None
) -> None:
    inquiry = _notified(contract, gestor, _days(2))
    with pytest.raises(ValidationError, match="a decisão só pode ser tomada depois desse prazo"):
        services.declare_caducidade(
            actor=gestor,
            inquiry=inquiry,
            reasons="Faltas.",
            recommendation=cmtt_resolution(_days(1)),
            decree_number="1",
            decree_on=TODAY(),
        )
    inquiry.refresh_from_db()
    assert inquiry.status == Inquiry.Status.NOTIFIED


def test_after_the_deadline_without_a_defense_the_decision_may_be_taken(
    contract: Any, gestor: Any, permit: Any, defense_days: None
) -> None:
    inquiry = _notified(contract, gestor, _days(40))
    with pytest.raises(ValidationError, match="depois do fim do prazo"):
        services.record_defense(actor=gestor, inquiry=inquiry, filed_on=_days(5), text="Tardia.")
    with pytest.raises(ValidationError, match="CMTT"):
        services.declare_caducidade(
            actor=gestor,
            inquiry=inquiry,
            reasons="Faltas.",
            recommendation=None,
            decree_number="1",
            decree_on=TODAY(),
        )
    with pytest.raises(ValidationError, match="decreto"):
        services.declare_caducidade(
            actor=gestor,
            inquiry=inquiry,
            reasons="Faltas.",
            recommendation=cmtt_resolution(_days(2), number=4),
            decree_number="",
            decree_on=None,
        )
    services.declare_caducidade(
        actor=gestor,
        inquiry=inquiry,
        reasons="Faltas comprovadas; não houve defesa no prazo.",
        recommendation=Resolution.objects.get(number=4),
        decree_number="77",
        decree_on=TODAY(),
    )
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.REVOKED


def test_archiving_keeps_the_permit(contract: Any, gestor: Any, permit: Any, defense_days: None) -> None:
    inquiry = _notified(contract, gestor, _days(3))
    services.archive_inquiry(actor=gestor, inquiry=inquiry, reasons="Faltas não comprovadas.")
    inquiry.refresh_from_db()
    contract.refresh_from_db()
    assert inquiry.status == Inquiry.Status.ARCHIVED
    assert contract.status == Contract.Status.IN_FORCE
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.ACTIVE


def test_notification_needs_the_agencys_defense_deadline(contract: Any, gestor: Any) -> None:
    inquiry = services.open_inquiry(
        actor=gestor, contract=contract, number="INQ-3", opening_act="Portaria 1", facts="Faltas."
    )
    with pytest.raises(ValidationError, match="não fixa o prazo da defesa"):
        services.notify_inquiry(actor=gestor, inquiry=inquiry, notified_on=TODAY(), means="pessoal")
    inquiry.refresh_from_db()
    assert inquiry.status == Inquiry.Status.OPENED


def test_an_inquiry_needs_its_act_and_facts_and_only_one_runs(contract: Any, gestor: Any) -> None:
    with pytest.raises(ValidationError, match="ato de instauração"):
        services.open_inquiry(actor=gestor, contract=contract, number="INQ-4", opening_act="", facts="F")
    with pytest.raises(ValidationError, match="Descreva os fatos"):
        services.open_inquiry(actor=gestor, contract=contract, number="INQ-4", opening_act="P", facts=" ")
    services.open_inquiry(actor=gestor, contract=contract, number="INQ-4", opening_act="P", facts="F")
    with pytest.raises(ValidationError, match="já tem inquérito de caducidade em andamento"):
        services.open_inquiry(actor=gestor, contract=contract, number="INQ-5", opening_act="P", facts="F")


def test_the_caducidade_is_not_recorded_without_the_inquiry(contract: Any, gestor: Any) -> None:
    for cause in ("caducidade", "breach"):
        with pytest.raises(ValidationError, match="instaure o inquérito"):
            services.extinguish(
                actor=gestor, contract=contract, cause=cause, extinct_on=TODAY(), act="Decreto 1", reasons="R"
            )
    assert not Extinction.objects.exists()


def test_the_cmtts_recommendation_must_be_favourable_and_after_the_opening(
    contract: Any, gestor: Any, permit: Any, defense_days: None
) -> None:
    inquiry = _notified(contract, gestor, _days(40))
    declare = {
        "actor": gestor,
        "inquiry": inquiry,
        "reasons": "Faltas.",
        "decree_number": "5",
        "decree_on": TODAY(),
    }
    with pytest.raises(ValidationError, match="não foi favorável"):
        services.declare_caducidade(
            **declare, recommendation=cmtt_resolution(_days(2), number=8, favorable=False)
        )
    with pytest.raises(ValidationError, match="anterior à instauração do inquérito"):
        services.declare_caducidade(**declare, recommendation=cmtt_resolution(_days(50), number=9))
    inquiry.refresh_from_db()
    assert inquiry.status == Inquiry.Status.NOTIFIED
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.ACTIVE
