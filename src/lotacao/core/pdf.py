"""Shared pieces of the product's PDF documents (WeasyPrint pages)."""

from __future__ import annotations

import segno


def qr_data_uri(url: str) -> str:
    """A QR code (segno) for `url`, as an SVG data URI an <img> of a PDF page can show."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))
