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
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from PIL import Image, UnidentifiedImageError
from pypdf import PdfReader
from pypdf.errors import PyPdfError

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
