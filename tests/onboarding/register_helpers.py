"""Helpers of the register's tests: files written as an agency would, a jurisdiction made as
tests/conftest.py makes it."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from lotacao.core.models import Jurisdiction
from lotacao.onboarding.register.importer import import_register
from lotacao.onboarding.register.run import Report
from lotacao.onboarding.register.spec import BY_NAME

NAMES = {
    "recife": ("Recife", "CTTU", "PE", "America/Recife"),
    "esteio": ("Esteio", "SMOVT", "RS", "America/Sao_Paulo"),
}


def jurisdiction(code: str = "recife") -> Jurisdiction:
    name, official, state, zone = NAMES[code]
    found, _ = Jurisdiction.objects.get_or_create(
        code=code, defaults={"name": name, "official_name": official, "state": state, "timezone": zone}
    )
    return found


def write(
    directory: Path,
    kind: str,
    rows: list[dict[str, str]],
    *,
    headers: list[str] | None = None,
    delimiter: str = ";",
) -> Path:
    """A CSV of `kind` with the columns of its rows (by header), as a spreadsheet saves it."""
    spec = BY_NAME[kind]
    if headers is None:
        used = {h for row in rows for h in row}
        headers = [c.header for c in spec.columns if c.header in used]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{kind}.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(headers)
        for row in rows:
            writer.writerow([row.get(h, "") for h in headers])
    return path


def run(directory: Path, code: str = "recife", **kwargs: Any) -> Report:
    return import_register(
        jurisdiction=jurisdiction(code), directory=directory, actor=kwargs.pop("actor", None), **kwargs
    )


def messages(report: Report) -> list[str]:
    return [str(p) for p in report.errors]
