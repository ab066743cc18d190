"""What ranks the applications of a call: the facts read from each applicant's dossier (never
typed by the clerk), the law's criteria and the edital's, the incumbent's preference where the law
gives it, and the public draw of ties.

The public draw (documented procedure, reproducible by anyone with the published seed):

1. After the ranking is computed, the ties are listed: each group of applications equal on every
   criterion (and on the incumbent's preference, where the law gives it), in ranking order; inside
   a group the applications are listed by their number (the order of filing).
2. Before the draw, the committee publishes a seed — a string anyone can read, for instance the
   numbers of a federal lottery drawing or a phrase read in the public session — and records it
   with where it was published (`record_seed`). The system refuses to draw without it.
3. The draw (`draw_ties`): Python's `random.Random(seed)` (Mersenne Twister seeded from the
   string's SHA-512, the same on every machine and version of Python 3), then, for each group in
   order, the list of its numbers sorted ascending is shuffled with `shuffle`; the shuffled list is
   the group's order. The seed and the result are recorded on the call.
4. Anyone can re-run it: `draw_order(seed, ties)` with the recorded seed and groups gives the same
   order (`python -c "import random; r = random.Random('SEED'); g = [3, 5, 8]; r.shuffle(g); print(g)"`
   for a single group).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from lotacao.core.providers import providers
from lotacao.permits import rules
from lotacao.permits.eligibility import CRITERIA_LABELS, selection_key
from lotacao.permits.models import Permit

CRITERIA = tuple(CRITERIA_LABELS)
EDITAL_CRITERIA = ("service_time", "infractions")  # what an edital may add where the law is silent


def months_between(start: dt.date, end: dt.date) -> int:
    """Whole calendar months from `start` to `end`."""
    if end <= start:
        return 0
    months = (end.year - start.year) * 12 + end.month - start.month
    if end.day < start.day:
        months -= 1
    return max(months, 0)


def service_months(holder_id: int, code: str, on: dt.date, *, provisional: bool) -> int:
    """Months the holder held permits of this jurisdiction up to `on` (provisional ones only where
    the edital counts them, Maricá art. 76, § 2º)."""
    permits = Permit.unscoped.filter(jurisdiction_id=code, holder_id=holder_id, granted_on__isnull=False)
    permits = permits.filter(granted_on__lte=on)
    if not provisional:
        permits = permits.exclude(kind=Permit.Kind.PROVISIONAL)
    total = 0
    for permit in permits:
        assert permit.granted_on is not None
        end = min(d for d in (permit.ends_on, permit.valid_until, on) if d is not None)
        total += months_between(permit.granted_on, end)
    return total


def infractions(holder_id: int, code: str, on: dt.date) -> int:
    return sum(
        int(ask(holder_id=holder_id, code=code, on=on)) for _name, ask in providers("holder_infractions")
    )


def operated(holder_id: int, code: str, on: dt.date) -> bool:
    """Whether the holder operated the service with a permit whose term ended (expired, or a
    provisional one ended at an award). Where the law keeps a live permit from applying (Cabo
    art. 4º), "quem já presta o serviço com alvará" (art. 2º, a) is the operator whose permit
    ends with the call; a revoked permit does not count."""
    return Permit.unscoped.filter(
        jurisdiction_id=code, holder_id=holder_id, granted_on__lte=on, status=Permit.Status.EXPIRED
    ).exists()


def live_on(code: str, on: dt.date) -> Any:
    return Permit.unscoped.filter(jurisdiction_id=code, status__in=Permit.LIVE, granted_on__lte=on).filter(
        Q(valid_until__isnull=True) | Q(valid_until__gte=on)
    )


def dossier_facts(application: Any, on: dt.date) -> dict[str, Any]:
    """The facts of the criteria, read from the registers on `on` (the last day of the window)."""
    call = application.call
    code = call.jurisdiction_id
    holder_id = application.holder_id
    live = live_on(code, on).filter(holder_id=holder_id)
    return {
        "existing_operator": live.exists() or operated(holder_id, code, on),
        "association": application.association_id is not None,
        "service_time": service_months(holder_id, code, on, provisional=call.count_provisional_time),
        "infractions": infractions(holder_id, code, on),
        "incumbent": live.filter(line_id=call.line_id).exists(),
        "read_on": on.isoformat(),
    }


def incumbent_preference(code: str, on: dt.date) -> tuple[bool, str]:
    entry = rules.entry(code, "tender.incumbent_preference", on)
    if entry is None or entry.status != "value" or not entry.value:
        return False, ""
    return True, str(entry.citation)


@dataclass
class Ranked:
    application: Any
    key: tuple[Any, ...]


def rank(
    applications: list[Any], facts: dict[int, dict[str, Any]], criteria: list[str], preference: bool
) -> tuple[list[Ranked], list[list[int]]]:
    """The applications in ranking order (ties by number until the draw) and the tie groups;
    `facts`: each application's facts by its number."""
    rows = []
    for application in applications:
        mine = facts[application.number]
        key = selection_key(criteria, mine)
        if preference:
            key = (*key, 0 if mine.get("incumbent") else 1)
        rows.append(Ranked(application, key))
    rows.sort(key=lambda r: (r.key, r.application.number))
    ties: list[list[int]] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1].key == rows[i].key:
            j += 1
        if j > i:
            ties.append([r.application.number for r in rows[i : j + 1]])
        i = j + 1
    return rows, ties


def draw_order(seed: str, ties: list[list[int]]) -> list[dict[str, Any]]:
    """The public draw: for each tie group, its numbers (ascending) shuffled by random.Random(seed)."""
    generator = random.Random(seed)  # noqa: S311 (a public, reproducible draw: not a secret)
    result = []
    for index, group in enumerate(ties, start=1):
        numbers = sorted(group)
        order = list(numbers)
        generator.shuffle(order)
        result.append({"group": index, "numbers": numbers, "order": order})
    return result


def drawn_position(result: list[dict[str, Any]]) -> dict[int, int]:
    """Each drawn application number → its place inside its group (1 first)."""
    return {number: place for group in result for place, number in enumerate(group["order"], start=1)}


def facts_in_words(facts: dict[str, Any], criteria: list[str], preference: bool) -> list[str]:
    words = []
    for criterion in criteria:
        value = facts.get(criterion)
        if criterion == "existing_operator":
            words.append("já opera com permissão" if value else "não opera com permissão")
        elif criterion == "association":
            words.append("organizado em associação" if value else "sem associação")
        elif criterion == "service_time":
            words.append(f"{int(value or 0)} meses de serviço")
        elif criterion == "infractions":
            n = int(value or 0)
            words.append("nenhuma infração definitiva" if n == 0 else f"{n} infrações definitivas")
    if preference:
        words.append("permissionário da linha (preferência)" if facts.get("incumbent") else "sem preferência")
    return words


def masked_name(full_name: str) -> str:
    """The name as a public list shows it: the first name and the initials of the others."""
    parts = [p for p in (full_name or "").split() if p]
    if not parts:
        return "—"
    initials = " ".join(
        f"{p[0].upper()}." for p in parts[1:] if p.lower() not in ("da", "de", "do", "das", "dos", "e")
    )
    return f"{parts[0]} {initials}".strip()
