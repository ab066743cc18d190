"""Text folded for search: "José" and "jose", "CONCEIÇÃO" and "conceicao" are the same key.

Names are stored beside their folded form (`name_search`, filled on save), so the search is a
plain LIKE on one column on every database; on PostgreSQL a trigram index answers it
(registry/migrations/0006_name_search.py, docs/performance.md)."""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def fold(value: str | None) -> str:
    """Lower case, no accents or other combining marks, single spaces."""
    decomposed = unicodedata.normalize("NFKD", value or "")
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _SPACES.sub(" ", bare.casefold()).strip()


def fold_words(value: str | None) -> list[str]:
    """The folded words of a query, for a search that wants each one somewhere in the name."""
    return [w for w in fold(value).split(" ") if w]
