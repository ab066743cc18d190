"""Fines: amount in BRL or in a fiscal unit converted on the payment date, due dates from the law
(Recife art. 36 § 2º; Pernambuco art. 25 § 4º) or the agency (Esteio Anexo I art. 19), the
suspensive appeal (Esteio Anexo I art. 22 § 1º), payment, non-payment (Recife art. 36 § 3º;
Esteio Anexo I art. 26), the slip, screens, API and tenancy.

Filings and decisions are created directly (the lead's process services call `sync_fine`).
The PDFs' text is drawn in subset fonts (no pypdf here): the tests read the slip's HTML."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from lotacao.audit.models import AuditEvent
from lotacao.billing.models import Charge
from lotacao.billing.selectors import clearance
from lotacao.core.agency_values import set_agency_value
from lotacao.core.law import evaluate_case
from lotacao.enforcement.models import Decision, Filing, Fine, InfractionNotice
from lotacao.enforcement.notices import services
from lotacao.enforcement.sanctions import fine_payment, fines
from lotacao.enforcement.sanctions.fines_pdf import slip_html
from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import refresh
from tests.enforcement.conftest import at, make_jurisdiction

pytestmark = pytest.mark.django_db

BRL = {"penalties": [{"type": "fine", "amount": "100.00"}]}
UFRM = {"penalties": [{"type": "fine", "units": "2000", "unit": "UFRM"}]}


def _notice(j: Any, penalty: dict[str, Any], day: str = "2025-05-05", **over: Any) -> InfractionNotice:
    data: dict[str, Any] = {
        "jurisdiction": j,
        "number": f"AI-F-{j.code}-{InfractionNotice.unscoped.count() + 1}",
        "drawn_up_at": at(day),
        "infraction_code": "teste",
        "offender_kind": "permit_holder",
        "penalty": penalty,
    }
    data.update(over)
    return InfractionNotice.objects.create(**data)


def _serve(notice: InfractionNotice, day: dt.date) -> InfractionNotice:
    InfractionNotice.unscoped.filter(pk=notice.pk).update(served_on=day, status="notified")
    notice.refresh_from_db()
    return notice


def _filing(notice: InfractionNotice, instance: str, day: str, **over: Any) -> Filing:
    data: dict[str, Any] = {
        "jurisdiction_id": notice.jurisdiction_id,
        "notice": notice,
        "instance": instance,
        "instance_name": "Defesa" if instance == "defense" else "Recurso",
        "receipt": f"P-{Filing.unscoped.count() + 1}",
        "filed_at": at(day),
        "channel": "counter",
        "text": "Razões",
    }
    data.update(over)
    return Filing.objects.create(**data)


def _decision(notice: InfractionNotice, instance: str, day: str, outcome: str, **over: Any) -> Decision:
    data: dict[str, Any] = {
        "jurisdiction_id": notice.jurisdiction_id,
        "notice": notice,
        "instance": instance,
        "decided_on": dt.date.fromisoformat(day),
        "outcome": outcome,
        "reasons": "Fundamentação",
    }
    data.update(over)
    return Decision.objects.create(**data)


def _defense_end(code: str, served: dt.date, deadline: str = "defense") -> dt.date:
    result = evaluate_case(
        {"jurisdiction": code, "kind": "deadline", "deadline": deadline, "date": served.isoformat()}
    )
    return dt.date.fromisoformat(result["due"])


def _ufrm(world: Any) -> None:
    for day, amount in (("2025-01-01", "4.00"), ("2025-07-01", "4.50")):
        set_agency_value(
            actor=world.users["gestor.esteio"],
            jurisdiction=world.b,
            parameter="fiscal_unit.UFRM",
            valid_from=dt.date.fromisoformat(day),
            value=amount,
            cite=f"Decreto da UFRM de {day}",
            reason="valor da UFRM",
        )


# ----------------------------------------------------------------------------------- Recife


def test_recife_brl_fine_falls_due_at_the_end_of_the_defense_deadline(recife: dict[str, Any]) -> None:
    notice = services.draw_up_notice(
        actor=recife["fiscal"],
        jurisdiction=recife["j"],
        drawn_up_at=at("2025-06-16"),
        infraction_code="G2-a",
        offender_kind="permit_holder",
        place="Av. Norte, 100",
        description="Veículo fora do itinerário",
        permit=recife["permit"],
        inspector=recife["fiscal"],
        reason="teste",
    )
    actor = recife["fiscal"]
    fine = fines.issue_fine(actor=actor, notice=notice, reason="lançamento", today=dt.date(2025, 6, 16))
    assert fine is not None
    assert fine.amount == Decimal("100.00")  # Vm = G × Vb = 2 × R$ 50,00 (art. 36)
    assert fine.status == Fine.Status.AWAITING and fine.due_on is None and fine.charge is None
    assert fine.holder == recife["holder"]
    served = dt.date(2025, 6, 20)
    notice = _serve(notice, served)
    fine = fines.sync_fine(actor=actor, notice=notice, on=served)
    assert fine is not None and fine.status == Fine.Status.OPEN
    assert fine.due_on == _defense_end("recife", served) == dt.date(2025, 7, 22)
    cites = " ".join(fine.due_citations)
    assert "art. 36, § 2º" in cites and "art. 41, § 1º" in cites
    charge = Charge.unscoped.get(pk=fine.charge_id)
    assert (charge.amount, charge.due_on, charge.reference, charge.kind) == (
        Decimal("100.00"),
        fine.due_on,
        notice.number,
        "fine",
    )
    events = AuditEvent.objects.count()
    fines.sync_fine(actor=actor, notice=notice, on=served)  # idempotent
    assert AuditEvent.objects.count() == events
    with pytest.raises(ValidationError, match="já foi lançada"):
        fines.issue_fine(actor=actor, notice=notice, reason="de novo")


def test_recife_defense_postpones_the_due_date_and_does_not_block_clearance(recife: dict[str, Any]) -> None:
    actor, holder = recife["fiscal"], recife["holder"]
    notice = _serve(_notice(recife["j"], BRL, holder=holder), dt.date(2025, 5, 9))
    fine = fines.issue_fine(actor=actor, notice=notice, reason="lançamento", today=dt.date(2025, 5, 9))
    assert fine is not None and fine.status == Fine.Status.OPEN
    first_due = fine.due_on
    assert first_due is not None
    late = first_due + dt.timedelta(days=5)
    assert not clearance(holder=holder, on=late, procedure="document")  # overdue, no defense: blocks

    filing = _filing(notice, "defense", "2025-05-20")
    fine = fines.sync_fine(actor=actor, notice=notice, on=dt.date(2025, 5, 20))
    assert fine is not None and fine.status == Fine.Status.AWAITING and fine.due_on is None
    assert "adiado" in fine.due_explanation and filing.receipt in fine.due_explanation
    charge = Charge.unscoped.get(pk=fine.charge_id)
    assert charge.contested
    assert clearance(holder=holder, on=late, procedure="document")  # art. 36 § 3º: defense exercised

    decision = _decision(notice, "defense", "2025-06-10", "upheld", filing=filing)
    fine = fines.sync_fine(actor=actor, notice=notice, on=dt.date(2025, 6, 10))
    assert fine is not None and fine.status == Fine.Status.AWAITING  # until the decision is served
    Decision.unscoped.filter(pk=decision.pk).update(served_on=dt.date(2025, 6, 16))
    fine = fines.sync_fine(actor=actor, notice=notice, on=dt.date(2025, 6, 16))
    assert fine is not None and fine.status == Fine.Status.OPEN and fine.due_on == dt.date(2025, 6, 16)
    charge.refresh_from_db()
    assert not charge.contested and charge.due_on == dt.date(2025, 6, 16)
    assert not clearance(holder=holder, on=dt.date(2025, 6, 17), procedure="document")

    events = AuditEvent.objects.count()
    _filing(notice, "appeal", "2025-06-20")  # CRA: devolutivo only (art. 43, parágrafo único)
    fine = fines.sync_fine(actor=actor, notice=notice, on=dt.date(2025, 6, 20))
    assert fine is not None and fine.status == Fine.Status.OPEN and AuditEvent.objects.count() == events


def test_recife_refuses_a_due_date_from_the_clerk(recife: dict[str, Any]) -> None:
    notice = _notice(recife["j"], BRL, holder=recife["holder"])
    with pytest.raises(ValidationError, match="fixado pela lei"):
        fines.issue_fine(actor=None, notice=notice, reason="x", due_on=dt.date(2025, 8, 1))
    assert not Fine.unscoped.filter(notice=notice).exists()


def test_annulled_decision_cancels_and_changed_penalty_updates_the_amount(recife: dict[str, Any]) -> None:
    notice = _serve(_notice(recife["j"], BRL, holder=recife["holder"]), dt.date(2025, 5, 9))
    fine = fines.issue_fine(actor=None, notice=notice, reason="x", today=dt.date(2025, 5, 9))
    assert fine is not None
    filing = _filing(notice, "defense", "2025-05-20")
    _decision(
        notice,
        "defense",
        "2025-06-10",
        "changed",
        filing=filing,
        served_on=dt.date(2025, 6, 12),
        penalty={"penalties": [{"type": "fine", "amount": "50.00"}]},
    )
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 6, 12))
    assert fine is not None and fine.amount == Decimal("50.00") and fine.due_on == dt.date(2025, 6, 12)
    assert Charge.unscoped.get(pk=fine.charge_id).amount == Decimal("50.00")
    assert AuditEvent.objects.filter(action="enforcement.fine_amount_changed").count() == 1
    _decision(notice, "appeal", "2025-06-30", "annulled")
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 6, 30))
    assert fine is not None and fine.status == Fine.Status.CANCELLED
    assert Charge.unscoped.get(pk=fine.charge_id).cancelled
    with pytest.raises(ValidationError, match="cancelada"):
        fine_payment.record_fine_payment(
            actor=None, fine=fine, paid_on=dt.date(2025, 7, 1), payment_reference="x", reason="x"
        )


def test_penalty_without_fine_issues_nothing(recife: dict[str, Any]) -> None:
    notice = _notice(recife["j"], {"penalties": [{"type": "warning"}]}, holder=recife["holder"])
    assert fines.issue_fine(actor=None, notice=notice, reason="x") is None
    assert fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 6, 1)) is None


def test_annulled_notice_refuses_a_fine(recife: dict[str, Any]) -> None:
    notice = _notice(recife["j"], BRL, holder=recife["holder"], status="annulled")
    with pytest.raises(ValidationError, match="anulado"):
        fines.issue_fine(actor=None, notice=notice, reason="x")


# -------------------------------------------------------------------------------- Pernambuco


def test_pernambuco_fine_falls_due_15_days_after_the_final_decision(world: Any) -> None:
    pe = make_jurisdiction("pernambuco")
    notice = _notice(pe, {"penalties": [{"type": "fine", "amount": "900.00"}]}, offender_name="Empresa X")
    notice = _serve(notice, dt.date(2025, 5, 9))
    fine = fines.issue_fine(actor=None, notice=notice, reason="x", today=dt.date(2025, 5, 9))
    assert fine is not None and fine.status == Fine.Status.AWAITING and fine.holder is None
    assert "decisão definitiva" in fine.due_explanation and fine.payer_name == "Empresa X"
    _decision(notice, "defense", "2025-07-01", "lapsed", final=True, final_on=dt.date(2025, 7, 31))
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 7, 31))
    assert fine is not None and fine.status == Fine.Status.OPEN
    assert fine.due_on == _defense_end("pernambuco", dt.date(2025, 7, 31), "payment")
    assert dt.date(2025, 8, 15) <= fine.due_on <= dt.date(2025, 8, 18)  # 15 days (moved off a weekend)
    assert "art. 25, § 4º" in " ".join(fine.due_citations)
    assert fine.charge is None  # no holder: no billing charge


# ------------------------------------------------------------------------------------ Esteio


def _esteio_fine(world: Any, due: dt.date, day: str = "2025-05-05", served: dt.date | None = None) -> Fine:
    notice = _notice(world.b, UFRM, day=day, holder=world.objects["esteio"]["registry.holder"])
    if served:
        notice = _serve(notice, served)
    fine = fines.issue_fine(
        actor=None, notice=notice, reason="x", due_on=due, today=dt.date.fromisoformat(day)
    )
    assert fine is not None
    return fine


def test_esteio_needs_the_clerks_due_date(world: Any) -> None:
    notice = _notice(world.b, UFRM, holder=world.objects["esteio"]["registry.holder"])
    with pytest.raises(ValidationError, match="informe a data de vencimento"):
        fines.issue_fine(actor=None, notice=notice, reason="x", today=dt.date(2025, 5, 5))
    with pytest.raises(ValidationError, match="anterior a hoje"):
        fines.issue_fine(
            actor=None, notice=notice, reason="x", due_on=dt.date(2025, 5, 1), today=dt.date(2025, 5, 5)
        )
    assert not Fine.unscoped.filter(notice=notice).exists()


def test_esteio_ufrm_fine_is_converted_at_the_payment_dates_value(world: Any) -> None:
    early = _esteio_fine(world, dt.date(2025, 7, 10))
    late = _esteio_fine(world, dt.date(2025, 7, 10))
    assert early.status == Fine.Status.OPEN and early.charge is None  # no UFRM value yet: no charge
    with pytest.raises(ValidationError, match="Não há valor da UFRM vigente em 30/06/2025"):
        fine_payment.record_fine_payment(
            actor=None,
            fine=early,
            paid_on=dt.date(2025, 6, 30),
            payment_reference="BANCO-1",
            reason="x",
            today=dt.date(2025, 7, 2),
        )
    early.refresh_from_db()
    assert early.status == Fine.Status.OPEN and early.paid_on is None
    _ufrm(world)
    paid = fine_payment.record_fine_payment(
        actor=None,
        fine=early,
        paid_on=dt.date(2025, 6, 30),
        payment_reference="BANCO-1",
        reason="x",
        amount="8000.00",
        today=dt.date(2025, 7, 2),
    )
    assert (paid.status, paid.paid_amount, paid.unit_value) == (
        Fine.Status.PAID,
        Decimal("8000.00"),
        Decimal("4.0000"),
    )
    assert "Decreto da UFRM de 2025-01-01" in paid.unit_value_citation
    charge = Charge.unscoped.get(pk=paid.charge_id)
    assert charge.paid_on == dt.date(2025, 6, 30) and charge.amount == Decimal("8000.00")
    with pytest.raises(ValidationError, match="difere do valor devido"):
        fine_payment.record_fine_payment(
            actor=None,
            fine=late,
            paid_on=dt.date(2025, 7, 1),
            payment_reference="BANCO-2",
            reason="x",
            amount="8000.00",
            today=dt.date(2025, 7, 2),
        )
    paid = fine_payment.record_fine_payment(
        actor=None,
        fine=late,
        paid_on=dt.date(2025, 7, 1),
        payment_reference="BANCO-2",
        reason="x",
        today=dt.date(2025, 7, 2),
    )
    assert paid.paid_amount == Decimal("9000.00") and "2025-07-01" in paid.unit_value_citation
    with pytest.raises(ValidationError, match="paga"):
        fine_payment.record_fine_payment(
            actor=None, fine=paid, paid_on=dt.date(2025, 7, 1), payment_reference="B", reason="x"
        )


@pytest.mark.parametrize(
    ("paid_on", "reference", "message"),
    [
        (dt.date(2025, 7, 3), "B", "não pode ser futura"),
        (dt.date(2025, 5, 4), "B", "anterior à infração"),
        (dt.date(2025, 6, 2), " ", "comprovante"),
    ],
)
def test_payment_refusals(world: Any, paid_on: dt.date, reference: str, message: str) -> None:
    fine = _esteio_fine(world, dt.date(2025, 7, 10))
    _ufrm(world)
    events = AuditEvent.objects.count()
    with pytest.raises(ValidationError, match=message):
        fine_payment.record_fine_payment(
            actor=None,
            fine=fine,
            paid_on=paid_on,
            payment_reference=reference,
            reason="x",
            today=dt.date(2025, 7, 2),
        )
    fine.refresh_from_db()
    assert fine.status == Fine.Status.OPEN and AuditEvent.objects.count() == events


def test_esteio_appeal_not_judged_by_the_due_date_suspends_and_refusal_needs_a_new_slip(world: Any) -> None:
    _ufrm(world)
    fine = _esteio_fine(world, dt.date(2025, 6, 10), served=dt.date(2025, 5, 7))
    notice = fine.notice
    fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 5, 8))
    fine.refresh_from_db()
    charge = Charge.unscoped.get(pk=fine.charge_id)
    assert charge.amount == Decimal("8000.00") and not charge.contested  # estimated at today's UFRM
    filing = _filing(notice, "appeal", "2025-05-20")
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 5, 20))
    assert fine is not None and fine.status == Fine.Status.OPEN
    charge.refresh_from_db()
    assert charge.contested  # art. 22: suspensive effect
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 6, 11))
    assert fine is not None and fine.status == Fine.Status.SUSPENDED
    assert "Anexo I, art. 22" in fine.status_note
    with pytest.raises(ValidationError, match="suspensa"):
        fine_payment.record_fine_payment(
            actor=None, fine=fine, paid_on=dt.date(2025, 6, 11), payment_reference="B", reason="x"
        )
    with pytest.raises(ValidationError, match="suspensa"):
        fine_payment.issue_slip(
            actor=None, fine=fine, reason="x", due_on=dt.date(2025, 7, 1), today=dt.date(2025, 6, 11)
        )
    _decision(notice, "appeal", "2025-06-20", "upheld", filing=filing)
    fine = fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 6, 20))
    assert fine is not None and fine.status == Fine.Status.OPEN and fine.due_on is None
    assert "nova guia" in fine.due_explanation
    assert Charge.unscoped.get(pk=charge.pk).cancelled and fine.charge is None
    assert not fine_payment.slip_available(fine)
    with pytest.raises(ValidationError, match="informe a data de vencimento"):
        fine_payment.issue_slip(actor=None, fine=fine, reason="x", today=dt.date(2025, 6, 21))
    pdf = fine_payment.issue_slip(
        actor=None, fine=fine, reason="nova guia", due_on=dt.date(2025, 7, 10), today=dt.date(2025, 6, 21)
    )
    assert pdf.startswith(b"%PDF")
    fine.refresh_from_db()
    assert fine.slip_count == 1 and fine.due_on == dt.date(2025, 7, 10) and fine.status == Fine.Status.OPEN
    new_charge = Charge.unscoped.get(pk=fine.charge_id)
    assert (
        new_charge.pk != charge.pk and new_charge.due_on == dt.date(2025, 7, 10) and not new_charge.contested
    )
    events = AuditEvent.objects.count()
    fines.sync_fine(actor=None, notice=notice, on=dt.date(2025, 6, 21))  # idempotent after the slip
    fine.refresh_from_db()
    assert fine.due_on == dt.date(2025, 7, 10) and AuditEvent.objects.count() == events
    html = slip_html(fine, on=dt.date(2025, 6, 21))
    assert notice.number in html and "SMOVT" in html and "2000 UFRM" in html
    assert "convertido pelo valor vigente na data do pagamento" in html and "10/07/2025" in html


def test_esteio_appeal_judged_in_time_keeps_the_slip(world: Any) -> None:
    fine = _esteio_fine(world, dt.date(2025, 6, 10), served=dt.date(2025, 5, 7))
    filing = _filing(fine.notice, "appeal", "2025-05-20")
    _decision(fine.notice, "appeal", "2025-06-05", "upheld", filing=filing)
    synced = fines.sync_fine(actor=None, notice=fine.notice, on=dt.date(2025, 6, 5))
    assert synced is not None and synced.status == Fine.Status.OPEN and synced.due_on == dt.date(2025, 6, 10)


def test_offset_only_where_the_law_allows_and_from_the_next_business_day(
    world: Any, recife: dict[str, Any]
) -> None:
    _ufrm(world)
    fine = _esteio_fine(world, dt.date(2025, 6, 6))  # a Friday
    with pytest.raises(ValidationError, match="a partir do dia útil seguinte ao vencimento, 09/06/2025"):
        fine_payment.offset_fine(
            actor=None,
            fine=fine,
            credit_reference="C-1",
            on=dt.date(2025, 6, 7),
            reason="x",
            today=dt.date(2025, 6, 9),
        )
    with pytest.raises(ValidationError, match="referência do crédito"):
        fine_payment.offset_fine(
            actor=None,
            fine=fine,
            credit_reference=" ",
            on=dt.date(2025, 6, 9),
            reason="x",
            today=dt.date(2025, 6, 9),
        )
    done = fine_payment.offset_fine(
        actor=world.users["gestor.esteio"],
        fine=fine,
        credit_reference="Crédito 12/2025",
        on=dt.date(2025, 6, 9),
        reason="Desconto autorizado",
        today=dt.date(2025, 6, 9),
    )
    assert done.status == Fine.Status.OFFSET and done.paid_amount == Decimal("8000.00")
    assert "Anexo I, art. 26, I" in done.status_note
    assert Charge.unscoped.get(pk=done.charge_id).paid_on == dt.date(2025, 6, 9)
    with pytest.raises(ValidationError, match="descontada de créditos"):
        fine_payment.offset_fine(
            actor=None, fine=done, credit_reference="C", on=dt.date(2025, 6, 9), reason="x"
        )

    notice = _serve(_notice(recife["j"], BRL, holder=recife["holder"]), dt.date(2025, 5, 9))
    other = fines.issue_fine(actor=None, notice=notice, reason="x", today=dt.date(2025, 5, 9))
    assert other is not None
    with pytest.raises(ValidationError, match="não prevê o desconto"):
        fine_payment.offset_fine(
            actor=None, fine=other, credit_reference="C", on=dt.date(2025, 8, 1), reason="x"
        )


def test_work_queue_points_out_offsets_and_three_unpaid_fines(world: Any) -> None:
    for _ in range(3):
        _esteio_fine(world, dt.date(2025, 6, 6))
    items = list(fine_payment.nonpayment_items(dt.date(2025, 6, 10)))
    offsets = [i for i in items if i.kind == fine_payment.OFFSET_KIND]
    assert len(offsets) == 3 and offsets[0].due_on == dt.date(2025, 6, 9)
    assert "pode descontar de créditos a partir de 09/06/2025 (Anexo I, art. 26, I)" in offsets[0].title
    (suspension,) = [i for i in items if i.kind == fine_payment.SUSPENSION_KIND]
    assert "3 multas não pagas: pode suspender a permissão (Anexo I, art. 26, II)" in suspension.title
    refresh(dt.date(2025, 6, 10))
    assert WorkItem.objects.filter(kind=fine_payment.SUSPENSION_KIND, status="aberto").count() == 1
    # nothing is done automatically
    assert not Fine.unscoped.filter(status=Fine.Status.OFFSET).exists()
    assert fine_payment.nonpayment_items(dt.date(2025, 6, 6)) is not None
    assert not list(fine_payment.nonpayment_items(dt.date(2025, 6, 6)))  # not yet overdue


# ------------------------------------------------------------------------------------- Maricá


def test_marica_appeal_needs_the_fine_paid_within_30_days(world: Any) -> None:
    marica = make_jurisdiction("marica")
    notice = _notice(
        marica, {"penalties": [{"type": "fine", "units": "2", "unit": "UFIMA"}]}, offender_name="X"
    )
    check = fine_payment.paid_before_appeal_deadline(notice)
    assert check.required and not check and check.deadline is None
    notice = _serve(notice, dt.date(2025, 5, 9))
    fine = fines.issue_fine(
        actor=None, notice=notice, reason="x", due_on=dt.date(2025, 6, 1), today=dt.date(2025, 5, 9)
    )
    assert fine is not None
    check = fine_payment.paid_before_appeal_deadline(notice)
    assert not check and check.deadline == dt.date(2025, 6, 9) and "art. 70, parágrafo único" in check.message
    set_agency_value(
        actor=None,
        jurisdiction=marica,
        parameter="fiscal_unit.UFIMA",
        valid_from=dt.date(2025, 5, 1),
        value="120.00",
        cite="Decreto da UFIMA de maio",
        reason="valor",
    )
    fine_payment.record_fine_payment(
        actor=None,
        fine=fine,
        paid_on=dt.date(2025, 5, 20),
        payment_reference="B",
        reason="x",
        today=dt.date(2025, 5, 20),
    )
    check = fine_payment.paid_before_appeal_deadline(notice)
    assert check and check.required and check.paid
    assert not fine_payment.paid_before_appeal_deadline(
        _notice(world.a, BRL)
    ).required  # Recife: no such rule


# ----------------------------------------------------------------------- screens, API, tenancy


def test_notice_page_shows_the_fine_and_the_holder_downloads_the_slip(world: Any, client: Any) -> None:
    fine = world.objects["recife"]["enforcement.fine"]
    client.force_login(world.users["atendente.recife"])
    page = client.get(reverse("enforcement:notice", kwargs={"pk": fine.notice_id})).content.decode()
    assert 'id="multa"' in page and "Registrar pagamento" in page and "Emitir guia" in page
    client.force_login(world.users["holder0.recife"])
    page = client.get(reverse("enforcement:fine", kwargs={"pk": fine.pk})).content.decode()
    assert "Baixar guia de pagamento" in page and "Registrar pagamento" not in page
    response = client.get(reverse("enforcement:fine_slip", kwargs={"pk": fine.pk}))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert response["Content-Type"] == "application/pdf"
    assert (
        client.post(reverse("enforcement:fine", kwargs={"pk": fine.pk}), {"action": "payment"}).status_code
        == 403
    )
    for outsider in ("holder1.recife", "atendente.esteio", "holder0.esteio"):
        client.force_login(world.users[outsider])
        assert client.get(reverse("enforcement:fine_slip", kwargs={"pk": fine.pk})).status_code == 404
        assert client.get(f"/api/fines/{fine.pk}").status_code == 404


def test_screens_issue_a_fine_and_record_a_payment(world: Any, client: Any, recife: dict[str, Any]) -> None:
    notice = _serve(_notice(world.a, BRL, holder=recife["holder"]), dt.date(2025, 5, 9))
    client.force_login(world.users["atendente.recife"])
    page = client.get(reverse("enforcement:notice", kwargs={"pk": notice.pk})).content.decode()
    assert "Lançar multa" in page
    response = client.post(reverse("enforcement:fine_issue", kwargs={"pk": notice.pk}), {"reason": "lançar"})
    assert response.status_code == 302
    fine = Fine.unscoped.get(notice=notice)
    url = reverse("enforcement:fine", kwargs={"pk": fine.pk})
    refused = client.post(
        url, {"action": "payment", "paid_on": "2999-01-01", "payment_reference": "B", "reason": "x"}
    )
    assert refused.status_code == 422 and "não pode ser futura" in refused.content.decode()
    done = client.post(
        url, {"action": "payment", "paid_on": "2025-05-20", "payment_reference": "B", "reason": "x"}
    )
    assert done.status_code == 302
    fine.refresh_from_db()
    assert fine.status == Fine.Status.PAID
    offset = client.post(
        url, {"action": "offset", "on": "2025-08-01", "credit_reference": "C", "reason": "x"}
    )
    assert offset.status_code == 403  # a manager's act


def test_api_reads_and_records_a_payment(world: Any, client: Any) -> None:
    fine = world.objects["recife"]["enforcement.fine"]
    client.force_login(world.users["holder0.recife"])
    assert client.get(f"/api/fines/{fine.pk}").json()["amount"] == "100.00"
    body = {"paid_on": "2000-01-01", "payment_reference": "B"}
    assert (
        client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json").status_code == 403
    )
    client.force_login(world.users["atendente.recife"])
    refused = client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json")
    assert refused.status_code == 422 and "anterior à infração" in refused.json()["detail"][0]
    from lotacao.enforcement.reading import local_day

    # the infraction's day where it happened (near midnight UTC it is still the day before there)
    body["paid_on"] = local_day(fine.notice.jurisdiction, fine.notice.drawn_up_at).isoformat()
    done = client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json")
    assert done.status_code == 200 and done.json()["status"] == "paid"
    client.force_login(world.users["atendente.esteio"])
    assert (
        client.post(f"/api/fines/{fine.pk}/payment", body, content_type="application/json").status_code == 404
    )


def test_a_fine_paid_for_a_notice_annulled_later_is_queued_and_refunded(world: Any, client: Any) -> None:
    from lotacao.enforcement.reading import local_day
    from lotacao.enforcement.sanctions.fine_payment import REFUND_KIND, record_refund, refund_items

    fine = world.objects["recife"]["enforcement.fine"]
    notice = fine.notice
    paid_on = local_day(notice.jurisdiction, notice.drawn_up_at)
    fine_payment.record_fine_payment(
        actor=None, fine=fine, paid_on=paid_on, payment_reference="B-1", reason="Pago"
    )
    fine.refresh_from_db()
    with pytest.raises(ValidationError, match="não foi anulado"):
        record_refund(actor=None, fine=fine, refunded_on=paid_on, reference="OB-1", reason="x")
    assert not [i for i in refund_items(paid_on) if i.key == f"fine:{fine.pk}"]
    InfractionNotice.unscoped.filter(pk=notice.pk).update(status=InfractionNotice.Status.ANNULLED)
    items = [i for i in refund_items(paid_on) if i.key == f"fine:{fine.pk}"]
    assert len(items) == 1 and items[0].kind == REFUND_KIND and "restituir" in items[0].title
    client.force_login(world.users["atendente.recife"])
    url = f"/fiscalizacao/multas/{fine.pk}/"
    body = {
        "action": "refund",
        "refunded_on": paid_on.isoformat(),
        "reference": "OB-1",
        "reason": "Restituição",
    }
    assert client.post(url, body).status_code == 403  # the manager decides
    client.force_login(world.users["gestor.recife"])
    assert client.post(url, {**body, "reference": " "}).status_code == 422
    assert client.post(url, body).status_code == 302
    fine.refresh_from_db()
    assert fine.status == Fine.Status.REFUNDED and "OB-1" in fine.status_note
    assert not [i for i in refund_items(paid_on) if i.key == f"fine:{fine.pk}"]
