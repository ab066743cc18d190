"""Query parameters shared by the API's lists."""

from __future__ import annotations

from typing import Any

from ninja.params.functions import Query

MAX_LIMIT = 500

# How many rows a list answers: 1 to 500, 50 by default; anything else is a 422 (a negative
# `limit` used to slice the queryset from the end and fail with a 500).
LIMIT: Any = Query(50, ge=1, le=MAX_LIMIT, description="Quantos registros devolver (de 1 a 500).")
