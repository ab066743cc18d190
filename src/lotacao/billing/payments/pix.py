"""The PIX "copia e cola" payload (BR Code): EMV® QRCPS TLV fields with a CRC16-CCITT at the end,
as the Banco Central's "Manual de Padrões para Iniciação do Pix" specifies.

Written here rather than taken from a package: PyPI has no maintained BR Code *generator* (the
packages found are extractors or unmaintained); the format is a dozen fixed TLV fields, and the
CRC — the part easy to get wrong — comes from crcmod-plus (CRC-16/CCITT-FALSE: poly 0x1021,
init 0xFFFF, no reflection). The tests check the manual's published example payload, CRC included.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

import crcmod.predefined

_CRC16 = crcmod.predefined.mkCrcFun("crc-ccitt-false")
GUI = "br.gov.bcb.pix"
# Words a cut name does not end on.
CONNECTORS = {"de", "da", "do", "das", "dos", "e"}


def crc16(payload: str) -> str:
    return f"{_CRC16(payload.encode('utf-8')):04X}"


def _field(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"campo {tag} com mais de 99 caracteres")
    return f"{tag}{len(value):02d}{value}"


def _plain(text: str, limit: int) -> str:
    """ASCII, at most `limit` characters (names and cities go without accents), cut at a word's
    end: "Cabo de Santo Agostinho" in the city's 15 is "Cabo de Santo", not "Cabo de Santo A".
    Only a first word longer than `limit` is cut inside it (there is no shorter whole word)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    clean = re.sub(r"\s+", " ", ascii_text).strip()
    if len(clean) <= limit:
        return clean
    if " " not in clean[: limit + 1]:
        return clean[:limit]
    words = clean[: limit + 1].rsplit(" ", 1)[0].rstrip(" -,.;/").split(" ")
    while len(words) > 1 and words[-1].lower() in CONNECTORS:
        words.pop()  # "Secretaria Executiva de" reads as "Secretaria Executiva"
    return " ".join(words)


def txid_of(code: str) -> str:
    """A transaction id as the manual allows it: letters and digits, at most 25."""
    clean = re.sub(r"[^A-Za-z0-9]", "", code)[:25]
    return clean or "***"


def payload(
    *,
    key: str,
    beneficiary: str,
    city: str,
    amount: Decimal | None = None,
    txid: str = "***",
    description: str = "",
) -> str:
    """The BR Code of a static PIX charge (with amount and transaction id when given)."""
    account = _field("00", GUI) + _field("01", key.strip())
    if description:
        account += _field("02", _plain(description, 40))
    parts = [
        _field("00", "01"),
        _field("26", account),
        _field("52", "0000"),
        _field("53", "986"),
    ]
    if amount is not None:
        parts.append(_field("54", f"{amount:.2f}"))
    parts += [
        _field("58", "BR"),
        _field("59", _plain(beneficiary, 25)),
        _field("60", _plain(city, 15)),
        _field("62", _field("05", txid_of(txid) if txid != "***" else "***")),
    ]
    body = "".join(parts) + "6304"
    return body + crc16(body)


def is_valid(code: str) -> bool:
    """Whether a payload's last four characters are the CRC of the rest."""
    return len(code) > 8 and code[-8:-4] == "6304" and crc16(code[:-4]) == code[-4:].upper()


def fields(code: str) -> dict[str, str]:
    """The top-level TLV fields of a payload (tag → value); nested templates stay as text."""
    out: dict[str, str] = {}
    i = 0
    while i + 4 <= len(code):
        tag, size = code[i : i + 2], int(code[i + 2 : i + 4])
        out[tag] = code[i + 4 : i + 4 + size]
        i += 4 + size
    return out


def txid(code: str) -> str:
    """The transaction id (field 62, subfield 05) a payer's bank returns with the credit."""
    return fields(fields(code).get("62", "")).get("05", "")
