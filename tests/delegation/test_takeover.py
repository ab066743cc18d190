"""Esteio (Lei 3.839/2004, art. 49): the company that replaces the extinct operator after the
tender hires its employees with more than one year of service, up to two per vehicle — counted on
the extinction's date, recorded employee by employee, and checked: the successor's operation does
not start until the hires reach min(entitled, 2 × vehicles) or every entitled one not hired refused
the offer. Every refusal is a tested path; the count is tested on both sides of the year."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.audit.models import AuditEvent
from lotacao.core.sample_ids import sample_cpf
from lotacao.delegation import services, takeover
from lotacao.delegation.models import Contract, FormerEmployee
from tests.delegation.conftest import TODAY, all_clauses, company_permit

pytestmark = pytest.mark.django_db
EXTINCT_ON = dt.date(2026, 3, 10)


@pytest.fixture
def extinct(contract: Any, gestor: Any) -> Any:
    """The predecessor's contract, extinguished by rescisão on EXTINCT_ON (a fixed date, so the
    year of service is counted on both sides)."""
    Contract.objects.filter(pk=contract.pk).update(
        signed_on=dt.date(2026, 1, 5), starts_on=dt.date(2026, 1, 5)
    )
    services.extinguish(
        actor=gestor,
        contract=contract,
        cause="rescisao",
        extinct_on=EXTINCT_ON,
        act="Sentença transitada em julgado",
        reasons="Rescisão judicial (art. 48).",
        on=max(EXTINCT_ON, TODAY()),
    )
    return Contract.objects.get(pk=contract.pk)


def _employee(gestor: Any, contract: Any, n: int, hired_on: dt.date) -> FormerEmployee:
    return takeover.record_employee(
        actor=gestor,
        contract=contract,
        name=f"Empregado {n}",
        cpf=sample_cpf(400_000_000 + n),
        hired_on=hired_on,
    )


def _successor(world: Any, gestor: Any, extinct: Any, company: bool = True, seed: int = 1) -> Contract:
    return services.record_contract(
        actor=gestor,
        permit=company_permit(world, seed=seed, company=company),
        number=f"CT-S{seed}/2026",
        signed_on=TODAY() - dt.timedelta(days=1),
        clauses=all_clauses(),
        predecessor=extinct,
        reason="Contrato da vencedora da licitação",
    )


def test_the_year_of_service_is_counted_on_the_extinction_date(gestor: Any, extinct: Any) -> None:
    exactly = _employee(gestor, extinct, 1, dt.date(2025, 3, 10))  # one year, not more
    more = _employee(gestor, extinct, 2, dt.date(2025, 3, 9))
    assert not takeover.entitled(exactly, EXTINCT_ON, 1)
    assert takeover.entitled(more, EXTINCT_ON, 1)
    words = {e["name"]: e for e in takeover.employees_in_words(extinct.extinction)}
    assert words["Empregado 1"]["entitled"] is False and words["Empregado 2"]["entitled"] is True
    assert words["Empregado 2"]["cpf"].startswith("***.") and sample_cpf(400_000_002) not in str(words)


def test_recording_employees_refuses_what_the_law_does_not_count(gestor: Any, contract: Any) -> None:
    with pytest.raises(
        ValidationError, match="Não é possível registrar empregado da operadora: o contrato está em vigor"
    ):
        _employee(gestor, contract, 1, dt.date(2020, 1, 1))
    services.extinguish(
        actor=gestor,
        contract=contract,
        cause="rescisao",
        extinct_on=TODAY() - dt.timedelta(days=1),
        act="Sentença",
        reasons="Rescisão",
    )
    contract.refresh_from_db()
    with pytest.raises(ValidationError, match="CPF 123 inválido"):
        takeover.record_employee(
            actor=gestor, contract=contract, name="A", cpf="123", hired_on=dt.date(2020, 1, 1)
        )
    with pytest.raises(ValidationError, match="Informe o nome"):
        takeover.record_employee(
            actor=gestor,
            contract=contract,
            name=" ",
            cpf=sample_cpf(400_000_001),
            hired_on=dt.date(2020, 1, 1),
        )
    with pytest.raises(ValidationError, match="posterior à extinção"):
        _employee(gestor, contract, 1, TODAY())
    _employee(gestor, contract, 1, dt.date(2020, 1, 1))
    with pytest.raises(ValidationError, match=r"já está registrado"):
        _employee(gestor, contract, 1, dt.date(2021, 1, 1))
    assert FormerEmployee.objects.count() == 1
    assert AuditEvent.objects.filter(action="delegation_employee.recorded").count() == 1


def test_the_successor_is_born_signed_and_refused_a_second_time_or_for_a_live_contract(
    world: Any, gestor: Any, contract: Any
) -> None:
    with pytest.raises(ValidationError, match="não foi extinto"):
        _successor(world, gestor, contract, seed=5)
    assert not Contract.objects.filter(predecessor=contract).exists()
    services.extinguish(
        actor=gestor, contract=contract, cause="rescisao", extinct_on=TODAY(), act="Sentença", reasons="R"
    )
    contract.refresh_from_db()
    successor = _successor(world, gestor, contract)
    assert successor.status == Contract.Status.SIGNED and successor.predecessor_id == contract.pk
    with pytest.raises(ValidationError, match="já tem contrato sucessor"):
        _successor(world, gestor, contract, seed=2)
    # a signed contract is not yet in force: no inquiry, no consortium
    with pytest.raises(ValidationError, match="a operação ainda não começou"):
        services.open_inquiry(actor=gestor, contract=successor, number="I", opening_act="P", facts="F")


def test_the_operation_starts_only_when_the_hires_reach_the_limit(
    world: Any, gestor: Any, extinct: Any
) -> None:
    # three entitled, one not: one vehicle → the limit is 2, so 2 hires are owed
    a, b, c = (_employee(gestor, extinct, n, dt.date(2024, 1, n)) for n in (1, 2, 3))
    junior = _employee(gestor, extinct, 4, dt.date(2025, 12, 1))
    successor = _successor(world, gestor, extinct)
    duty = takeover.obligation(successor)
    assert (len(duty.entitled), duty.limit, duty.required, duty.hired) == (3, 2, 2, 0)
    assert not duty.fulfilled
    with pytest.raises(ValidationError, match="faltam 2 contratações, e 3 empregados com direito estão"):
        takeover.start_contract(actor=gestor, contract=successor)
    with pytest.raises(ValidationError, match="não tinha mais de um ano de serviço"):
        takeover.record_hire(actor=gestor, contract=successor, employee=junior, hired_on=TODAY())
    with pytest.raises(ValidationError, match="entre a extinção"):
        takeover.record_hire(
            actor=gestor, contract=successor, employee=a, hired_on=EXTINCT_ON - dt.timedelta(days=1)
        )
    takeover.record_hire(actor=gestor, contract=successor, employee=a, hired_on=TODAY())
    with pytest.raises(ValidationError, match="Já consta para Empregado 1: contratado pela sucessora"):
        takeover.record_hire(actor=gestor, contract=successor, employee=a, hired_on=TODAY())
    with pytest.raises(ValidationError, match="faltam 1 contratação"):
        takeover.start_contract(actor=gestor, contract=successor)
    takeover.record_hire(actor=gestor, contract=successor, employee=b, hired_on=TODAY())
    with pytest.raises(ValidationError, match="o limite de 2 por veículo"):
        takeover.record_hire(actor=gestor, contract=successor, employee=c, hired_on=TODAY())
    assert takeover.obligation(successor).fulfilled
    started = takeover.start_contract(actor=gestor, contract=successor)
    assert started.status == Contract.Status.IN_FORCE
    assert AuditEvent.objects.filter(
        action="delegation_contract.started", object_id=str(successor.pk)
    ).exists()
    with pytest.raises(
        ValidationError, match="Não é possível iniciar a operação do contrato: o contrato está em vigor"
    ):
        takeover.start_contract(actor=gestor, contract=successor)


def test_a_recorded_refusal_counts_when_no_entitled_one_is_left(
    world: Any, gestor: Any, extinct: Any
) -> None:
    a, b = (_employee(gestor, extinct, n, dt.date(2024, 1, n)) for n in (1, 2))
    successor = _successor(world, gestor, extinct)
    takeover.record_hire(actor=gestor, contract=successor, employee=a, hired_on=TODAY())
    with pytest.raises(ValidationError, match="Informe o registro da recusa"):
        takeover.record_refusal(actor=gestor, contract=successor, employee=b, refused_on=TODAY(), note="")
    takeover.record_refusal(
        actor=gestor,
        contract=successor,
        employee=b,
        refused_on=TODAY(),
        note="Oferta por carta de 01/04; recusa assinada pelo empregado.",
    )
    duty = takeover.obligation(successor)
    assert (duty.hired, duty.declined, duty.pending, duty.fulfilled) == (1, 1, 0, True)
    assert "Obrigação cumprida" in duty.in_words()
    assert takeover.start_contract(actor=gestor, contract=successor).status == Contract.Status.IN_FORCE


def test_an_employee_of_another_operator_is_refused(world: Any, gestor: Any, extinct: Any) -> None:
    employee = _employee(gestor, extinct, 1, dt.date(2024, 1, 1))
    stranger = services.record_contract(
        actor=gestor,
        permit=company_permit(world, seed=3),
        number="CT-X/2026",
        signed_on=TODAY(),
        clauses=all_clauses(),
        reason="Outro contrato",
    )
    with pytest.raises(ValidationError, match="não era empregado"):
        takeover.record_hire(actor=gestor, contract=stranger, employee=employee, hired_on=TODAY())


def test_a_natural_person_successor_is_not_bound(world: Any, gestor: Any, extinct: Any) -> None:
    employee = _employee(gestor, extinct, 1, dt.date(2024, 1, 1))
    successor = _successor(world, gestor, extinct, company=False)
    duty = takeover.obligation(successor)
    assert not duty.applies and "pessoa física" in duty.in_words()
    with pytest.raises(ValidationError, match="pessoa física"):
        takeover.record_hire(actor=gestor, contract=successor, employee=employee, hired_on=TODAY())
    assert takeover.start_contract(actor=gestor, contract=successor).status == Contract.Status.IN_FORCE


def test_no_entitled_employee_leaves_nothing_owed(world: Any, gestor: Any, extinct: Any) -> None:
    successor = _successor(world, gestor, extinct)
    duty = takeover.obligation(successor)
    assert duty.applies and duty.required == 0 and duty.fulfilled
    assert timezone.localdate() >= successor.starts_on
    assert takeover.start_contract(actor=gestor, contract=successor).status == Contract.Status.IN_FORCE
