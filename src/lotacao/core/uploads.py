"""Uploaded files are what they claim to be: a PDF parses as a PDF, an image's size is bounded.

The first bytes (magic numbers, `filetype`) say what a file claims to be; that is not enough: a
`%PDF` header followed by HTML, or a 30000×30000 PNG of a few kilobytes that decompresses to
gigabytes (a decompression bomb), passed. `check_content(file, content_type)` opens the claimed
format with a well-kept library — pypdf for PDFs (its cross-reference table and page tree), Pillow
for images, reading only the header for the pixel count, never the pixels — and raises a
Portuguese `ValidationError` otherwise.
"""

from __future__ import annotations

import logging
import time
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from PIL import Image, UnidentifiedImageError
from pypdf import PdfReader
from pypdf.errors import PyPdfError

T = TypeVar("T")

# 50 megapixels: an A4 page scanned at 600 dpi (4961 × 7016) is 35.
DEFAULT_MAX_PIXELS = 50_000_000


def max_pixels() -> int:
    """The largest image accepted, in pixels (setting LOTACAO_UPLOAD_MAX_PIXELS)."""
    return int(getattr(settings, "LOTACAO_UPLOAD_MAX_PIXELS", DEFAULT_MAX_PIXELS))


def _megapixels(pixels: int) -> str:
    if pixels < 100_000:
        return f"{pixels} pixels"
    return f"{pixels / 1_000_000:.1f}".replace(".", ",") + " megapixels"


def _check_pdf(file: Any, name: str) -> None:
    file.seek(0)
    # pypdf logs every repair it attempts on a broken file; the refusal below says it once.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(file, strict=False)
        pages = len(reader.pages)
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as error:
        raise ValidationError(
            f"O arquivo {name} começa como PDF mas não é um PDF válido: gere o PDF de novo "
            "(digitalize ou “salve como PDF”) e envie outra vez."
        ) from error
    finally:
        file.seek(0)
    if pages < 1:
        raise ValidationError(f"O PDF {name} não tem nenhuma página.")


def _check_image(file: Any, name: str) -> None:
    file.seek(0)
    limit = max_pixels()
    try:
        # open() reads the header only; the pixels are never decoded here.
        with Image.open(file) as image:
            width, height = image.size
            if width * height > limit:
                raise ValidationError(
                    f"A imagem {name} tem {width} × {height} pixels ({_megapixels(width * height)}); "
                    f"o limite é {_megapixels(limit)}. Envie uma versão em menor resolução."
                )
            image.verify()  # the chunks' checksums, still without decompressing the pixels
    except ValidationError:
        raise
    except Image.DecompressionBombError as error:  # Pillow's own bound, far above ours
        raise ValidationError(
            f"A imagem {name} tem pixels demais (mais que {_megapixels(limit)}): "
            "envie uma versão em menor resolução."
        ) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise ValidationError(
            f"O arquivo {name} não é uma imagem válida: exporte-a de novo em PNG ou JPEG."
        ) from error
    finally:
        file.seek(0)


def check_content(file: Any, content_type: str, name: str = "enviado") -> None:
    """Raise ValidationError unless `file` really is the `content_type` its first bytes claim."""
    if content_type == "application/pdf":
        _check_pdf(file, name)
    elif content_type.startswith("image/"):
        _check_image(file, name)


# --------------------------------------------------------------------------- archives and rows
#
# A zip of a few megabytes can hold gigabytes (a GTFS of 3.8 MB held a stop_times.txt of 1.5 GB
# and tied a worker until gunicorn killed it). Every archive a screen reads is opened with
# `open_zip`: the sizes its members declare (`ZipInfo.file_size`) are checked before anything is
# read, and each member is read in chunks, counted as it inflates (a forged header does not get
# past the count), with a row limit and a time limit. The limits are settings (bytes decompressed,
# rows, seconds, members); a refusal is a Portuguese `ValidationError` naming the file.

DEFAULT_MAX_UNZIPPED_BYTES = 256 * 1024 * 1024
DEFAULT_MAX_ROWS = 5_000_000
DEFAULT_MAX_MEMBERS = 200
DEFAULT_MAX_SECONDS = 20.0
CHUNK = 1 << 20


def max_unzipped_bytes() -> int:
    """LOTACAO_UPLOAD_MAX_UNZIPPED_BYTES: the most an uploaded archive may decompress to."""
    return int(getattr(settings, "LOTACAO_UPLOAD_MAX_UNZIPPED_BYTES", DEFAULT_MAX_UNZIPPED_BYTES))


def max_rows() -> int:
    """LOTACAO_UPLOAD_MAX_ROWS: the most lines an uploaded table (CSV, GTFS file) may have."""
    return int(getattr(settings, "LOTACAO_UPLOAD_MAX_ROWS", DEFAULT_MAX_ROWS))


def max_seconds() -> float:
    """LOTACAO_UPLOAD_MAX_SECONDS: the longest a request may spend unpacking an upload."""
    return float(getattr(settings, "LOTACAO_UPLOAD_MAX_SECONDS", DEFAULT_MAX_SECONDS))


