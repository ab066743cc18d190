"""The ODS of a list is written row by row (core.exports._ods) and read by an independent reader
(odfpy, through tablib): headers, text with XML's special characters, numbers and money."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import tablib

from lotacao.core import exports
from lotacao.core.exports import Column


def test_the_streamed_ods_reads_back_with_odfpy() -> None:
    columns = [
        Column("Nome", lambda r: r[0]),
        Column("Valor (R$)", lambda r: r[1]),
        Column("Lugares", lambda r: r[2]),
    ]
    items: list[tuple[Any, ...]] = [
        ('Ação & <Cia> "Norte"\x01', 25.5, 16),
        ("", 1234.56, None),
    ]
    data = exports._ods([c.header for c in columns], columns, items, "Veículos & cia")
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        first = package.infolist()[0]
        assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
        assert package.read("mimetype") == b"application/vnd.oasis.opendocument.spreadsheet"
    sheet = tablib.Dataset().load(io.BytesIO(data), format="ods")
    assert sheet.title == "Veículos & cia"
    assert sheet.headers == ["Nome", "Valor (R$)", "Lugares"]
    assert list(sheet) == [('Ação & <Cia> "Norte"', 25.5, 16), ("", 1234.56, "")]
