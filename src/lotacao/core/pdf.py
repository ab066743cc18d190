"""Shared pieces of the product's PDF documents (WeasyPrint pages), and the one place that renders
them (`render`): every PDF the system issues goes through it.

Every PDF is tagged (a structure tree, so a screen reader reads it in order) and declares the
page's language (`<html lang="pt-BR">`) and title (`<title>`): `render` refuses a page without
them. WeasyPrint writes one conformance variant per render (`pdf_variant`):

- ordinary documents: `pdf/ua-1` (PDF/UA-1, tagged, title shown by the viewer);
- documents meant to be kept — payment slips with Pix and certificates (`archival=True`):
  `pdf/a-3b` with `pdf_tags=True`, which keeps the tags; WeasyPrint's `xmp_metadata` option then
  adds the PDF/UA-1 identification (`pdfuaid:part`) beside the PDF/A-3b one, so the file is both.
  PDF/A-3b rather than 3a or 3u: 3b is what the agency keeps (visual fidelity, embedded fonts and
  the sRGB output intent); the accessibility 3a would add is what PDF/UA-1 already gives.
"""

from __future__ import annotations

from typing import Any

import segno

# The PDF/UA-1 identification, as an XMP packet's RDF (ISO 14289-1, 5): added next to WeasyPrint's
# own PDF/A identification when one render must be both.
PDFUA1_XMP = (
    b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    b'<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">'
    b"<pdfuaid:part>1</pdfuaid:part>"
    b"</rdf:Description></rdf:RDF>"
)
LANGUAGE = "pt-BR"


def qr_data_uri(url: str) -> str:
    """A QR code (segno) for `url`, as an SVG data URI an <img> of a PDF page can show."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


# DejaVu Sans Mono's advance width, in em (the monospace font of the PDF pages).
MONO_ADVANCE = 0.602
POINTS_PER_MM = 72 / 25.4


def one_line_pt(text: str, width_mm: float, *, largest: float = 9.0, smallest: float = 3.5) -> float:
    """The monospace font size (pt) that fits `text` on one line `width_mm` wide.

    A Pix "copia e cola" code must come out of the PDF as one unbroken run: any wrap becomes a line
    break in the copied text (and WeasyPrint wraps after its hyphens and spaces, even with
    `word-break: break-all`), so the code is printed with `white-space: nowrap` at this size."""
    if not text:
        return largest
    fit = width_mm * POINTS_PER_MM / (len(text) * MONO_ADVANCE)
    return max(smallest, min(largest, int(fit * 10) / 10))


def options(*, archival: bool) -> dict[str, Any]:
    """WeasyPrint's `write_pdf` options of one kind of document."""
    if archival:
        return {"pdf_variant": "pdf/a-3b", "pdf_tags": True}
    return {"pdf_variant": "pdf/ua-1"}


def render(
    html: str, *, archival: bool = False, base_url: str | None = None, uncompressed: bool = False
) -> bytes:
    """The PDF of an HTML page: tagged, in pt-BR, titled; PDF/A-3b as well when `archival`."""
    from weasyprint import HTML

    document = HTML(string=html, base_url=base_url).render(**options(archival=archival))
    metadata = document.metadata
    if metadata.lang != LANGUAGE:
        raise ValueError(f'A página do PDF precisa declarar <html lang="{LANGUAGE}">.')
    if not (metadata.title or "").strip():
        raise ValueError("A página do PDF precisa de um <title>.")
    if archival:
        metadata.xmp_metadata.append(PDFUA1_XMP)
    return bytes(document.write_pdf(uncompressed_pdf=uncompressed, **options(archival=archival)))
