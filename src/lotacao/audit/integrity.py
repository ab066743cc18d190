"""A digest of the whole audit log, to prove a copy of it is the same log (the backup drill).

The log has no hash chain stored in its rows; `audit_digest()` computes one on read: a SHA-256
fed with every event in id order (every field, JSON with sorted keys), so two databases give the
same digest only if they hold the same events, none changed, dropped or added. Run
`manage.py audit_digest` on the source before `pg_dump` and on the restored database: the
count, the last id and the digest must match (docs/deployment.md, "Cópia e restauração").
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from lotacao.audit.models import AuditEvent

FIELDS = (
    "id",
    "at",
    "jurisdiction_id",
    "actor_id",
    "actor_label",
    "action",
    "object_type",
    "object_id",
    "object_repr",
    "before",
    "after",
    "reason",
)


@dataclass(frozen=True)
class AuditDigest:
    events: int
    last_id: int | None
    sha256: str

    def as_dict(self) -> dict[str, Any]:
        return {"eventos": self.events, "ultimo_id": self.last_id, "sha256": self.sha256}


def _canonical(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def audit_digest(using: str = "default") -> AuditDigest:
    chain = hashlib.sha256()
    events = 0
    last_id: int | None = None
    rows = AuditEvent.unscoped.using(using).order_by("id").values_list(*FIELDS)
    for row in rows.iterator(chunk_size=2000):
        record = dict(zip(FIELDS, (_canonical(v) for v in row), strict=True))
        line = json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)
        # each step hashes the previous digest with the event: a chain over the whole log
        chain = hashlib.sha256(chain.digest() + line.encode())
        events += 1
        last_id = row[0]
    return AuditDigest(events, last_id, chain.hexdigest())
