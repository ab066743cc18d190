"""Valid Brazilian identifiers from fixed seeds, for the demo data and the tests.

The check digits are real (python-stdnum validates each), so a seed always gives the same CPF,
CNPJ or RENAVAM and a second run of the demo finds the same rows.
"""

from __future__ import annotations

from stdnum.br import cnpj as stdnum_cnpj
from stdnum.br import cpf as stdnum_cpf


def sample_cpf(seed: int) -> str:
    """A valid CPF from a 9-digit seed (stdnum has no public helper for CPF check digits)."""
    digits = [int(d) for d in f"{seed:09d}"]
    for _ in range(2):
        total = sum(d * w for d, w in zip(digits, range(len(digits) + 1, 1, -1), strict=True))
        digits.append((total * 10) % 11 % 10)
    result = "".join(map(str, digits))
    stdnum_cpf.validate(result)
    return result


def sample_cnpj(seed: int) -> str:
    base = f"{seed % 10**8:08d}0001"
    return base + str(stdnum_cnpj.calc_check_digits(base))


def sample_renavam(seed: int) -> str:
    base = f"{seed:010d}"
    weights = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    total = sum(int(d) * w for d, w in zip(base, weights, strict=True))
    check = (total * 10) % 11
    return base + str(0 if check == 10 else check)
