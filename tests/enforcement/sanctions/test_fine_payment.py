"""Paying a fine and not paying it (sanctions/fine_payment.py): the UFRM converted at the
payment date's value, refusals, offsets from credits, the work queue of unpaid fines, Maricá's
appeal after paying, and the refund of a fine paid for a notice annulled later."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.billing.models import Charge
from lotacao.enforcement.models import Fine, InfractionNotice
from lotacao.enforcement.sanctions import fine_payment, fines
from lotacao.web.agency_values import set_agency_value
from lotacao.workqueue.models import WorkItem
from lotacao.workqueue.services import refresh
from tests.enforcement.conftest import make_jurisdiction
from tests.enforcement.sanctions.fine_helpers import (
    BRL,
    _esteio_fine,
    _notice,
    _serve,
    _ufrm,
)

pytestmark = pytest.mark.django_db


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


def test_a_fine_paid_for_a_notice_annulled_later_is_queued_and_refunded(world: Any, client: Any) -> None:
    from lotacao.enforcement.reading import local_day
    from lotacao.enforcement.sanctions.refunds import REFUND_KIND, record_refund, refund_items

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
