"""Bank files built in the tests, independently of the code that reads them.

CNAB: a small fixed-width writer that places each field at the positions the published layouts
give (FEBRABAN CNAB 240 v10.x: file header, batch header, segments T and U of the collection
return, segment E of the statement for bank reconciliation, batch and file trailers; Bradesco's
CNAB 400 collection return). No CNAB writer on PyPI writes returns: `febraban` 0.11 does not
build (its sdist lacks README.md), `pycnab240` writes only payment remittances (segments A/B/J/N,
its "E" is Itaú's payslip segment), `python-cnab` is the same project's older cut.

OFX: written by ofxtools' own models and header (SGML 1.x and XML 2.x), not by our reader.
"""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from decimal import Decimal


def record(width: int, fields: dict[tuple[int, int], str | int]) -> str:
    """A fixed-width record: {(start, end): value}, 1-based inclusive; numbers right-aligned with
    zeros, text left-aligned with spaces; the rest blank."""
    line = [" "] * width
    for (start, end), value in fields.items():
        size = end - start + 1
        text = str(value).rjust(size, "0") if isinstance(value, int) else str(value).ljust(size)
        assert len(text) == size, (start, end, value)
        line[start - 1 : end] = list(text)
    return "".join(line)


def cents(value: str | Decimal) -> int:
    return int(Decimal(value) * 100)


def ddmmyyyy(day: dt.date) -> str:
    return day.strftime("%d%m%Y")


# ----------------------------------------------------------------------------- CNAB 240


def cnab240_file(batches: list[tuple[str, list[str]]], bank: str = "001", kind: str = "2") -> str:
    """A CNAB 240 file: batches of (service, detail records); counts in the trailers."""
    lines = [
        record(
            240,
            {
                (1, 3): bank,
                (4, 7): 0,
                (8, 8): "0",
                (18, 18): "2",
                (19, 32): 11222333000181,
                (73, 102): "ORGAO GESTOR",
                (103, 132): "BANCO",
                (143, 143): kind,
                (144, 151): "16032027",
                (152, 157): 101500,
                (158, 163): 1,
                (164, 166): 103,
            },
        )
    ]
    for n, (service, details) in enumerate(batches, start=1):
        lines.append(
            record(
                240,
                {
                    (1, 3): bank,
                    (4, 7): n,
                    (8, 8): "1",
                    (9, 9): "T" if service == "01" else "E",
                    (10, 11): service,
                    (14, 16): 60 if service == "01" else 33,
                },
            )
        )
        lines += [d[:3].replace("BBB", bank) + d[3:7].replace("LLLL", f"{n:04d}") + d[7:] for d in details]
        lines.append(record(240, {(1, 3): bank, (4, 7): n, (8, 8): "5", (18, 23): len(details) + 2}))
    lines.append(
        record(
            240, {(1, 3): bank, (4, 7): 9999, (8, 8): "9", (18, 23): len(batches), (24, 29): len(lines) + 1}
        )
    )
    return "\r\n".join(lines) + "\r\n"


def segment_t(
    seq: int, *, code: str, our_number: str, amount: str, movement: str = "06", payer: str = "FULANO DE TAL"
) -> str:
    return record(
        240,
        {
            (1, 3): "BBB",
            (4, 7): "LLLL",
            (8, 8): "3",
            (9, 13): seq,
            (14, 14): "T",
            (16, 17): movement,
            (18, 22): 1234,
            (24, 35): 56789,
            (38, 57): our_number,
            (58, 58): "1",
            (59, 73): code,
            (74, 81): "15032027",
            (82, 96): cents(amount),
            (97, 99): 1,
            (106, 130): code,
            (131, 132): 9,
            (133, 133): "1",
            (134, 148): 12345678909,
            (149, 188): payer,
        },
    )


def segment_u(seq: int, *, paid: str, on: dt.date, movement: str = "06") -> str:
    return record(
        240,
        {
            (1, 3): "BBB",
            (4, 7): "LLLL",
            (8, 8): "3",
            (9, 13): seq,
            (14, 14): "U",
            (16, 17): movement,
            (18, 32): 0,
            (78, 92): cents(paid),
            (93, 107): cents(paid),
            (138, 145): ddmmyyyy(on),
            (146, 153): ddmmyyyy(on + dt.timedelta(days=1)),
        },
    )


