"""Lists as spreadsheets: CSV, XLSX and ODS, in Portuguese (issue 20, item 5).

One piece for every list of the system. A list declares its columns (`Column`: the Portuguese
header and how to read the value from a row) and hands over the queryset its page shows — the
list's own, already filtered and scoped by the tenant managers, never a second query. This module
turns it into a file:

- `?formato=csv|xlsx|ods` chooses the format (`requested_format`); any other value is refused with
  a Portuguese 400 (`BadFormat`, `refusal`);
- values as people read them (`cell`): dates dd/mm/aaaa (moments with hh:mm, local time), Sim/Não,
  money as a number (a header names the unit, "Valor (R$)"), a status in words (the accessor reads
  `get_FOO_display` or the list's phrase tables), a row's related record by its name;
- CSV is UTF-8 with BOM, `;` and decimal commas (what Excel opens in Brazil), streamed in chunks;
  XLSX is written by openpyxl in write-only mode; ODS row by row into a temporary file (`_ods`);
- rows are read with `iterator()` in chunks, so a large list never sits in memory as models;
- the file name is Portuguese with the day: `permissoes-2026-12-01.xlsx`.

Auditing an export of personal data belongs to the audit layer (`lotacao.audit.exports`), which
calls this module.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode
from xml.sax.saxutils import escape, quoteattr

from django.db import models
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone

from lotacao.core.formats import br_date
from lotacao.core.tenancy import Scope, current_scope, scoped

PARAM = "formato"
FORMATS: dict[str, tuple[str, str]] = {  # format -> (label on the page, content type)
    "csv": ("CSV", "text/csv; charset=utf-8"),
    "xlsx": ("XLSX", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    "ods": ("ODS", "application/vnd.oasis.opendocument.spreadsheet"),
}
CHUNK = 2000


class BadFormat(ValueError):
    """A `formato` the exports do not write (its message is the Portuguese refusal)."""


@dataclass(frozen=True)
class Column:
    """A column of an exported list: its Portuguese header and how to read it from a row.

    `value` is an attribute path ("holder.company.cnpj_display"; a field with choices reads as its
    display, as on the screens) or a function of the row."""

    header: str
    value: str | Callable[[Any], Any]

    def read(self, obj: Any) -> Any:
        if callable(self.value):
            return self.value(obj)
        return read(obj, self.value)


def read(obj: Any, path: str) -> Any:
    """Follow a dotted attribute path; a field with choices gives its words (get_FOO_display)."""
    value = obj
    for part in path.split("."):
        if value is None:
            return None
        display = getattr(value, f"get_{part}_display", None)
        value = display() if callable(display) else getattr(value, part)
        if callable(value) and part == "__str__":
            value = value()
    return value


def requested_format(request: HttpRequest) -> str | None:
    """The format asked for (None: the page itself); a format the system does not write raises."""
    if PARAM not in request.GET:
        return None
    wanted = request.GET.get(PARAM, "").strip().lower()
    if wanted not in FORMATS:
        raise BadFormat(
            f"Formato de exportação desconhecido: “{request.GET.get(PARAM, '')[:20]}”. "
            "Escolha CSV, XLSX ou ODS."
        )
    return wanted


def refusal(error: BadFormat) -> HttpResponse:
    """The Portuguese 400 for a bad format (a short page, like the other bad requests)."""
    from django.utils.html import escape

    page = (
        '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">'
        "<title>Exportação recusada</title></head><body><h1>Exportação recusada</h1>"
        f'<p>{escape(str(error))}</p><p><a href="javascript:history.back()">Voltar à lista</a></p>'
        "</body></html>"
    )
    return HttpResponse(page, status=400, content_type="text/html; charset=utf-8")


def links(request: HttpRequest) -> list[tuple[str, str]]:
    """The "Exportar: CSV · XLSX · ODS" links of a list: the page's own filters, without its page
    number, plus the format."""
    params = [(k, v) for k, v in request.GET.items() if k not in (PARAM, "pagina")]
    return [(label, "?" + urlencode([*params, (PARAM, fmt)])) for fmt, (label, _) in FORMATS.items()]


def filters_of(request: HttpRequest) -> dict[str, str]:
    """The filters an export carried (for its audit record): every query parameter but the format."""
    return {k: str(request.GET.get(k, ""))[:100] for k in request.GET if k not in (PARAM, "pagina")}


def cell(value: Any, fmt: str) -> Any:
    """A value as people read it, in the type the format keeps (numbers stay numbers)."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, dt.datetime):
        moment = timezone.localtime(value) if timezone.is_aware(value) else value
        return f"{br_date(moment.date())} {moment:%H:%M}"
    if isinstance(value, dt.date):
        return br_date(value)
    if isinstance(value, Decimal):
        if fmt == "csv":
            return f"{value:.2f}".replace(".", ",")
        return float(value)
    if isinstance(value, int | float):
        return value if fmt != "csv" else str(value).replace(".", ",")
    return str(value)


