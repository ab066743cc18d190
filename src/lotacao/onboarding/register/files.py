"""Reading and writing the register's files with tablib (CSV, XLSX, ODS)."""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import hashlib
import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import tablib

from lotacao.core.validators import format_document
from lotacao.onboarding.register.spec import DATE, DATETIME, FORMATS, KINDS, MONEY, Column, Kind

DOCUMENT_COLUMNS = frozenset({"cpf", "cnpj", "document", "holder_document", "agent_cpf", "owner_document"})


class FileError(Exception):
    """A file that cannot be read at all (its message is in Portuguese)."""


def find_file(directory: Path, kind: Kind) -> Path | None:
    """The kind's file in the folder (pessoas.csv, pessoas.xlsx or pessoas.ods); None if absent."""
    found = [
        directory / f"{kind.name}.{ext}" for ext in FORMATS if (directory / f"{kind.name}.{ext}").is_file()
    ]
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        raise FileError(f"Há mais de um arquivo de {kind.label} na pasta ({names}): deixe apenas um.")
    return found[0] if found else None


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cell_text(value: Any) -> str:
    """A cell as the text people typed (a spreadsheet's dates and numbers back to text)."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.strftime("%d/%m/%Y")
        return value.strftime("%d/%m/%Y %H:%M")
    if isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def read_rows(path: Path) -> tuple[list[str], Iterator[list[str]]]:
    """The header and the rows of a file, each cell as text. CSV is streamed (comma or semicolon,
    UTF-8 with or without BOM), XLSX too (openpyxl's read-only mode, the first sheet, as tablib
    reads it); ODS is loaded whole by tablib (odfpy has no streaming reader)."""
    ext = path.suffix.lstrip(".").lower()
    try:
        if ext == "csv":
            return _read_csv(path)
        if ext == "xlsx":
            return _read_xlsx(path)
        with path.open("rb") as handle:
            data = tablib.Dataset().load(handle.read(), format=ext)
    except FileError:
        raise
    except Exception as error:  # the library's many ways of failing on a broken file
        raise FileError(
            f"Não foi possível ler {path.name}: o arquivo não é um {ext.upper()} válido."
        ) from error
    headers = [cell_text(h) for h in (data.headers or [])]
    return headers, ([cell_text(c) for c in row] for row in data)


def _read_xlsx(path: Path) -> tuple[list[str], Iterator[list[str]]]:
    from openpyxl import load_workbook

    book = load_workbook(path, read_only=True, data_only=True)
    sheet = book.worksheets[0] if book.worksheets else None
    if sheet is None:
        book.close()
        return [], iter(())
    source = sheet.iter_rows(values_only=True)
    first = next(source, None)
    headers = [cell_text(h) for h in (first or ())]

    def rows() -> Iterator[list[str]]:
        try:
            for row in source:
                yield [cell_text(c) for c in row]
        except FileError:
            raise
        except Exception as error:  # a sheet broken past its header
            raise FileError(f"Não foi possível ler {path.name}: o arquivo não é um XLSX válido.") from error
        finally:
            book.close()

    return headers, rows()


def _read_csv(path: Path) -> tuple[list[str], Iterator[list[str]]]:
    handle = path.open("r", encoding="utf-8-sig", newline="")
    try:
        first = handle.readline()
    except UnicodeDecodeError as error:
        handle.close()
        raise FileError(f"{path.name} não está em UTF-8: salve a planilha como CSV UTF-8.") from error
    delimiter = ";" if first.count(";") > first.count(",") else ","
    headers = next(csv.reader([first], delimiter=delimiter), [])

    def rows() -> Iterator[list[str]]:
        try:
            for row in csv.reader(handle, delimiter=delimiter):
                yield [c.strip() for c in row]
        except UnicodeDecodeError as error:
            raise FileError(f"{path.name} não está em UTF-8: salve a planilha como CSV UTF-8.") from error
        finally:
            handle.close()

    return [h.strip() for h in headers], rows()


def text_for(column: Column, value: Any) -> str:
    """A stored value as the column's text (dates dd/mm/aaaa, money with a comma, choices by label)."""
    if value is None or value == "":
        return ""
    if column.name in DOCUMENT_COLUMNS:
        return format_document(value)
    if column.choices:
        if column.type == "bool":
            return "Sim" if value else "Não"
        return column.choices.get(str(value), str(value))
    if column.type == DATETIME and isinstance(value, dt.datetime):
        return value.strftime("%d/%m/%Y %H:%M")
    if column.type == DATE and isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    if column.type == MONEY and isinstance(value, decimal.Decimal):
        return f"{value:.2f}".replace(".", ",")
    return str(value)


def dataset(kind: Kind, rows: Iterable[dict[str, Any]]) -> tablib.Dataset:
    data = tablib.Dataset(headers=[c.header for c in kind.columns], title=kind.label[:31])
    for row in rows:
        data.append([text_for(c, row.get(c.name)) for c in kind.columns])
    return data


def template(kind: Kind) -> tablib.Dataset:
    """The blank file of a kind with its one example row."""
    data = tablib.Dataset(headers=[c.header for c in kind.columns], title=kind.label[:31])
    data.append([c.example for c in kind.columns])
    return data


def render(data: tablib.Dataset, fmt: str) -> bytes:
    if fmt not in FORMATS:
        raise FileError(f"Formato {fmt} não suportado: use csv, xlsx ou ods.")
    out = data.export(fmt)
    return out.encode("utf-8") if isinstance(out, str) else bytes(out)


def write_templates(directory: Path, fmt: str) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind in KINDS:
        path = directory / f"{kind.name}.{fmt}"
        path.write_bytes(render(template(kind), fmt))
        paths.append(path)
    return paths


def zip_bytes(files: dict[str, bytes]) -> bytes:
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()
