"""Brazilian identifiers, validated with well-kept libraries, with Portuguese messages."""

from __future__ import annotations

import re

from brutils import is_valid_license_plate, is_valid_renavam
from django.core.exceptions import ValidationError
from stdnum import exceptions as stdnum_errors
from stdnum.br import cnpj as stdnum_cnpj
from stdnum.br import cpf as stdnum_cpf

_REASONS = {
    stdnum_errors.InvalidChecksum: "dígito verificador não confere",
    stdnum_errors.InvalidLength: "deve ter {n} dígitos",
    stdnum_errors.InvalidFormat: "formato inválido",
    stdnum_errors.InvalidComponent: "número inválido",
}


def _reason(error: stdnum_errors.ValidationError, digits: int) -> str:
    for kind, text in _REASONS.items():
        if isinstance(error, kind):
            return text.format(n=digits)
    return "número inválido"


def normalize_cpf(value: str) -> str:
    """Return the 11 digits of a valid CPF, or raise ValidationError in Portuguese."""
    raw = (value or "").strip()
    try:
        return str(stdnum_cpf.validate(raw))
    except stdnum_errors.ValidationError as error:
        raise ValidationError(f"CPF {raw} inválido: {_reason(error, 11)}.", code="invalid_cpf") from error


def normalize_cnpj(value: str) -> str:
    raw = (value or "").strip()
    try:
        return str(stdnum_cnpj.validate(raw))
    except stdnum_errors.ValidationError as error:
        raise ValidationError(f"CNPJ {raw} inválido: {_reason(error, 14)}.", code="invalid_cnpj") from error


def format_cpf(digits: str) -> str:
    return str(stdnum_cpf.format(digits))


def format_cnpj(digits: str) -> str:
    return str(stdnum_cnpj.format(digits))



def format_document(value: object) -> str:
    """A CPF or CNPJ stored as digits, as people write it (000.000.000-00, 00.000.000/0000-00);
    anything else as it was."""
    digits = "".join(ch for ch in str(value or "") if ch.isdigit())
    if len(digits) == 11:
        return format_cpf(digits)
    if len(digits) == 14:
        return format_cnpj(digits)
    return str(value or "")

def mask_cpf(digits: str) -> str:
    """***.456.789-** — for screens that identify a person without showing the whole CPF."""
    return f"***.{digits[3:6]}.{digits[6:9]}-**" if len(digits) == 11 else "***"


_PLATE_SYMBOLS = re.compile(r"[\s\-]")


def normalize_plate(value: str) -> str:
    """ABC1234 (old format) or ABC1D23 (Mercosul), upper case without symbols."""
    raw = (value or "").strip()
    plate = _PLATE_SYMBOLS.sub("", raw).upper()
    if not is_valid_license_plate(plate):
        raise ValidationError(
            f"Placa {raw} inválida: use o formato antigo (ABC-1234) ou o Mercosul (ABC1D23).",
            code="invalid_plate",
        )
    return plate


def normalize_renavam(value: str) -> str:
    raw = (value or "").strip()
    digits = re.sub(r"\D", "", raw)
    if not is_valid_renavam(digits):
        raise ValidationError(
            f"RENAVAM {raw} inválido: dígito verificador não confere.", code="invalid_renavam"
        )
    return digits
