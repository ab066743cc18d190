"""Business days: national and state holidays from the `holidays` package, the pack's municipal
holidays (parameter `calendar.municipal_holidays`) and the case's `extra_holidays`."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
from collections.abc import Iterable
from pathlib import Path

ONE_DAY = dt.timedelta(days=1)

# (country, subdivision, year) -> {day: Portuguese name}, per process and on disk.
_TABLES: dict[tuple[str, str | None, int], dict[dt.date, str]] = {}
_DISK: dict[tuple[str, str | None], dict[str, dict[str, str]]] = {}


def _disk_file(country: str, subdivision: str | None) -> Path | None:
    """The on-disk table of one calendar, keyed by the installed `holidays` package's files.

    Importing `holidays` and building a country's calendar costs ~0.3 s, more than the rest of a
    one-case `lotacao evaluate`; the dates it gives are kept beside the pack cache
    (LOTACAO_CACHE_DIR, else ~/.cache/lotacao) and rebuilt when the package changes.
    """
    if os.environ.get("LOTACAO_NO_PACK_CACHE"):
        return None
    spec = importlib.util.find_spec("holidays")
    if spec is None or spec.origin is None:
        return None
    try:
        stamp = os.stat(Path(spec.origin).parent / "version.py").st_mtime_ns
    except OSError:
        return None
    base = Path(os.environ.get("LOTACAO_CACHE_DIR") or Path.home() / ".cache" / "lotacao")
    return base / f"holidays-{country}-{subdivision or 'all'}-{stamp}.json"


def _compute(country: str, subdivision: str | None, year: int) -> dict[dt.date, str]:
    import holidays  # imported lazily: only deadline-like results need it, and only on a cache miss

    try:
        found = holidays.country_holidays(country, subdiv=subdivision, years=year, language="pt_BR")
    except (NotImplementedError, ValueError):
        found = holidays.country_holidays(country, subdiv=subdivision, years=year)
    return {day: str(name) for day, name in found.items()}


def _table(country: str, subdivision: str | None, year: int) -> dict[dt.date, str]:
    key = (country, subdivision, year)
    table = _TABLES.get(key)
    if table is not None:
        return table
    file = _disk_file(country, subdivision)
    disk = _DISK.get((country, subdivision))
    if disk is None:
        disk = {}
        if file is not None and file.is_file():
            try:
                disk = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                disk = {}
        _DISK[(country, subdivision)] = disk
    stored = disk.get(str(year))
    if stored is not None:
        table = {dt.date.fromisoformat(day): name for day, name in stored.items()}
    else:
        table = _compute(country, subdivision, year)
        disk[str(year)] = {day.isoformat(): name for day, name in table.items()}
        if file is not None:
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
                tmp = file.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps(disk, ensure_ascii=False), encoding="utf-8")
                os.replace(tmp, file)
            except OSError:
                pass
    _TABLES[key] = table
    return table


_SETS: dict[tuple[str, str | None, int], frozenset[dt.date]] = {}


def official_holidays(country: str, subdivision: str | None, year: int) -> frozenset[dt.date]:
    """National (and state, for `subdivision`) holidays of `year`, from the `holidays` package."""
    key = (country, subdivision, year)
    days = _SETS.get(key)
    if days is None:
        days = _SETS[key] = frozenset(_table(country, subdivision, year))
    return days


def holiday_name(country: str, subdivision: str | None, day: dt.date) -> str | None:
    """The holiday's name in Portuguese, where the package has it."""
    return _table(country, subdivision, day.year).get(day)


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
            return f"feriado: {name}" if name else "feriado"
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
