"""Business days: national and state holidays from the `holidays` package, the pack's municipal
holidays (parameter `calendar.municipal_holidays`) and the case's `extra_holidays`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

_YEAR_CACHE: dict[tuple[str, str | None, int], frozenset[dt.date]] = {}
ONE_DAY = dt.timedelta(days=1)


def official_holidays(country: str, subdivision: str | None, year: int) -> frozenset[dt.date]:
    """National (and state, for `subdivision`) holidays of `year`, cached per process."""
    key = (country, subdivision, year)
    hit = _YEAR_CACHE.get(key)
    if hit is None:
        import holidays  # imported lazily: only deadline-like results need it

        days = holidays.country_holidays(country, subdiv=subdivision, years=year)
        hit = _YEAR_CACHE[key] = frozenset(days.keys())
    return hit


def holiday_name(country: str, subdivision: str | None, day: dt.date) -> str | None:
    import holidays

    try:
        found = holidays.country_holidays(country, subdiv=subdivision, years=day.year, language="pt_BR")
    except (NotImplementedError, ValueError):
        found = holidays.country_holidays(country, subdiv=subdivision, years=day.year)
    name = found.get(day)
    return str(name) if name else None


def parse_municipal(items: Iterable[str]) -> tuple[frozenset[tuple[int, int]], frozenset[dt.date]]:
    """Municipal holidays as given in a pack: "MM-DD" (every year) or "AAAA-MM-DD" (one date)."""
    yearly: set[tuple[int, int]] = set()
    dated: set[dt.date] = set()
    for item in items:
        if len(item) == 5:
            month, day = item.split("-")
            yearly.add((int(month), int(day)))
        else:
            dated.add(dt.date.fromisoformat(item))
    return frozenset(yearly), frozenset(dated)


class Calendar:
    """Monday to Friday minus official, municipal and extra holidays."""

    def __init__(
        self,
        country: str,
        subdivision: str | None = None,
        municipal: Iterable[str] = (),
        extra: Iterable[dt.date] = (),
    ) -> None:
        self.country = country
        self.subdivision = subdivision
        self.yearly, self.dated = parse_municipal(municipal)
        self.extra = frozenset(extra)

    def reason_closed(self, day: dt.date) -> str | None:
        """Why `day` is not a business day (in Portuguese), or None when it is one."""
        if day.weekday() == 5:
            return "sábado"
        if day.weekday() == 6:
            return "domingo"
        if day in official_holidays(self.country, self.subdivision, day.year):
            name = holiday_name(self.country, self.subdivision, day)
            return f"feriado ({name})" if name else "feriado"
        if (day.month, day.day) in self.yearly or day in self.dated:
            return "feriado municipal"
        if day in self.extra:
            return "dia sem expediente informado no caso"
        return None

    def is_business_day(self, day: dt.date) -> bool:
        if day.weekday() >= 5:
            return False
        if day in official_holidays(self.country, self.subdivision, day.year):
            return False
        return not ((day.month, day.day) in self.yearly or day in self.dated or day in self.extra)

    def next_business_day(self, day: dt.date) -> dt.date:
        """The first business day on or after `day`."""
        while not self.is_business_day(day):
            day += ONE_DAY
        return day

    def first_business_day_after(self, day: dt.date) -> dt.date:
        return self.next_business_day(day + ONE_DAY)

    def add_business_days(self, day: dt.date, n: int) -> dt.date:
        """The n-th business day after `day` (`day` itself is never counted)."""
        while n > 0:
            day += ONE_DAY
            if self.is_business_day(day):
                n -= 1
        return day
