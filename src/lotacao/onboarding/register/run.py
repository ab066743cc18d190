"""One import run: the files read kind by kind, every row validated, the errors located (file, row,
column, rule), the counts of what is created, updated and left unchanged, the audit events.

The run happens inside one transaction (`importer.import_register`): a dry run, or a run with any
error, is rolled back whole."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, models
from django.utils import timezone

from lotacao.audit import actions
from lotacao.audit.models import AuditEvent
from lotacao.audit.services import SYSTEM, snapshot
from lotacao.core.models import Jurisdiction
from lotacao.core.text import fold
from lotacao.onboarding.register import cells
from lotacao.onboarding.register.files import read_rows
from lotacao.onboarding.register.spec import Kind

CHUNK = 2000


@dataclass(frozen=True)
class Problem:
    file: str
    row: int | None  # the spreadsheet's row (1 is the header); None for the whole file
    column: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "row": self.row, "column": self.column, "message": self.message}

    def __str__(self) -> str:
        where = self.file + (f", linha {self.row}" if self.row is not None else "")
        if self.column:
            where += f", coluna «{self.column}»"
        return f"{where}: {self.message}"


@dataclass
class Report:
    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)
    unchanged: dict[str, int] = field(default_factory=dict)
    errors: list[Problem] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # file name -> SHA-256
    dry_run: bool = False
    saved: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "created": dict(self.created),
            "updated": dict(self.updated),
            "unchanged": dict(self.unchanged),
            "errors": [p.as_dict() for p in self.errors],
        }

    def start(self, kind: str) -> None:
        for counts in (self.created, self.updated, self.unchanged):
            counts.setdefault(kind, 0)


def messages(error: ValidationError) -> list[str]:
    return [str(m) for m in error.messages]


class Run:
    """What one run shares across the kinds: the jurisdiction, who acts, why, the report, and the
    natural keys seen in each file (a second row with the same key is refused)."""

    def __init__(self, *, jurisdiction: Jurisdiction, actor: Any, reason: str, report: Report) -> None:
        self.jurisdiction = jurisdiction
        self.code = jurisdiction.code
        self.actor = actor if getattr(actor, "pk", None) is not None else None
        self.reason = reason.strip()
        self.report = report
        self.today = timezone.localdate()
        self.zone = jurisdiction.timezone or "America/Sao_Paulo"
        self._memo: dict[Any, Any] = {}
        self.file = ""
        self.file_hash = ""
        self.kind: Kind | None = None

    # ------------------------------------------------------------------ errors and counts

    def error(self, row: int | None, column: str, message: str) -> None:
        self.report.errors.append(Problem(self.file, row, column, message))

    def refuse(self, row: int | None, column: str, error: ValidationError) -> None:
        for text in messages(error):
            self.error(row, column, text)

    def count(self, what: str, n: int = 1) -> None:
        assert self.kind is not None
        getattr(self.report, what)[self.kind.name] += n

    def memo(self, key: Any, compute: Callable[[], Any]) -> Any:
        if key not in self._memo:
            try:
                self._memo[key] = compute()
            except ValidationError as error:
                self._memo[key] = error
        found = self._memo[key]
        if isinstance(found, ValidationError):
            raise found
        return found

    def row_reason(self, row: int) -> str:
        return f"{self.reason} — {self.file} (SHA-256 {self.file_hash}), linha {row}"

    # ------------------------------------------------------------------ reading

    def rows(self, kind: Kind, path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
        """The file's rows read by its columns; a row with a bad cell is reported and skipped."""
        headers, raw_rows = read_rows(path)
        known = kind.by_folded_header()
        index: list[tuple[int, Any]] = []
        seen: set[str] = set()
        bad_header = False
        for i, header in enumerate(headers):
            if not header:
                continue
            column = known.get(fold(header))
            if column is None:
                expected = "; ".join(c.header for c in kind.columns)
                self.error(1, header, f"Coluna desconhecida. As colunas de {kind.label} são: {expected}.")
                bad_header = True
                continue
            if column.name in seen:
                self.error(1, header, "Coluna repetida.")
                bad_header = True
                continue
            seen.add(column.name)
            index.append((i, column))
        for column in kind.columns:
            if column.required and column.name not in seen:
                self.error(1, column.header, "Coluna obrigatória ausente.")
                bad_header = True
        if bad_header:
            return
        for number, raw in enumerate(raw_rows, start=2):
            if not any(raw):
                continue
            values: dict[str, Any] = {}
            ok = True
            for i, column in index:
                text = raw[i] if i < len(raw) else ""
                try:
                    values[column.name] = cells.parse(column, text, self.zone)
                except ValidationError as error:
                    self.refuse(number, column.header, error)
                    ok = False
                    continue
                if column.required and values[column.name] in ("", None):
                    self.error(number, column.header, "Preenchimento obrigatório.")
                    ok = False
            if ok:
                yield number, values

    def chunks(self, kind: Kind, path: Path) -> Iterator[list[tuple[int, dict[str, Any]]]]:
        """The rows in chunks of CHUNK; what a chunk wrote is let go before the next is read."""
        chunk: list[tuple[int, dict[str, Any]]] = []
        for item in self.rows(kind, path):
            chunk.append(item)
            if len(chunk) >= CHUNK:
                yield chunk
                forget_logged_queries()
                chunk = []
        if chunk:
            yield chunk
            forget_logged_queries()

    # ------------------------------------------------------------------ writing

    def check_fields(self, row: int, instance: models.Model, exclude: list[str]) -> bool:
        """The model's own field rules (lengths, choices, e-mail…), as `full_clean` applies them
        on the screens; each refusal named by its column."""
        assert self.kind is not None
        try:
            instance.clean_fields(exclude=["jurisdiction", *exclude])
        except ValidationError as error:
            by_name = {c.name: c.header for c in self.kind.columns}
            for name, texts in error.message_dict.items():
                header = by_name.get(name) or str(
                    getattr(instance._meta.get_field(name), "verbose_name", name)
                )
                for text in texts:
                    self.error(row, header, text)
            return False
        return True

    def audit_created(
        self,
        items: Sequence[tuple[int, models.Model]],
        action: str,
        describe: Callable[[Any], str] | None = None,
    ) -> None:
        """The creation events of rows written in bulk (one per row, as create_audited records).
        `describe`: the row's name without reading its relations again (a holder is its person)."""
        self._audit([(row, obj, None, snapshot(obj)) for row, obj in items], action, describe)

    def audit_updated(
        self, items: list[tuple[int, models.Model, dict[str, Any], dict[str, Any]]], action: str
    ) -> None:
        self._audit(items, action)

    def _audit(self, items: list[Any], action: str, describe: Callable[[Any], str] | None = None) -> None:
        if not items:
            return
        actions.label(action)  # declared, as record() requires
        actor_id = self.actor.pk if self.actor is not None else None
        actor_label = self.actor.get_username() if self.actor is not None else SYSTEM
        events = [
            AuditEvent(
                jurisdiction_id=self.code,
                actor_id=actor_id,
                actor_label=actor_label,
                action=action,
                object_type=obj._meta.label_lower,
                object_id=str(obj.pk),
                object_repr=(describe(obj) if describe else str(obj))[:200],
                before=before,
                after=after,
                reason=self.row_reason(row),
            )
            for row, obj, before, after in items
        ]
        AuditEvent.objects.bulk_create(events, batch_size=1000)


