"""Reading a Pix BR Code (EMV MPM) in tests: its CRC16-CCITT, its top-level fields, and an amount
in R$ as a page writes it. Shared by the HTTP journey and the browser journey."""

from __future__ import annotations

import re
from decimal import Decimal


def crc16_ccitt(data: bytes) -> int:
    """CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as the BR Code's field 63 carries it."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def emv_fields(payload: str) -> dict[str, str]:
    """The top-level TLV fields of an EMV payload (id: two digits, length: two digits)."""
    fields: dict[str, str] = {}
    at = 0
    while at < len(payload):
        tag, size = payload[at : at + 2], int(payload[at + 2 : at + 4])
        fields[tag] = payload[at + 4 : at + 4 + size]
        assert len(fields[tag]) == size, f"campo {tag} truncado em {payload!r}"
        at += 4 + size
    return fields


def reais(text: str) -> Decimal:
    """ "R$ 1.234,56" -> Decimal("1234.56")."""
    found = re.search(r"R\$\s*([\d.]+,\d{2})", text)
    assert found, f"sem valor em R$ em {text!r}"
    return Decimal(found.group(1).replace(".", "").replace(",", "."))


def check_pix(payload: str, total: Decimal) -> dict[str, str]:
    """A valid Pix BR Code for `total`: its fields (26: the Pix key, 54: the amount, 62/05: txid)."""
    assert payload.startswith("000201"), payload
    assert payload[-8:-4] == "6304", payload
    assert f"{crc16_ccitt(payload[:-4].encode('utf-8')):04X}" == payload[-4:], payload
    fields = emv_fields(payload)
    assert fields["53"] == "986"  # BRL
    assert Decimal(fields["54"]) == total, (fields["54"], total)
    assert "BR.GOV.BCB.PIX" in fields["26"].upper()
    return fields


def txid(fields: dict[str, str]) -> str:
    """The transaction id (field 62, sub-field 05) the bank returns in its Pix notification."""
    return emv_fields(fields["62"])["05"]
