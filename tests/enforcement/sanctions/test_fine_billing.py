"""A fine paid through billing (the counter or the bank statement) marks the Fine paid through the
seam `charge_paid`; unit fines carry their fiscal unit to the Charge; the release of a seized
vehicle asks billing's clearance (Maricá art. 56: fines and fees in arrears paid first)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.billing.ledger import services as ledger
from lotacao.billing.models import Charge
from lotacao.billing.payments import bank
from lotacao.enforcement.models import Fine, InfractionNotice, Measure
from lotacao.enforcement.sanctions import fines
from lotacao.enforcement.sanctions import measures as svc
from tests.enforcement.conftest import at, make_jurisdiction
from tests.enforcement.sanctions.fine_helpers import BRL, _esteio_fine, _notice, _serve, _ufrm

pytestmark = pytest.mark.django_db


def _csv(*lines: str) -> bytes:
    return ("data;valor;codigo;id_transacao\n" + "\n".join(lines) + "\n").encode()


def _recife_fine(world: Any) -> Fine:
    notice = _notice(world.a, BRL, holder=world.objects["recife"]["registry.holder"])
    notice = _serve(notice, dt.date(2025, 5, 6))
    fine = fines.issue_fine(actor=None, notice=notice, reason="x", today=dt.date(2025, 5, 6))
    assert fine is not None and fine.charge is not None
    return fine


def test_a_fine_paid_at_billings_counter_is_paid_in_enforcement(world: Any) -> None:
    fine = _recife_fine(world)
    charge = Charge.unscoped.get(fine=fine)
    assert (charge.fiscal_unit, charge.units, charge.unit_value) == ("", None, None)  # a BRL fine
    ledger.record_payment(
        actor=world.users["atendente.recife"],
        charge=charge,
        paid_on=dt.date(2025, 5, 20),
        reason="pago no balcão",
        payment_reference="AUT-77",
        method="balcao",
    )
    fine.refresh_from_db()
    assert (fine.status, fine.paid_on, fine.paid_amount, fine.payment_reference) == (
        Fine.Status.PAID,
        dt.date(2025, 5, 20),
        Decimal("100.00"),
        "AUT-77",
    )
    assert AuditEvent.objects.filter(action="enforcement.fine_paid", object_id=str(fine.pk)).exists()


def test_a_unit_fine_paid_by_the_bank_statement_is_converted_and_paid(world: Any) -> None:
    _ufrm(world)  # UFRM R$ 4,00 from 01/01/2025, R$ 4,50 from 01/07/2025
    fine = _esteio_fine(world, dt.date(2025, 6, 20))
    charge = Charge.unscoped.get(fine=fine)
    # the Charge states the fine in its fiscal unit with the unit's value on the day
    assert (charge.fiscal_unit, charge.units, charge.unit_value, charge.amount) == (
        "UFRM",
        Decimal("2000"),
        Decimal("4.0000"),
        Decimal("8000.00"),
    )
    report = bank.import_statement(
        actor=None,
        jurisdiction=world.b,
        filename="extrato.csv",
        content=_csv(f"2025-06-12;8000,00;{charge.slip_code};T1"),
        reason="conciliação",
    ).report
    assert len(report["matched"]) == 1, report
    fine.refresh_from_db()
    assert (fine.status, fine.paid_amount, fine.unit_value) == (
        Fine.Status.PAID,
        Decimal("8000.00"),
        Decimal("4.0000"),
    )
    assert "Decreto da UFRM de 2025-01-01" in fine.unit_value_citation
    assert fine.payment_reference == "extrato extrato.csv"


def test_a_slip_stated_at_an_old_unit_value_is_refused_and_nothing_is_paid(world: Any) -> None:
    _ufrm(world)
    fine = _esteio_fine(world, dt.date(2025, 7, 20))
    charge = Charge.unscoped.get(fine=fine)
    assert charge.amount == Decimal("8000.00")  # stated on 05/05, at R$ 4,00
    report = bank.import_statement(
        actor=None,
        jurisdiction=world.b,
        filename="extrato.csv",
        content=_csv(f"2025-07-02;8000,00;{charge.slip_code};T2"),
        reason="conciliação",
    ).report
    assert report["matched"] == []
    assert "vale R$\xa09.000,00 em 02/07/2025" in report["unmatched"][0]["motivo"]
    assert "emita nova guia" in report["unmatched"][0]["motivo"]
    charge.refresh_from_db()
    fine.refresh_from_db()
    assert charge.paid_on is None and fine.status == Fine.Status.OPEN
    with pytest.raises(ValidationError, match="emita nova guia"):
        ledger.record_payment(
            actor=None, charge=charge, paid_on=dt.date(2025, 7, 2), reason="balcão", method="balcao"
        )
    charge.refresh_from_db()
    assert charge.paid_on is None and not charge.payments.exists()


def test_a_fee_paid_through_billing_touches_no_fine(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    fee = ledger.issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Segunda via",
        amount="10.00",
        due_on=dt.date(2025, 6, 1),
        reason="t",
    )
    before = list(Fine.unscoped.values_list("pk", "status", "paid_on").order_by("pk"))
    ledger.record_payment(actor=None, charge=fee, paid_on=dt.date(2025, 6, 1), reason="t", method="balcao")
    assert list(Fine.unscoped.values_list("pk", "status", "paid_on").order_by("pk")) == before


# ------------------------------------------------------ Maricá art. 56: release of a seized vehicle


def _marica_seizure(world: Any) -> tuple[Any, Measure]:
    from tests.enforcement.scenario_walk import _person_holder

    marica = make_jurisdiction("marica")
    holder = _person_holder(marica)
    notice = InfractionNotice.objects.create(
        jurisdiction=marica,
        number="AI-2025-900",
        drawn_up_at=at("2025-06-16"),
        infraction_code="x",
        offender_kind="permit_holder",
        holder=holder,
        plate="RIO2A34",
        penalty={"penalties": [], "measures": [{"type": "vehicle_seizure"}]},
    )
    measure = svc.apply_measure(
        actor=None,
        notice=notice,
        kind="vehicle_seizure",
        applied_at=notice.drawn_up_at + dt.timedelta(minutes=10),
        detail="Pátio da EPT",
        reason="Apreensão",
    )
    for condition in ("fault_fixed", "inspection_passed", "authorization"):
        svc.meet_condition(
            actor=None,
            measure=measure,
            condition_id=condition,
            met_on=dt.date(2025, 6, 20),
            note="Comprovado",
            reason="Condição cumprida",
        )
    return holder, measure


def _charge(holder: Any, kind: str, text: str, amount: str) -> Charge:
    return ledger.issue_charge(
        actor=None,
        holder=holder,
        kind=kind,
        description=text,
        amount=amount,
        due_on=dt.date(2025, 6, 1),
        reason="t",
    )


def test_marica_seized_vehicle_is_released_only_after_fines_and_fees_in_arrears_are_paid(
    world: Any,
) -> None:
    holder, measure = _marica_seizure(world)
    fine = _charge(holder, "fine", "Multa do auto AI-2025-001", "240.00")
    fee = _charge(holder, "fee", "Taxa de uso da rodoviária", "30.00")
    day = dt.date(2025, 6, 20)

    def release() -> Measure:
        return svc.release_measure(
            actor=None, measure=measure, released_on=day, note="", reason="Liberação do veículo"
        )

    with pytest.raises(ValidationError) as refused:
        svc.meet_condition(
            actor=None, measure=measure, condition_id="dues_paid", met_on=day, note="", reason="pago"
        )
    text = " ".join(refused.value.messages)
    assert "impedem a liberação do veículo apreendido" in text and "art. 56" in text
    assert f"guia nº {fine.slip_code}" in text and f"guia nº {fee.slip_code}" in text
    assert f"guia nº {fee.slip_code}, com PIX" in text  # how to pay: the slip with its PIX code
    assert "/cobranca/" not in text  # a sentence shows no raw address (issue 21)
    with pytest.raises(ValidationError, match="Multas e taxas em atraso pagas"):
        release()

    ledger.record_payment(actor=None, charge=fine, paid_on=day, reason="pago", method="balcao")
    with pytest.raises(ValidationError) as refused:
        svc.meet_condition(
            actor=None, measure=measure, condition_id="dues_paid", met_on=day, note="", reason="pago"
        )
    text = " ".join(refused.value.messages)
    assert f"guia nº {fee.slip_code}" in text and f"guia nº {fine.slip_code}" not in text

    ledger.record_payment(actor=None, charge=fee, paid_on=day, reason="pago", method="balcao")
    svc.meet_condition(
        actor=None, measure=measure, condition_id="dues_paid", met_on=day, note="", reason="pago"
    )
    released = release()
    assert released.status == Measure.Status.RELEASED and released.released_on == day


def test_a_fee_falling_into_arrears_after_the_condition_still_blocks_the_release(world: Any) -> None:
    holder, measure = _marica_seizure(world)
    svc.meet_condition(
        actor=None,
        measure=measure,
        condition_id="dues_paid",
        met_on=dt.date(2025, 6, 20),
        note="",
        reason="pago",
    )
    fee = ledger.issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Taxa de uso da rodoviária",
        amount="30.00",
        due_on=dt.date(2025, 6, 21),
        reason="t",
    )
    with pytest.raises(ValidationError, match=f"guia nº {fee.slip_code}"):
        svc.release_measure(
            actor=None, measure=measure, released_on=dt.date(2025, 6, 22), note="", reason="Liberação"
        )
    measure.refresh_from_db()
    assert measure.status == Measure.Status.IN_FORCE


def test_where_the_law_ties_no_procedure_to_clearance_a_fee_does_not_block_the_release(world: Any) -> None:
    """Esteio's pack lists no procedure in `clearance.blocks`: an overdue fee does not block."""
    holder = world.objects["esteio"]["registry.holder"]
    _charge(holder, "fee", "Taxa", "30.00")
    notice = InfractionNotice.objects.create(
        jurisdiction=world.b,
        number="AI-2025-901",
        drawn_up_at=at("2025-06-16"),
        infraction_code="x",
        offender_kind="permit_holder",
        holder=holder,
        plate="EST1A23",
        penalty={"penalties": [], "measures": [{"type": "vehicle_seizure"}]},
    )
    measure = Measure.objects.create(
        jurisdiction=world.b,
        notice=notice,
        kind="vehicle_seizure",
        applied_at=notice.drawn_up_at,
        conditions=[],
    )
    assert svc.clearance_refusal(measure, dt.date(2025, 6, 20)) is None


