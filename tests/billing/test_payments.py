"""Payments: PIX BR Code (the Banco Central's published example), slips, bank statement import
with its reconciliation report, late charges only by the agency's act, and the clearance that
sees every overdue charge (Recife art. 26; Maricá art. 27, § 3º and art. 56)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.billing.clearance.selectors import clearance
from lotacao.billing.ledger import services
from lotacao.billing.ledger.models import Charge, Payment
from lotacao.billing.payments import bank, pix, slips

DAY = dt.date(2027, 3, 15)
BCB_EXAMPLE = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
    "5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)


def test_pix_payload_matches_the_central_banks_published_example() -> None:
    built = pix.payload(
        key="123e4567-e12b-12d1-a456-426655440000", beneficiary="Fulano de Tal", city="BRASILIA"
    )
    assert built == BCB_EXAMPLE and pix.is_valid(BCB_EXAMPLE)
    assert pix.crc16("123456789") == "29B1"  # CRC-16/CCITT-FALSE check value
    with_amount = pix.payload(
        key="chave@orgao.gov.br",
        beneficiary="Autarquia de Trânsito",
        city="Recife",
        amount=Decimal("1600.00"),
        txid="REC000000000001",
    )
    assert "54071600.00" in with_amount and "0515REC000000000001" in with_amount and pix.is_valid(with_amount)
    assert "Autarquia de Transito" in with_amount  # no accents in the payload
    assert not pix.is_valid(with_amount[:-1] + ("0" if with_amount[-1] != "0" else "1"))


@pytest.mark.parametrize(
    ("beneficiary", "city", "name_field", "city_field"),
    [
        # The Cabo demo's agency and city: cut at a word's end, never "…de S" / "Santo A".
        (
            "Secretaria Executiva de Serviços Públicos",
            "Cabo de Santo Agostinho",
            "5920Secretaria Executiva",
            "6013Cabo de Santo",
        ),
        ("Autarquia de Trânsito", "São Lourenço da Mata", "5921Autarquia de Transito", "6012Sao Lourenco"),
        # A single word longer than the field has no word end to keep: cut at the limit.
        (
            "Superintendenciaexecutivaautonoma",
            "Florianopolisdosul",
            "5925Superintendenciaexecutiva",
            "6015Florianopolisdo",
        ),
    ],
)
def test_pix_names_and_cities_are_cut_at_word_boundaries(
    beneficiary: str, city: str, name_field: str, city_field: str
) -> None:
    """The BR Code allows 25 characters of name (59) and 15 of city (60)."""
    code = pix.payload(key="k@x.br", beneficiary=beneficiary, city=city, amount=Decimal("1"))
    assert name_field in code and city_field in code and pix.is_valid(code)
    fields = pix.fields(code)
    assert len(fields["59"]) <= 25 and len(fields["60"]) <= 15


def _fee(holder: Any, due: dt.date = DAY, amount: str = "50.00") -> Charge:
    return services.issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        fee="reregistration_holder",
        description="Taxa de recadastramento",
        amount=amount,
        due_on=due,
        reason="t",
    )


def test_an_overdue_recife_fee_blocks_reregistration_and_paying_lifts_it_the_same_day(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    after = DAY + dt.timedelta(days=3)
    verdict = clearance(holder=holder, on=after, procedure="reregistration")
    assert not verdict.clear and verdict.blocking == [charge]
    assert "art. 26" in verdict.citations[0] and charge.slip_code in verdict.reasons[1]
    assert verdict.reasons[0] == (
        "Débitos vencidos (R$\xa050,00) impedem o recadastramento até a quitação "
        "(Lei Municipal 16.856/2003 (Recife), art. 26)."
    )
    assert f"guia nº {charge.slip_code}, com PIX" in verdict.reasons[1]  # how to pay
    assert "/cobranca/" not in verdict.reasons[1]  # a sentence shows no raw address (issue 21)
    services.record_payment(actor=None, charge=charge, paid_on=after, reason="pago", method="balcao")
    assert clearance(holder=holder, on=after, procedure="reregistration").clear
    assert Payment.objects.get().amount == Decimal("50.00")


def test_any_unpaid_debt_blocks_the_inspection_and_the_release_in_marica(place: Any, new_holder: Any) -> None:
    holder = new_holder(place("marica"))
    _fee(holder, due=DAY, amount="10.00")
    for procedure in ("inspection", "release"):
        verdict = clearance(holder=holder, on=DAY + dt.timedelta(days=1), procedure=procedure)
        assert not verdict.clear and any("art. 56" in c or "art. 27" in c for c in verdict.citations)
    assert clearance(holder=holder, on=DAY + dt.timedelta(days=1), procedure="grant").clear
    # Each procedure names its own article: art. 27, § 3º for the inspection, art. 56 for the release.
    inspection = clearance(holder=holder, on=DAY + dt.timedelta(days=1), procedure="inspection")
    assert inspection.reasons[0].endswith(
        "impedem a vistoria até a quitação (Lei Municipal 2.627/2015 (Maricá), art. 27, § 3º)."
    )
    release = clearance(holder=holder, on=DAY + dt.timedelta(days=1), procedure="release")
    assert release.reasons[0].endswith(
        "impedem a liberação do veículo apreendido até a quitação "
        "(Lei Municipal 2.627/2015 (Maricá), art. 56)."
    )


def test_fee_paid_says_whether_the_fee_of_a_reference_is_paid_by_a_day(world: Any) -> None:
    from lotacao.billing.selectors import fee_paid

    holder = world.objects["recife"]["registry.holder"]
    charge = services.issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Taxa",
        amount="10.00",
        due_on=DAY,
        reason="t",
        reference="fusp-lv:1:2027",
    )
    assert not fee_paid(holder, "fusp-lv:1:2027", DAY)
    services.record_payment(actor=None, charge=charge, paid_on=DAY, reason="pago", method="balcao")
    assert fee_paid(holder, "fusp-lv:1:2027", DAY)
    assert not fee_paid(holder, "fusp-lv:1:2027", DAY - dt.timedelta(days=1))
    assert not fee_paid(holder, "fusp-lv:2:2027", DAY)


def test_late_charges_only_with_the_agencys_act(world: Any, agency: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder, due=dt.date(2027, 1, 10))
    late_day = dt.date(2027, 3, 1)  # 50 days late: two months or part of one
    assert services.late_amount(charge, late_day)[0] == Decimal("0.00")
    agency(
        "recife",
        "billing.late_charges",
        dt.date(2027, 1, 1),
        {"penalty_percent": "2", "monthly_interest_percent": "1"},
        "Decreto nº 9/2027",
    )
    extra, why = services.late_amount(charge, late_day)
    assert extra == Decimal("2.00") and "Decreto nº 9/2027" in why  # 50 × (2% + 2 × 1%)
    with pytest.raises(ValidationError, match="diferente do devido"):
        services.record_payment(actor=None, charge=charge, paid_on=late_day, amount="50.00", reason="t")
    services.record_payment(actor=None, charge=charge, paid_on=late_day, amount="52.00", reason="t")
    assert Payment.objects.get().late_amount == Decimal("2.00")


def test_slip_has_the_pix_code_when_the_agency_recorded_its_key(world: Any, agency: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    slip = slips.charge_slip(charge, DAY)
    assert slip.pix_code == "" and "chave PIX" in slip.pix_missing
    agency(
        "recife",
        "billing.pix",
        dt.date(2026, 1, 1),
        {"key": "pix@cttu.recife.pe.gov.br", "beneficiary": "CTTU", "city": "Recife"},
    )
    slip = slips.charge_slip(charge, DAY)
    assert pix.is_valid(slip.pix_code) and charge.slip_code in slip.pix_code and "540550.00" in slip.pix_code
    assert slips.pdf(slip).startswith(b"%PDF")


def _csv(*lines: str) -> bytes:
    return ("data;valor;codigo;id_transacao\n" + "\n".join(lines) + "\n").encode()


def test_bank_import_reconciles_matched_partial_queued_and_duplicate_lines(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    a, b, c = _fee(holder), _fee(holder), _fee(holder, amount="30.00")
    content = _csv(
        f"16/03/2027;50,00;{a.slip_code};T1",
        f"16/03/2027;49,00;{b.slip_code};T2",  # value differs: a partial payment
        "16/03/2027;50,00;REC999999999999;T3",  # no such slip
        f"16/03/2027;50,00;{a.slip_code};T1",  # same credit twice in the file
    )
    report = bank.import_statement(
        actor=None, jurisdiction=world.a, filename="extrato.csv", content=content, reason="conciliação"
    ).report
    assert [r["linha"] for r in report["matched"]] == ["linha 2"]
    assert [r["linha"] for r in report["partial"]] == ["linha 3"]
    assert "faltam R$\xa01,00" in report["partial"][0]["motivo"]
    assert [r["linha"] for r in report["unmatched"]] == ["linha 4"]
    assert [r["linha"] for r in report["duplicates"]] == ["linha 5"]
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.paid_on == dt.date(2027, 3, 16) and b.paid_on is None
    assert b.payments.get().difference == Decimal("-1.00")
    with pytest.raises(ValidationError, match="já foi importado"):
        bank.import_statement(
            actor=None, jurisdiction=world.a, filename="extrato.csv", content=content, reason="de novo"
        )
    again = bank.import_statement(
        actor=None, jurisdiction=world.a, filename="outro.csv", content=content + b"\n", reason="de novo"
    ).report
    assert len(again["duplicates"]) == 4 and again["matched"] == []
    assert Payment.objects.count() == 2 and c.payments.count() == 0


def test_a_month_slip_is_paid_whole_by_one_credit(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    one, two = _fee(holder, due=dt.date(2027, 3, 10)), _fee(holder, due=dt.date(2027, 3, 20), amount="30.00")
    code = slips.month_code(holder, dt.date(2027, 3, 1))
    report = bank.import_statement(
        actor=None,
        jurisdiction=world.a,
        filename="x.csv",
        content=_csv(f"2027-03-09;80.00;{code};M1"),
        reason="t",
    ).report
    assert len(report["matched"]) == 1
    assert Charge.objects.filter(pk__in=[one.pk, two.pk], paid_on__isnull=False).count() == 2


def test_bad_statement_files_change_nothing(world: Any) -> None:
    with pytest.raises(ValidationError, match="não reconhecido"):
        bank.import_statement(
            actor=None, jurisdiction=world.a, filename="x.csv", content=b"a;b\n1;2\n", reason="t"
        )
    with pytest.raises(ValidationError, match="não é texto"):
        bank.import_statement(
            actor=None, jurisdiction=world.a, filename="x.csv", content=b"data\x00", reason="t"
        )
    with pytest.raises(ValidationError, match="Linha 2: valor inválido 'abc'"):
        bank.import_statement(
            actor=None,
            jurisdiction=world.a,
            filename="x.csv",
            content=_csv("16/03/2027;abc;XYZ;T5"),
            reason="t",
        )
    assert not Payment.objects.exists()


def test_other_jurisdictions_slips_do_not_match(world: Any) -> None:
    holder = world.objects["esteio"]["registry.holder"]
    charge = _fee(holder)
    report = bank.import_statement(
        actor=None,
        jurisdiction=world.a,
        filename="x.csv",
        content=_csv(f"16/03/2027;50,00;{charge.slip_code};E1"),
        reason="t",
    ).report
    assert report["matched"] == [] and len(report["unmatched"]) == 1


def test_counter_fees_from_the_engine_and_refusals(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    ad = services.issue_fee(
        actor=None, holder=holder, fee="advertising", on=DAY, months=3, reason="publicidade"
    )
    assert ad.amount == Decimal("30.00") and ad.fund == "mobility" and "VIII" in ad.citation
    with pytest.raises(ValidationError, match="não tem a taxa"):
        services.issue_fee(actor=None, holder=holder, fee="fusp_f", on=DAY, reason="x")
    esteio = world.objects["esteio"]["registry.holder"]
    with pytest.raises(ValidationError, match="não fixa o valor"):
        services.issue_fee(actor=None, holder=esteio, fee="management", on=DAY, reason="x")
    with pytest.raises(ValidationError, match="já paga"):
        services.record_payment(actor=None, charge=ad, paid_on=DAY, reason="x")
        services.record_payment(actor=None, charge=ad, paid_on=DAY, reason="x")


def test_pix_fields_give_back_the_transaction_id() -> None:
    code = pix.payload(
        key="k@x.br", beneficiary="Órgão", city="Maricá", amount=Decimal("10"), txid="MAR000000000042"
    )
    assert pix.txid(code) == "MAR000000000042" and pix.fields(code)["54"] == "10.00"
    assert pix.txid(BCB_EXAMPLE) == "***"
