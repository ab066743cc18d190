"""One scenario per law, Recife and Esteio, from drawing up to the final decision: the engine's
penalty from the offender's final history, notification, the fine, a late defense that is not
known, a defense that annuls (and so never counts later), and what an unpaid fine does."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.billing.selectors import clearance
from lotacao.enforcement.due_process import decisions, settle
from lotacao.enforcement.models import Decision, Fine, InfractionNotice
from lotacao.enforcement.notices import penalty
from lotacao.enforcement.sanctions import fine_payment, fines
from lotacao.web.agency_values import set_agency_value
from tests.enforcement.scenario_walk import (
    TODAY,
    Walk,
    _final,
)

pytestmark = pytest.mark.django_db


def test_recife_scenario(world: Any) -> None:
    o = world.objects["recife"]
    w = Walk(world, world.a, o["registry.holder"], "permit_holder", permit=o["permits.permit"])
    # 1. Group 2, no defense: final when the defense deadline passes; the fine falls due then.
    first = w.serve(w.draw("2025-02-03", "G2-a"), dt.date(2025, 2, 5))
    assert first.penalty["penalties"] == [{"type": "fine", "amount": "100.00"}]  # Vm = 2 × R$ 50 (art. 36)
    fine = fines.issue_fine(actor=None, notice=first, reason="Lançamento", today=dt.date(2025, 2, 6))
    # day 1 is the first business day after receipt (06/02), so the 30th day is 07/03: the
    # defense deadline (art. 41 § 1º) and the fine's due date (art. 36 § 2º)
    assert fine is not None and fine.due_on == dt.date(2025, 3, 7)
    settle.settle_due_process(today=dt.date(2025, 3, 8))
    assert _final(first)
    # unpaid and undefended: it blocks the holder's procedures (art. 36 § 3º)
    blocked = clearance(holder=w.holder, on=dt.date(2025, 3, 20), procedure="document")
    assert not blocked.clear and "100,00" in " ".join(blocked.reasons)
    # 2. Same group within 6 months of a final one: recidivism doubles the fine (art. 33).
    second = w.serve(w.draw("2025-04-07", "G2-b"), dt.date(2025, 4, 9))
    assert second.engine_result["repeat"] == 1
    assert second.penalty["penalties"] == [{"type": "fine", "amount": "200.00"}]
    # a defense filed after the deadline is recorded, flagged, and can only be declared late
    late = w.file(second, dt.date(2025, 5, 30))
    assert late.late and late.due_on is not None and "art. 41" in late.due_explanation
    with pytest.raises(ValidationError, match="intempestividade"):
        w.judge(late, dt.date(2025, 6, 5), "annulled")
    not_known = w.judge(late, dt.date(2025, 6, 5), "not_known")
    assert not not_known.final  # the CRA remains (art. 43)
    decisions.record_decision_service(actor=None, decision=not_known, served_on=dt.date(2025, 6, 10))
    settle.settle_due_process(today=dt.date(2025, 6, 26))
    assert _final(second)
    # 3. Defense rejected by the CDTC, appeal to the CRA annuls: the notice never counts.
    third = w.serve(w.draw("2025-07-01", "G2-c"), dt.date(2025, 7, 2))
    defense = w.file(third, dt.date(2025, 7, 10))
    rejected = w.judge(defense, dt.date(2025, 7, 25), "upheld")
    assert rejected.notify_due == dt.date(2025, 8, 11)  # 15 days (art. 42, par. único), 09/08 a Saturday
    decisions.record_decision_service(actor=None, decision=rejected, served_on=dt.date(2025, 7, 30))
    appeal = w.file(third, dt.date(2025, 8, 5))
    assert appeal.instance == "appeal" and appeal.body.key == "cra" and not appeal.late
    annulled = w.judge(appeal, dt.date(2025, 8, 20), "annulled")
    third.refresh_from_db()
    assert annulled.final and third.status == InfractionNotice.Status.ANNULLED
    fourth = w.draw("2025-09-01", "G2-d")
    statuses = {h["code"]: h["status"] for h in penalty.offender_history(fourth)}
    assert statuses == {"G2-a": "final", "G2-b": "final", "G2-c": "annulled"}
    # within the 6 months before 01/09 (art. 33): G2-b counts, G2-c (annulled) does not; G2-a is older
    assert fourth.engine_result["repeat"] == 1


def test_esteio_scenario(world: Any) -> None:
    o = world.objects["esteio"]
    w = Walk(world, world.b, o["registry.holder"], "permit_holder", permit=o["permits.permit"])
    set_agency_value(
        actor=None,
        jurisdiction=world.b,
        parameter="fiscal_unit.UFRM",
        valid_from=dt.date(2025, 1, 1),
        value="4.2000",
        cite="Decreto municipal (teste)",
        reason="teste",
    )
    # 1. Appeal to the CIP in time, refused by majority: final at once (single instance).
    first = w.serve(w.draw("2025-02-03", "II-06"), dt.date(2025, 2, 5))
    fine = fines.issue_fine(
        actor=None, notice=first, reason="Lançamento", due_on=dt.date(2025, 3, 31), today=dt.date(2025, 2, 6)
    )
    assert fine is not None and fine.unit == "UFRM" and fine.units == Decimal("50")
    appeal = w.file(first, dt.date(2025, 2, 20))
    assert appeal.due_on == dt.date(2025, 2, 26) and not appeal.late  # 15 business days (art. 20)
    decision = w.judge(appeal, dt.date(2025, 3, 10), "", votes=["uphold", "uphold"])
    assert decision.outcome == Decision.Outcome.UPHELD and decision.final and _final(first)
    # 2. Same code within its period: the group rises (Anexo I, art. 4) — fine and suspension.
    second = w.serve(w.draw("2025-04-07", "II-06"), dt.date(2025, 4, 9))
    assert second.engine_result["repeat"] == 1 and second.engine_result["group"] == "III"
    # a late appeal is declared late by the CIP (art. 21)
    late = w.file(second, dt.date(2025, 6, 2))
    assert late.late
    declared = w.judge(late, dt.date(2025, 6, 10), "not_known")
    assert declared.final and _final(second)
    # 3. An appeal the CIP grants annuls the notice: it never counts.
    third = w.serve(w.draw("2025-07-01", "II-07"), dt.date(2025, 7, 2))
    granted = w.judge(
        w.file(third, dt.date(2025, 7, 8)), dt.date(2025, 7, 20), "", votes=["annul", "annul", "uphold"]
    )
    assert granted.outcome == Decision.Outcome.ANNULLED
    later = w.draw("2025-08-01", "II-07")
    assert later.engine_result["repeat"] == 0
    # 4. The refused appeal's fine, unpaid past its due date: the SMOVT may offset it from the
    # next business day (Anexo I, art. 26, I) — pointed out to a manager, never done alone.
    items = [
        i for i in fine_payment.nonpayment_items(dt.date(2025, 4, 15)) if i.kind == fine_payment.OFFSET_KIND
    ]
    assert any(first.number in i.title for i in items)
    # paying converts the UFRM at the value in force on the payment date (art. 19, par. único)
    fine.refresh_from_db()
    if fine.status == Fine.Status.OPEN:
        paid = fine_payment.record_fine_payment(
            actor=None,
            fine=fine,
            paid_on=dt.date(2025, 4, 16),
            payment_reference="DAM-1",
            reason="Pagamento",
            today=TODAY,
        )
        assert paid.paid_amount == Decimal("210.00") and paid.unit_value == Decimal("4.2000")