# ------------------------------------------------- Recife's readjusted Vb on the notice and its fine


def test_recife_readjustment_gives_vb_54_on_a_notice_of_that_day_and_50_the_day_before(world: Any) -> None:
    """Issue 13, from art. 36, § 1º (and art. 25, § 3º): +8 % from 01/01/2027 → Vb R$ 54,00 on a
    notice dated that day, R$ 50,00 the day before; the fine's Charge in billing follows."""
    from lotacao.billing.fares import services as fares
    from lotacao.councils.testing import resolution_for
    from lotacao.enforcement.reading import base_fine_words
    from tests.enforcement.scenario_walk import Walk, _person_holder

    day = dt.date(2027, 1, 1)
    fares.record_readjustment(
        actor=world.users["gestor.recife"],
        jurisdiction=world.a,
        valid_from=day,
        percent="8",
        act="Decreto nº 100/2026 (reajuste tarifário)",
        resolution=resolution_for("recife", "fare.change", day).pk,
        reason="reajuste",
    )
    o = world.objects["recife"]
    vehicle = o["registry.vehicle"]
    links = {"vehicle": vehicle, "line": o["registry.line"], "plate": vehicle.plate}
    walk = Walk(world, world.a, _person_holder(world.a), "permit_holder", **links)  # no earlier notice
    on_the_day = walk.draw("2027-01-01", "G2-a")
    day_before = walk.draw("2026-12-31", "G2-a")
    assert base_fine_words(on_the_day.engine_result).startswith(
        "Valor base da multa (Vb): R$\xa054,00, desde 01/01/2027 — Decreto nº 100/2026"
    )
    assert base_fine_words(day_before.engine_result).startswith("Valor base da multa (Vb): R$\xa050,00")
    # Group 2: Vm = 2 × Vb (art. 36)
    assert on_the_day.penalty["penalties"] == [{"type": "fine", "amount": "108.00"}]
    assert day_before.penalty["penalties"] == [{"type": "fine", "amount": "100.00"}]
    for notice, amount in ((on_the_day, "108.00"), (day_before, "100.00")):
        served = _serve(notice, dt.date(2027, 1, 4))
        fine = fines.issue_fine(actor=None, notice=served, reason="x", today=dt.date(2027, 1, 4))
        assert fine is not None and fine.amount == Decimal(amount)
        charge = Charge.unscoped.get(fine=fine)
        assert charge.amount == Decimal(amount) and charge.reference == notice.number


def test_a_fine_paid_by_a_cnab240_return_is_paid_in_enforcement_once(world: Any) -> None:
    from tests.billing import bankfiles as bf

    fine = _recife_fine(world)
    charge = Charge.unscoped.get(fine=fine)
    paid_on = dt.date(2025, 5, 20)
    content = bf.cnab240_file(
        [
            (
                "01",
                [
                    bf.segment_t(1, code=charge.slip_code, our_number="77", amount="100.00"),
                    bf.segment_u(2, paid="100.00", on=paid_on),
                ],
            )
        ]
    ).encode()
    report = bank.import_statement(
        actor=None, jurisdiction=world.a, filename="retorno.ret", content=content, reason="conciliação"
    ).report
    assert len(report["matched"]) == 1, report
    fine.refresh_from_db()
    assert (fine.status, fine.paid_on, fine.paid_amount) == (Fine.Status.PAID, paid_on, Decimal("100.00"))
    with pytest.raises(ValidationError, match="já foi importado"):
        bank.import_statement(
            actor=None, jurisdiction=world.a, filename="retorno.ret", content=content, reason="de novo"
        )
    assert charge.payments.count() == 1