def _size(n: int) -> str:
    if n >= 1024 * 1024 * 1024:
        return f"{n / (1024 ** 3):.1f}".replace(".", ",") + " GB"
    if n >= 1024 * 1024:
        return f"{n / (1024 ** 2):.1f}".replace(".", ",") + " MB"
    return f"{max(1, n // 1024)} KB"


def _too_big(name: str, member: str, size: int | None = None) -> ValidationError:
    declared = f" ({_size(size)} descompactado)" if size is not None else ""
    return ValidationError(
        f"O arquivo {name} é grande demais: {member}{declared} passa do limite de "
        f"{_size(max_unzipped_bytes())} descompactado. Envie um arquivo menor (por exemplo, só o "
        "período ou as linhas em vigor) ou peça ao suporte que importe este pelo terminal."
    )


def _too_many_rows(name: str, member: str) -> ValidationError:
    limit = f"{max_rows():,}".replace(",", ".")
    return ValidationError(
        f"O arquivo {name} tem linhas demais em {member}: o limite é {limit} linhas. "
        "Envie um arquivo menor ou peça ao suporte que o importe pelo terminal."
    )


def _too_slow(name: str) -> ValidationError:
    return ValidationError(
        f"A leitura do arquivo {name} passou do tempo limite de {max_seconds():.0f} segundos. "
        "Envie um arquivo menor ou peça ao suporte que o importe pelo terminal."
    )


class BoundedZip:
    """A zip archive read within the upload limits (see `open_zip`)."""

    def __init__(self, archive: zipfile.ZipFile, name: str) -> None:
        self.archive = archive
        self.name = name
        self.started = time.monotonic()
        self.total = 0

    def members(self) -> list[zipfile.ZipInfo]:
        return [info for info in self.archive.infolist() if not info.is_dir()]

    def check_declared(self) -> None:
        """Refuse by what the members declare, before reading any: their count and their sizes."""
        members = self.members()
        if len(members) > DEFAULT_MAX_MEMBERS:
            raise ValidationError(
                f"O arquivo {self.name} tem {len(members)} arquivos dentro; o limite é {DEFAULT_MAX_MEMBERS}."
            )
        limit = max_unzipped_bytes()
        for info in members:
            if info.file_size > limit:
                raise _too_big(self.name, info.filename, info.file_size)
        total = sum(info.file_size for info in members)
        if total > limit:
            largest = max(members, key=lambda info: info.file_size)
            raise _too_big(self.name, f"o conteúdo (o maior: {largest.filename})", total)

    def _chunks(self, info: zipfile.ZipInfo, limit: int | None) -> Iterator[bytes]:
        budget = max_unzipped_bytes() if limit is None else limit
        deadline = self.started + max_seconds()
        with self.archive.open(info) as member:
            while chunk := member.read(CHUNK):
                self.total += len(chunk)
                if self.total > budget:
                    raise _too_big(self.name, info.filename)
                if time.monotonic() > deadline:
                    raise _too_slow(self.name)
                yield chunk

    def read_limited(self, info: zipfile.ZipInfo, limit: int | None = None) -> bytes:
        """A member's bytes, counted as they inflate (all members read share one budget)."""
        return b"".join(self._chunks(info, limit))

    def extract_flat(self, folder: Path, suffixes: tuple[str, ...] = (".txt",)) -> list[str]:
        """Write the members ending in `suffixes` into `folder` by their base name (a GTFS zipped
        inside a folder reads the same), within the limits of bytes, rows and time; the names."""
        written: list[str] = []
        rows_limit = max_rows()
        for info in self.members():
            base = Path(info.filename).name
            if not base.lower().endswith(suffixes) or base.startswith("."):
                continue
            rows = 0
            with (folder / base).open("wb") as out:
                for chunk in self._chunks(info, None):
                    rows += chunk.count(b"\n")
                    if rows > rows_limit + 1:  # the header line does not count
                        raise _too_many_rows(self.name, base)
                    out.write(chunk)
            written.append(base)
        return written


@contextmanager
def open_zip(file: Any, name: str = "enviado") -> Iterator[BoundedZip]:
    """An uploaded zip (a path or a file object) as a `BoundedZip`; not a zip → ValidationError."""
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise ValidationError(f"O arquivo {name} não é um arquivo .zip válido.") from error
    try:
        yield BoundedZip(archive, name)
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise ValidationError(f"O arquivo {name} está corrompido: gere o .zip de novo.") from error
    finally:
        archive.close()


def bounded_lines(lines: Iterable[T], *, name: str, limit: int | None = None) -> Iterator[T]:
    """The lines (or rows) of an uploaded table, refused past `limit` (LOTACAO_UPLOAD_MAX_ROWS)."""
    most = max_rows() if limit is None else limit
    for count, line in enumerate(lines, start=1):
        if count > most:
            raise _too_many_rows(name, "a tabela")
        yield line
