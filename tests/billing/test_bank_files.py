"""Bank files (issue 20, item 4): OFX written by ofxtools, CNAB 240 returns (T/U) and statements
(E) and Bradesco's CNAB 400 return built by position in `bankfiles.py`; matching by the slip
code, refusals of files and credits already imported, the reconciliation queue, partial and
over-payments, bad files refused with the line named and nothing saved."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from lotacao.audit.models import AuditEvent
from lotacao.billing.ledger import services
from lotacao.billing.ledger.models import Charge, Payment
from lotacao.billing.payments import bank, reconcile, statements
from lotacao.billing.payments.models import BankImport, ReconciliationItem
from tests.billing import bankfiles as bf

DAY = dt.date(2027, 3, 16)


def _fee(holder: Any, amount: str = "50.00") -> Charge:
    return services.issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Taxa de recadastramento",
        amount=amount,
        due_on=dt.date(2027, 3, 20),
        reason="t",
    )


def _import(world: Any, content: bytes | str, name: str = "arquivo") -> dict[str, Any]:
    data = content.encode("latin-1") if isinstance(content, str) else content
    return bank.import_statement(
        actor=None, jurisdiction=world.a, filename=name, content=data, reason="conciliação"
    ).report


def _nothing_saved() -> None:
    assert not Payment.objects.exists() and not BankImport.objects.exists()
    assert not ReconciliationItem.objects.exists()


@pytest.mark.parametrize("version", [102, 220])
def test_an_ofx_credit_pays_its_charge_and_a_second_import_changes_nothing(world: Any, version: int) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    content = bf.ofx_file(
        [
            {"on": DAY, "amount": "50.00", "fitid": "F1", "memo": f"PIX RECEBIDO {charge.slip_code} FULANO"},
            {"on": DAY, "amount": "-12.00", "fitid": "F2", "memo": "TARIFA"},
            {"on": DAY, "amount": "30.00", "fitid": "F3", "memo": "DEPOSITO SEM IDENTIFICACAO"},
        ],
        version=version,
    )
    assert statements.detect(content) == "ofx"
    report = _import(world, content, "extrato.ofx")
    assert [r["codigo"] for r in report["matched"]] == [charge.slip_code]
    charge.refresh_from_db()
    assert charge.paid_on == DAY and charge.payments.get().bank_transaction == "ofx:56789:F1"
    assert report["ignored"] == [{"onde": "FITID F2", "motivo": "lançamento a débito"}]
    queued = ReconciliationItem.objects.get()
    assert queued.reason == "o crédito não traz o código de nenhuma guia" and queued.amount == Decimal(
        "30.00"
    )
    with pytest.raises(ValidationError, match="já foi importado"):
        _import(world, content, "extrato.ofx")
    # the same credits in another file (another day's export): duplicates by FITID, nothing new
    other = bf.ofx_file(
        [
            {"on": DAY, "amount": "50.00", "fitid": "F1", "memo": charge.slip_code},
            {"on": DAY, "amount": "30.00", "fitid": "F3"},
        ],
        version=version,
    )
    again = _import(world, other, "de-novo.ofx")
    assert len(again["duplicates"]) == 2 and again["matched"] == again["unmatched"] == []
    assert Payment.objects.count() == 1 and ReconciliationItem.objects.count() == 1


def test_a_cnab240_return_pays_slips_and_ignores_what_is_not_a_liquidation(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    a, b = _fee(holder), _fee(holder, "30.00")
    details = [
        bf.segment_t(1, code=a.slip_code, our_number="00000000000000000042", amount="50.00"),
        bf.segment_u(2, paid="50.00", on=DAY),
        bf.segment_t(3, code=b.slip_code, our_number="00000000000000000043", amount="30.00", movement="02"),
        bf.segment_u(4, paid="0", on=DAY, movement="02"),
        bf.segment_t(5, code="REC999999999999", our_number="00000000000000000044", amount="10.00"),
        bf.segment_u(6, paid="10.00", on=DAY),
    ]
    content = bf.cnab240_file([("01", details)])
    assert all(len(line) == 240 for line in content.splitlines())
    report = _import(world, content, "retorno.ret")
    assert [r["linha"] for r in report["matched"]] == ["linhas 3–4"]
    assert report["ignored"] == [{"onde": "linhas 5–6", "motivo": "movimento 02: não é liquidação"}]
    assert "nenhuma guia em aberto com o código REC999999999999" in report["unmatched"][0]["motivo"]
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.paid_on == DAY and b.paid_on is None
    assert a.payments.get().bank_transaction == f"cnab240:001:00000000000000000042:{DAY:%Y%m%d}"
    with pytest.raises(ValidationError, match="já foi importado"):
        _import(world, content, "retorno.ret")
    assert Payment.objects.count() == 1 and BankImport.objects.count() == 1


def test_partial_and_over_payments_are_recorded_with_the_difference(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    short, over = _fee(holder), _fee(holder)
    details = [
        bf.segment_t(1, code=short.slip_code, our_number="1", amount="50.00"),
        bf.segment_u(2, paid="20.00", on=DAY),
        bf.segment_t(3, code=over.slip_code, our_number="2", amount="50.00"),
        bf.segment_u(4, paid="55.00", on=DAY),
    ]
    report = _import(world, bf.cnab240_file([("01", details)]))
    short.refresh_from_db()
    over.refresh_from_db()
    assert short.paid_on is None and short.payments.get().difference == Decimal("-20.00") - Decimal("10.00")
    assert "faltam R$\xa030,00" in report["partial"][0]["motivo"]
    assert over.paid_on == DAY and over.payments.get().difference == Decimal("5.00")
    excess = ReconciliationItem.objects.get(kind=ReconciliationItem.Kind.EXCESS)
    assert excess.amount == Decimal("5.00") and "pago a maior" in excess.reason
    # the rest of the partial one, by a later credit, pays it whole
    rest = bf.cnab240_file(
        [
            (
                "01",
                [
                    bf.segment_t(1, code=short.slip_code, our_number="1", amount="50.00"),
                    bf.segment_u(2, paid="30.00", on=DAY + dt.timedelta(days=1)),
                ],
            )
        ]
    )
    assert len(_import(world, rest, "resto")["matched"]) == 1
    short.refresh_from_db()
    assert short.paid_on == DAY + dt.timedelta(days=1) and short.payments.count() == 2


def test_the_charge_page_shows_a_partial_payment_and_what_is_missing(world: Any, client: Any) -> None:
    charge = _fee(world.objects["recife"]["registry.holder"])
    details = [
        bf.segment_t(1, code=charge.slip_code, our_number="5", amount="50.00"),
        bf.segment_u(2, paid="20.00", on=DAY),
    ]
    _import(world, bf.cnab240_file([("01", details)]))
    client.force_login(world.users["atendente.recife"])
    page = client.get(f"/cobranca/{charge.pk}/").content.decode()
    assert "faltam R$\xa030,00" in page and "Extrato bancário" in page


def test_a_cnab240_statement_segment_e_reads_credits_only(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    details = [
        bf.segment_e(1, amount="50.00", on=DAY, history=f"PIX {charge.slip_code}", document="NSU000123"),
        bf.segment_e(2, amount="8.00", on=DAY, history="TARIFA", document="NSU000124", kind="D"),
    ]
    report = _import(world, bf.cnab240_file([("04", details)]))
    charge.refresh_from_db()
    assert charge.paid_on == DAY and len(report["matched"]) == 1
    assert report["ignored"] == [{"onde": "linha 4", "motivo": "lançamento a débito"}]


def test_a_cnab400_bradesco_return_pays_by_the_companys_control_number(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    content = bf.cnab400_file(
        [
            bf.bradesco_detail(code=charge.slip_code, our_number="000000000421", paid="50.00", on=DAY),
            bf.bradesco_detail(code="XYZ", our_number="000000000422", paid="9.00", on=DAY, occurrence="02"),
        ]
    )
    assert statements.detect(content.encode()) == "cnab400"
    report = _import(world, content)
    charge.refresh_from_db()
    assert charge.paid_on == DAY and len(report["matched"]) == 1
    assert report["ignored"][0]["motivo"] == "ocorrência 02: não é liquidação"
    broken = content.replace("000003\r\n", "000007\r\n", 1)
    with pytest.raises(ValidationError, match="Linha 3, posições 395–400: número sequencial 000007"):
        _import(world, broken, "outro")


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (
            lambda lines: [*lines[:3], lines[3][:180], *lines[4:]],
            "Linha 4: registro com 180 caracteres; o CNAB 240 exige 240",
        ),
        (lambda lines: lines[:-1], "sem o trailer de arquivo"),
        (lambda lines: [*lines[:2], *lines[4:]], "o trailer do lote informa 4 registros, mas o lote tem 2"),
        (lambda lines: [lines[0][:142] + "1" + lines[0][143:], *lines[1:]], "não é de retorno"),
        (
            lambda lines: [*lines[:3], lines[3][:77] + "00000000000ABCD" + lines[3][92:], *lines[4:]],
            "Linha 4, posições 78–92 (valor pago): esperado um número",
        ),
    ],
)
def test_a_bad_cnab240_is_refused_naming_the_line_and_nothing_is_saved(
    world: Any, mangle: Any, message: str
) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    good = bf.cnab240_file(
        [
            (
                "01",
                [
                    bf.segment_t(1, code=charge.slip_code, our_number="7", amount="50.00"),
                    bf.segment_u(2, paid="50.00", on=DAY),
                ],
            )
        ]
    )
    bad = "\r\n".join(mangle(good.split("\r\n")[:-1])) + "\r\n"
    with pytest.raises(ValidationError, match=re.escape(message)):
        _import(world, bad)
    _nothing_saved()
    charge.refresh_from_db()
    assert charge.paid_on is None


def test_unknown_formats_and_broken_ofx_are_refused(world: Any) -> None:
    with pytest.raises(ValidationError, match="Formato de arquivo não reconhecido"):
        _import(world, b"PDF? nada disso\n")
    with pytest.raises(ValidationError, match="Linha 1 com 239 caracteres"):
        _import(world, "0" * 239 + "\n")
    with pytest.raises(ValidationError, match="O arquivo OFX não pôde ser lido"):
        _import(world, b"OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS>")
    _nothing_saved()


def test_the_queue_assigns_a_credit_to_a_charge_or_dismisses_it_audited(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    _import(
        world,
        bf.ofx_file(
            [
                {"on": DAY, "amount": "50.00", "fitid": "Q1", "memo": "SEM CODIGO"},
                {"on": DAY, "amount": "7.00", "fitid": "Q2", "memo": "ENGANO"},
            ]
        ),
    )
    first, second = ReconciliationItem.objects.order_by("id")
    clerk = world.users["atendente.recife"]
    with pytest.raises(ValidationError, match="Nenhuma guia em aberto com o código REC000000009999"):
        reconcile.assign_credit(actor=clerk, item=first, slip_code="REC000000009999", reason="identificado")
    reconcile.assign_credit(
        actor=clerk, item=first, slip_code=charge.slip_code.lower(), reason="identificado"
    )
    charge.refresh_from_db()
    first.refresh_from_db()
    assert (
        charge.paid_on == DAY
        and first.status == ReconciliationItem.Status.ASSIGNED
        and first.charge == charge
    )
    with pytest.raises(ValidationError, match="já foi resolvido"):
        reconcile.dismiss_credit(actor=clerk, item=first, reason="engano do banco")
    with pytest.raises(ValidationError, match="motivo do descarte"):
        reconcile.dismiss_credit(actor=clerk, item=second, reason="")
    reconcile.dismiss_credit(actor=clerk, item=second, reason="devolvido ao pagador em 20/03")
    second.refresh_from_db()
    assert second.status == ReconciliationItem.Status.DISMISSED
    actions = set(
        AuditEvent.objects.filter(object_id__in=[str(first.pk), str(second.pk)]).values_list(
            "action", flat=True
        )
    )
    assert {"reconciliation.queued", "reconciliation.assigned", "reconciliation.dismissed"} <= actions


def test_the_queue_screens_assign_and_refuse_in_portuguese(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    _import(world, bf.ofx_file([{"on": DAY, "amount": "50.00", "fitid": "S1", "memo": "SEM CODIGO"}]))
    item = ReconciliationItem.objects.get()
    client.force_login(world.users["atendente.recife"])
    page = client.get("/cobranca/conciliacao/").content.decode()
    assert "o crédito não traz o código de nenhuma guia" in page
    url = f"/cobranca/conciliacao/{item.pk}/"
    refused = client.post(url, {"action": "assign", "slip_code": "XYZ", "reason": "x"}).content.decode()
    assert "Nenhuma guia em aberto com o código XYZ" in refused
    done = client.post(url, {"action": "assign", "slip_code": charge.slip_code, "reason": "identificado"})
    assert done.status_code == 302
    charge.refresh_from_db()
    assert charge.paid_on == DAY
    client.force_login(world.users["fiscal.recife"])
    assert client.post(url, {"action": "dismiss", "dismiss-reason": "tentativa"}).status_code == 403


def test_the_command_imports_a_file_and_prints_json(world: Any, tmp_path: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = _fee(holder)
    path = tmp_path / "retorno.ret"
    path.write_text(
        bf.cnab240_file(
            [
                (
                    "01",
                    [
                        bf.segment_t(1, code=charge.slip_code, our_number="9", amount="50.00"),
                        bf.segment_u(2, paid="50.00", on=DAY),
                    ],
                )
            ]
        )
    )
    out = StringIO()
    call_command("import_bank_file", str(path), "--jurisdiction", "recife", "--json", stdout=out)
    assert json.loads(out.getvalue())["matched"][0]["codigo"] == charge.slip_code
    with pytest.raises(CommandError, match="já foi importado"):
        call_command("import_bank_file", str(path), "--jurisdiction", "recife", stdout=StringIO())