def rows(columns: list[Column], objects: Iterable[Any], fmt: str) -> Iterator[list[Any]]:
    for obj in objects:
        yield [cell(column.read(obj), fmt) for column in columns]


def iterate(objects: models.QuerySet[Any] | Iterable[Any]) -> Iterable[Any]:
    """A queryset read in chunks (no cache of every model); a list as it is."""
    if isinstance(objects, models.QuerySet):
        return objects.iterator(chunk_size=CHUNK)
    return objects


def filename(stem: str, fmt: str, on: dt.date | None = None) -> str:
    day = on or timezone.localdate()
    return f"{stem}-{day:%Y-%m-%d}.{fmt}"


def response(
    *,
    columns: list[Column],
    objects: models.QuerySet[Any] | Iterable[Any],
    fmt: str,
    stem: str,
    sheet: str,
) -> HttpResponseBase:
    """The file of a list: `stem` names the file (Portuguese, no accents), `sheet` the tab."""
    if fmt not in FORMATS:
        raise BadFormat(f"Formato de exportação desconhecido: “{fmt}”. Escolha CSV, XLSX ou ODS.")
    headers = [c.header for c in columns]
    content_type = FORMATS[fmt][1]
    answer: HttpResponseBase
    if fmt == "csv":
        answer = StreamingHttpResponse(_csv_chunks(headers, columns, objects), content_type=content_type)
    elif fmt == "xlsx":
        answer = HttpResponse(_xlsx(headers, columns, objects, sheet), content_type=content_type)
    else:
        answer = HttpResponse(_ods(headers, columns, objects, sheet), content_type=content_type)
    answer["Content-Disposition"] = f'attachment; filename="{filename(stem, fmt)}"'
    answer["Cache-Control"] = "private, no-store"
    return answer


def _csv_chunks(headers: list[str], columns: list[Column], objects: Any) -> Iterator[bytes]:
    """CSV in chunks of rows; each chunk is read under the scope of the request that asked for it
    (a streamed body is read after the view returned, when the middleware has left its scope)."""
    scope = current_scope()
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(headers)
    yield ("\ufeff" + out.getvalue()).encode("utf-8")
    source = iter(iterate(objects))
    while True:
        out.seek(0)
        out.truncate()
        count = 0
        with _maybe_scoped(scope):
            for obj in source:
                writer.writerow([cell(c.read(obj), "csv") for c in columns])
                count += 1
                if count >= CHUNK:
                    break
        if count:
            yield out.getvalue().encode("utf-8")
        if count < CHUNK:
            return


def _maybe_scoped(scope: Scope | None) -> AbstractContextManager[Any]:
    if scope is not None and current_scope() is None:
        return scoped(scope)
    return nullcontext()