def forget_logged_queries() -> None:
    """Drop the SQL the connection logged for the chunk just written.

    With DEBUG on (the development and demo settings) Django keeps the text of the connection's
    last 9,000 queries with their parameters inlined; a bulk insert of 1,000 rows is ~50 KB of
    text, so an import of 100,000 permits held ~450 MB of logged SQL — the whole of its growth in
    memory (tracemalloc: `sqlite3/operations.py last_executed_query`). Django's advice for a long
    process under DEBUG is `reset_queries()`; this clears only this connection's log, and not while
    someone is reading it (`CaptureQueriesContext`, `assertNumQueries` set force_debug_cursor)."""
    if not connection.force_debug_cursor:
        connection.queries_log.clear()


def changed_fields(obj: models.Model, fields: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if getattr(obj, name) != value}


def apply_update(
    obj: models.Model, changes: dict[str, Any], prepare: Callable[[Any], None] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Set the changes; (before, after) of the fields that changed, as update_audited records."""
    before_all = snapshot(obj)
    for name, value in changes.items():
        setattr(obj, name, value)
    if prepare is not None:
        prepare(obj)
    after_all = snapshot(obj)
    keys = [k for k, v in after_all.items() if before_all.get(k) != v]
    return {k: before_all[k] for k in keys}, {k: after_all[k] for k in keys}


def today_or(day: dt.date | None, run: Run) -> dt.date:
    return day or run.today
