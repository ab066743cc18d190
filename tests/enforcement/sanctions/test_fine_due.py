"""When a fine falls due, law by law (sanctions/fine_due.py): Recife's end of the defense
deadline postponed by a defense, Pernambuco's 15 days after the final decision, Esteio's clerk's
date and its suspensive appeal; cancelled or changed with the decisions."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.billing.models import Charge
from lotacao.billing.selectors import clearance
from lotacao.enforcement.models import Decision, Fine
from lotacao.enforcement.notices import services
from lotacao.enforcement.sanctions import fine_payment, fines
from lotacao.enforcement.sanctions.fines_pdf import slip_html
from tests.enforcement.conftest import at, make_jurisdiction
from tests.enforcement.sanctions.fine_helpers import (
    BRL,
    UFRM,
    _decision,
    _defense_end,
    _esteio_fine,
    _filing,
    _notice,
    _serve,
    _ufrm,
)

pytestmark = pytest.mark.django_db


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
    # art. 36 § 2º: the due date is postponed with no new date, so the first slip is cancelled
    assert fine.charge_id is None and fine.slip_count == 1
    assert clearance(holder=holder, on=late, procedure="document")  # art. 36 § 3º: defense exercised

    decision = _decision(notice, "defense", "2025-06-10", "upheld", filing=filing)
    fine = fines.sync_fine(actor=actor, notice=notice, on=dt.date(2025, 6, 10))
    assert fine is not None and fine.status == Fine.Status.AWAITING  # until the decision is served
    Decision.unscoped.filter(pk=decision.pk).update(served_on=dt.date(2025, 6, 16))
    fine = fines.sync_fine(actor=actor, notice=notice, on=dt.date(2025, 6, 16))
    assert fine is not None and fine.status == Fine.Status.OPEN and fine.due_on == dt.date(2025, 6, 16)
    charge = Charge.unscoped.get(pk=fine.charge_id)
    assert not charge.contested and charge.due_on == dt.date(2025, 6, 16) and fine.slip_count == 2
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


def test_esteio_needs_the_clerks_due_date(world: Any) -> None:
    notice = _notice(world.b, UFRM, holder=world.objects["esteio"]["registry.holder"])
    with pytest.raises(ValidationError, match="informe a data de vencimento"):
        fines.issue_fine(actor=None, notice=notice, reason="x", today=dt.date(2025, 5, 5))
    with pytest.raises(ValidationError, match="anterior a hoje"):
        fines.issue_fine(
            actor=None, notice=notice, reason="x", due_on=dt.date(2025, 5, 1), today=dt.date(2025, 5, 5)
        )
    assert not Fine.unscoped.filter(notice=notice).exists()


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
    assert fine.slip_count == 2 and fine.due_on == dt.date(2025, 7, 10) and fine.status == Fine.Status.OPEN
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
