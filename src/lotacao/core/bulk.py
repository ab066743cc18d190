"""Helpers for queries over many rows at once (the set-based read-model build)."""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Q


def among(field: str, ids: Collection[int]) -> Q:
    """`field IN ids`, as a range when the ids are dense (a range of vehicles): a condition of two
    bound values instead of thousands, which Django and the driver would quote one by one. The
    caller keeps only the rows of its own ids (a range may reach a few others)."""
    if len(ids) < 64:
        return Q(**{f"{field}__in": list(ids)})
    low, high = min(ids), max(ids)
    if high - low + 1 <= 2 * len(ids):
        return Q(**{f"{field}__gte": low, f"{field}__lte": high})
    return Q(**{f"{field}__in": list(ids)})
