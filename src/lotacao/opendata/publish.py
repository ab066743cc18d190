"""The nightly generation of the catalogue's CSVs into storage (`ops/nightly.py`, job `open_data`).

Each dataset of each jurisdiction is written as UTF-8 CSV (comma, header row) to the default
storage under `dados-abertos/<jurisdição>/<conjunto>.csv`, replacing yesterday's, and recorded as a
`Distribution` with its date, rows, size and SHA-256 (what the catalogue shows). Before a file is
stored it is scanned: a CPF pattern, or the name of a natural person of the jurisdiction's
register, refuses that dataset (the job reports it; yesterday's file stays) — a last guard in
case a future column lets personal data in.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import re
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from lotacao.core.models import Jurisdiction
from lotacao.opendata.catalogue import Dataset, datasets_for
from lotacao.opendata.models import Distribution
from lotacao.registry.models import Person

CPF = re.compile(r"(?<![\d./-])(\d{3}\.\d{3}\.\d{3}-\d{2}|\d{11})(?![\d/-])")
FOLDER = "dados-abertos"


class PersonalData(Exception):
    """A CSV would carry a CPF or a person's name: it is not published."""


def path_of(code: str, slug: str) -> str:
    return f"{FOLDER}/{code}/{slug}.csv"


def render(rows: Any) -> tuple[bytes, int]:
    """The rows (dicts) as CSV bytes, and how many rows; an empty dataset is a header-less file."""
    out = io.StringIO()
    writer: csv.DictWriter[str] | None = None
    count = 0
    for row in rows:
        if writer is None:
            writer = csv.DictWriter(out, fieldnames=list(row), lineterminator="\n")
            writer.writeheader()
        writer.writerow(row)
        count += 1
    return out.getvalue().encode("utf-8"), count


def scan(code: str, text: str) -> None:
    """Refuse a CPF pattern or the full name of a natural person of the jurisdiction's register."""
    if CPF.search(text):
        raise PersonalData("um número no formato de CPF")
    folded = text.casefold()
    for name in Person.unscoped.filter(jurisdiction_id=code).values_list("full_name", flat=True).iterator():
        if name and len(name) > 5 and name.casefold() in folded:
            raise PersonalData("o nome de uma pessoa do cadastro")


def publish_one(code: str, dataset: Dataset, on: dt.date) -> Distribution:
    source = dataset.source()
    assert source is not None
    data, count = render(source(code, on))
    scan(code, data.decode("utf-8"))
    path = path_of(code, dataset.slug)
    if default_storage.exists(path):
        default_storage.delete(path)
    stored = default_storage.save(path, ContentFile(data))
    found, _ = Distribution.unscoped.update_or_create(
        jurisdiction_id=code,
        dataset=dataset.slug,
        defaults={
            "path": stored,
            "modified": timezone.now(),
            "rows": count,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        },
    )
    return found


def publish_all(on: dt.date) -> dict[str, Any]:
    """Every dataset of every jurisdiction; what was refused is reported, the rest goes on."""
    written, refused = 0, []
    for code in Jurisdiction.unscoped.order_by("code").values_list("code", flat=True):
        for dataset in datasets_for(code, on):
            try:
                publish_one(code, dataset, on)
            except PersonalData as error:
                refused.append(f"{code}/{dataset.slug}: {error}")
                continue
            written += 1
    return {"arquivos": written, "recusados": refused}
