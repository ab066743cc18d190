"""Two independent readers of a GTFS feed: the canonical rule set (gtfs-validator, a pure-Python
port of MobilityData's validator) and gtfs-kit (reads the tables with pandas and computes the
trips' distances, durations and speeds). The tests ask for 0 errors and 0 warnings."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import gtfs_kit
from gtfs_validator.cli import main as validate


def canonical(feed: bytes, folder: Path, on: dt.date) -> dict[str, tuple[str, int]]:
    """notice code -> (severity, count) from the canonical validator."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "feed.zip"
    path.write_bytes(feed)
    out = folder / "report"
    assert validate(["-i", str(path), "-o", str(out), "-c", "BR", "-d", on.isoformat()]) == 0
    report = json.loads((out / "report.json").read_text())
    return {n["code"]: (n["severity"], n["totalNotices"]) for n in report["notices"]}


def problems(found: dict[str, tuple[str, int]]) -> dict[str, tuple[str, int]]:
    return {code: item for code, item in found.items() if item[0] in ("ERROR", "WARNING")}


def kit(feed: bytes, folder: Path) -> Any:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "kit.zip"
    path.write_bytes(feed)
    return gtfs_kit.read_feed(path, dist_units="km")
