"""Reading councils: what the screens and the other apps' APIs ask."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from .models import Resolution


def resolution_by_id(code: str, pk: int | None) -> Resolution | None:
    """The jurisdiction's resolution `pk` (None for None); a clear refusal for any other id."""
    if pk is None:
        return None
    found: Resolution | None = (
        Resolution.objects.filter(jurisdiction_id=code, pk=pk).select_related("council").first()
    )
    if found is None:
        raise ValidationError(f"Resolução {pk} não encontrada nesta jurisdição.")
    return found