def _xlsx(headers: list[str], columns: list[Column], objects: Any, sheet: str) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    book = Workbook(write_only=True)
    tab = book.create_sheet(title=sheet[:31])
    bold = Font(bold=True)
    top = []
    for header in headers:
        c = WriteOnlyCell(tab, value=header)
        c.font = bold
        top.append(c)
    tab.append(top)
    money = [i for i, h in enumerate(headers) if "(R$)" in h]
    for values in rows(columns, iterate(objects), "xlsx"):
        if money:
            line: list[Any] = []
            for i, value in enumerate(values):
                c = WriteOnlyCell(tab, value=value)
                if i in money and isinstance(value, float):
                    c.number_format = "#,##0.00"
                line.append(c)
            tab.append(line)
        else:
            tab.append(values)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# ODS: the libraries that write it (odfpy through tablib, odswriter, pyexcel-ods) all build the
# whole document in memory — 100,000 rows took 860 MiB more (bench/bench_exports.py). An ODS file
# is a zip of a few XML parts (OpenDocument 1.2, part 3 "Packages"; part 1 §9 tables); its
# content.xml is written here row by row into a temporary file, as openpyxl's write-only mode does
# for XLSX, so memory stays that of one row. Read back by odfpy (tablib) in the tests.
_ODS_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"'
)
_ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"
_ODS_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
    'manifest:version="1.2">'
    f'<manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="{_ODS_MIME}"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)
_ODS_STYLES = (
    "<office:automatic-styles>"
    '<number:number-style style:name="N2"><number:number number:decimal-places="2" '
    'number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/>'
    "</number:number-style>"
    '<style:style style:name="cabecalho" style:family="table-cell">'
    '<style:text-properties fo:font-weight="bold"/></style:style>'
    '<style:style style:name="moeda" style:family="table-cell" style:data-style-name="N2"/>'
    "</office:automatic-styles>"
)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _ods_text(value: Any) -> str:
    return escape(_NOT_XML.sub("", str(value)))


def _ods_cell(value: Any, style: str = "") -> str:
    styled = f' table:style-name="{style}"' if style else ""
    if value is None or value == "":
        return "<table:table-cell/>"
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = repr(float(value)) if isinstance(value, float) else str(value)
        return (
            f'<table:table-cell{styled} office:value-type="float" office:value="{number}">'
            f"<text:p>{number}</text:p></table:table-cell>"
        )
    return (
        f'<table:table-cell{styled} office:value-type="string">'
        f"<text:p>{_ods_text(value)}</text:p></table:table-cell>"
    )


def _ods(headers: list[str], columns: list[Column], objects: Any, sheet: str) -> bytes:
    money = {i for i, h in enumerate(headers) if "(R$)" in h}
    with tempfile.TemporaryFile() as handle:
        with zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as package:
            package.writestr(zipfile.ZipInfo("mimetype"), _ODS_MIME, compress_type=zipfile.ZIP_STORED)
            package.writestr("META-INF/manifest.xml", _ODS_MANIFEST)
            with package.open("content.xml", "w") as raw, io.TextIOWrapper(raw, encoding="utf-8") as out:
                out.write(
                    f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_ODS_NS} '
                    f'office:version="1.2">{_ODS_STYLES}<office:body><office:spreadsheet>'
                    f"<table:table table:name={quoteattr(_NOT_XML.sub('', sheet[:31]))}>"
                    f'<table:table-column table:number-columns-repeated="{max(len(headers), 1)}"/>'
                )
                out.write("<table:table-row>")
                out.write("".join(_ods_cell(h, "cabecalho") for h in headers))
                out.write("</table:table-row>")
                for values in rows(columns, iterate(objects), "ods"):
                    out.write("<table:table-row>")
                    out.write(
                        "".join(
                            _ods_cell(v, "moeda" if i in money and isinstance(v, float) else "")
                            for i, v in enumerate(values)
                        )
                    )
                    out.write("</table:table-row>")
                out.write("</table:table></office:spreadsheet></office:body></office:document-content>")
        handle.seek(0)
        return handle.read()