def segment_e(seq: int, *, amount: str, on: dt.date, history: str, document: str, kind: str = "C") -> str:
    return record(
        240,
        {
            (1, 3): "BBB",
            (4, 7): "LLLL",
            (8, 8): "3",
            (9, 13): seq,
            (14, 14): "E",
            (18, 18): "2",
            (19, 32): 11222333000181,
            (53, 57): 1234,
            (59, 70): 56789,
            (73, 102): "ORGAO GESTOR",
            (109, 111): "DPV",
            (112, 113): 1,
            (114, 133): history[:20],
            (135, 142): ddmmyyyy(on),
            (143, 150): ddmmyyyy(on),
            (151, 168): cents(amount),
            (169, 169): kind,
            (170, 172): 202 if kind == "C" else 105,
            (173, 176): "0110",
            (177, 201): history[:25],
            (202, 240): document,
        },
    )


# ----------------------------------------------------------------------------- CNAB 400 (Bradesco)


def cnab400_file(details: list[dict[tuple[int, int], str | int]]) -> str:
    lines = [
        record(
            400,
            {
                (1, 1): "0",
                (2, 2): "2",
                (3, 9): "RETORNO",
                (10, 11): 1,
                (12, 26): "COBRANCA",
                (27, 46): 4321,
                (47, 76): "ORGAO GESTOR",
                (77, 79): "237",
                (80, 94): "BRADESCO",
                (95, 100): "160327",
                (395, 400): 1,
            },
        )
    ]
    for n, fields in enumerate(details, start=2):
        lines.append(record(400, {**fields, (1, 1): "1", (395, 400): n}))
    lines.append(
        record(400, {(1, 1): "9", (2, 2): "2", (3, 4): 1, (5, 7): "237", (395, 400): len(lines) + 1})
    )
    return "\r\n".join(lines) + "\r\n"


def bradesco_detail(
    *, code: str, our_number: str, paid: str, on: dt.date, occurrence: str = "06"
) -> dict[tuple[int, int], str | int]:
    return {
        (2, 3): 2,
        (4, 17): 11222333000181,
        (38, 62): code,
        (71, 82): our_number,
        (108, 108): "9",
        (109, 110): occurrence,
        (111, 116): on.strftime("%d%m%y"),
        (117, 126): code[-10:],
        (127, 146): our_number,
        (147, 152): "150327",
        (153, 165): cents(paid),
        (166, 168): 237,
        (254, 266): cents(paid),
        (296, 301): on.strftime("%d%m%y"),
    }


# ----------------------------------------------------------------------------- OFX (ofxtools)


def ofx_file(transactions: list[dict[str, object]], version: int = 102) -> bytes:
    """An OFX bank statement written by ofxtools: version 102 (SGML) or 220 (XML)."""
    from ofxtools.header import make_header
    from ofxtools.models import (
        BANKACCTFROM,
        BANKMSGSRSV1,
        BANKTRANLIST,
        LEDGERBAL,
        OFX,
        SIGNONMSGSRSV1,
        SONRS,
        STATUS,
        STMTRS,
        STMTTRN,
        STMTTRNRS,
    )
    from ofxtools.utils import UTC

    trns = [
        STMTTRN(
            trntype="CREDIT" if Decimal(str(t["amount"])) > 0 else "DEBIT",
            dtposted=dt.datetime.combine(t["on"], dt.time(12), tzinfo=UTC),  # type: ignore[arg-type]
            trnamt=Decimal(str(t["amount"])),
            fitid=str(t["fitid"]),
            name=str(t.get("name", "PIX RECEBIDO"))[:32],
            memo=str(t.get("memo", "")) or None,
        )
        for t in transactions
    ]
    start = dt.datetime(2027, 3, 1, tzinfo=UTC)
    end = dt.datetime(2027, 3, 31, tzinfo=UTC)
    stmtrs = STMTRS(
        curdef="BRL",
        bankacctfrom=BANKACCTFROM(bankid="001", acctid="56789", accttype="CHECKING"),
        banktranlist=BANKTRANLIST(*trns, dtstart=start, dtend=end),
        ledgerbal=LEDGERBAL(balamt=Decimal("0"), dtasof=end),
    )
    ofx = OFX(
        signonmsgsrsv1=SIGNONMSGSRSV1(
            sonrs=SONRS(status=STATUS(code=0, severity="INFO"), dtserver=end, language="POR")
        ),
        bankmsgsrsv1=BANKMSGSRSV1(
            STMTTRNRS(trnuid="1", status=STATUS(code=0, severity="INFO"), stmtrs=stmtrs)
        ),
    )
    body = ET.tostring(ofx.to_etree()).decode()
    return (str(make_header(version=version)) + body).encode()
