"""The regulation packs on disk (docs/packs.md): which there are, and each loaded once.

A pack is one law as data. This module is the door to them: :func:`available_packs`,
:func:`get_pack` (loaded strictly by :mod:`lotacao.law.pack_loader`, cached per process and on
disk). It also re-exports the pack API so callers need one import:

- :mod:`lotacao.law.pack_model`   — :class:`Pack`, :class:`Entry`, :class:`Parameter` … ;
- :mod:`lotacao.law.pack_loader`  — :func:`load_pack`, the strict loader;
- :mod:`lotacao.law.pack_checks`  — the checks of a value against its declared type;
- :mod:`lotacao.law.pack_yaml`    — YAML with line numbers;
- :mod:`lotacao.law.overrides`    — an agency's values layered on the law's.
"""

from __future__ import annotations

import os
from pathlib import Path

from lotacao.law import pack_checks, pack_loader, pack_model, pack_yaml
from lotacao.law.errors import CaseError, PackError
from lotacao.law.pack_checks import DURATION_KEYS, check_duration, check_value, is_decimal_string
from lotacao.law.pack_loader import (
    CATALOGUE_SCHEMAS,
    ENTRY_KEYS,
    GROUP_KEYS,
    INFRACTION_KEYS,
    PACK_KEYS,
    PACK_OPTIONAL,
    PARAM_KEYS,
    STATUSES,
    VALUE_TYPES,
    load_pack,
)
from lotacao.law.pack_model import (
    MEASURES,
    OFFENDERS,
    Entry,
    Group,
    Infraction,
    Interpretation,
    Pack,
    Parameter,
)
from lotacao.law.pack_yaml import LineDict, read_yaml

__all__ = [
    "CATALOGUE_SCHEMAS",
    "DURATION_KEYS",
    "ENTRY_KEYS",
    "GROUP_KEYS",
    "INFRACTION_KEYS",
    "MEASURES",
    "OFFENDERS",
    "PACKS_DIR",
    "PACK_KEYS",
    "PACK_OPTIONAL",
    "PARAM_KEYS",
    "STATUSES",
    "VALUE_TYPES",
    "CaseError",
    "Entry",
    "Group",
    "Infraction",
    "Interpretation",
    "LineDict",
    "Pack",
    "PackError",
    "Parameter",
    "available_packs",
    "check_duration",
    "check_value",
    "get_pack",
    "is_decimal_string",
    "load_pack",
    "read_yaml",
]

PACKS_DIR = Path(os.environ.get("LOTACAO_PACKS_DIR") or Path(__file__).resolve().parent.parent / "packs")

# The modules whose code shapes a loaded pack: a change to any of them invalidates the disk cache.
_LOADER_MODULES = (
    __file__,
    pack_model.__file__,
    pack_yaml.__file__,
    pack_checks.__file__,
    pack_loader.__file__,
)

_PACKS: dict[str, Pack] = {}


_AVAILABLE: list[str] = []


def available_packs() -> list[str]:
    """The ids of the packs on disk (folders holding a pack.yaml), read once per process."""
    if not _AVAILABLE and PACKS_DIR.is_dir():
        _AVAILABLE.extend(sorted(p.name for p in PACKS_DIR.iterdir() if (p / "pack.yaml").is_file()))
    return list(_AVAILABLE)


def get_pack(pack_id: str) -> Pack:
    """The pack `pack_id`, loaded once per process. KeyError when there is no such pack.

    A validated pack is also kept as a pickle in the user's cache (LOTACAO_CACHE_DIR, else
    ~/.cache/lotacao), keyed by the size and mtime of every file of the pack and of the loader's
    modules, so that a command that answers one case does not parse YAML again (fast start).
    """
    pack = _PACKS.get(pack_id)
    if pack is None:
        directory = PACKS_DIR / pack_id
        bad_id = not pack_id or "/" in pack_id or pack_id.startswith(".")
        if bad_id or not (directory / "pack.yaml").is_file():
            raise KeyError(pack_id)
        pack = _PACKS[pack_id] = _load_cached(directory)
    return pack


def _cache_file(directory: Path) -> Path | None:
    import hashlib

    try:
        stamp = [f"{module}:{os.stat(module).st_mtime_ns}" for module in _LOADER_MODULES]
        for root, _dirs, files in os.walk(directory):
            for name in sorted(files):
                if name.endswith(".yaml"):
                    st = os.stat(os.path.join(root, name))
                    stamp.append(f"{root}/{name}:{st.st_size}:{st.st_mtime_ns}")
    except OSError:
        return None
    digest = hashlib.sha256("\n".join(sorted(stamp)).encode()).hexdigest()[:24]
    base = Path(os.environ.get("LOTACAO_CACHE_DIR") or Path.home() / ".cache" / "lotacao")
    return base / f"pack-{directory.name}-{digest}.pickle"


def _load_cached(directory: Path) -> Pack:
    import pickle

    if os.environ.get("LOTACAO_NO_PACK_CACHE"):
        return load_pack(directory)
    cache = _cache_file(directory)
    if cache is not None and cache.is_file():
        try:
            with cache.open("rb") as fh:
                cached = pickle.load(fh)  # noqa: S301 - our own cache, keyed by the pack's files
            if isinstance(cached, Pack) and cached.path == directory:
                return cached
        except Exception:  # noqa: S110 - a stale or broken cache is simply rebuilt
            pass
    pack = load_pack(directory)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as fh:
                pickle.dump(pack, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, cache)
            for stale in cache.parent.glob(f"pack-{directory.name}-*.pickle"):
                if stale != cache:  # earlier versions of this pack's files
                    stale.unlink(missing_ok=True)
        except OSError:
            pass
    return pack
