"""Reading manifestations: the public answer (never personal data) and the staff queue."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from lotacao.ombudsman.models import Complaint, Status
from lotacao.ombudsman.services import code_matches, hash_code
from lotacao.ombudsman.states import OPEN, STATUS_PHRASES

PROTOCOL = re.compile(r"^\d{12}$")


def by_protocol_and_code(protocol: str, code: str) -> Complaint | None:
    """The manifestation whose protocol and access code match; None otherwise. A well-formed
    protocol that does not exist costs the same hash and comparison as a wrong code."""
    clean = (protocol or "").strip()
    if not PROTOCOL.match(clean) or not code or len(code) > 20:
        return None
    found = Complaint.unscoped.filter(protocol=clean).select_related("line", "jurisdiction").first()
    if found is None:
        code_matches(Complaint(protocol=clean, access_hash=hash_code("", "")), code)
        return None
    return found if code_matches(found, code) else None


def public_status(c: Complaint) -> dict[str, Any]:
    """What the complainant reads: status, dates, subject and answer — no identity, no description
    (it may hold personal data), no staff names."""
    answered = c.status in (Status.ANSWERED, Status.CLOSED)
    return {
        "protocol": c.protocol,
        "jurisdiction": c.jurisdiction_id,
        "kind": c.kind,
        "kind_label": c.get_kind_display(),
        "status": c.status,
        "status_label": STATUS_PHRASES[Status(c.status)],
        "received_on": timezone.localtime(c.received_at).date(),
        "due": c.due_on,
        "extended": c.extended_on is not None,
        "extension_reason": c.extension_reason,
        "plate": c.plate,
        "line": c.line.code if c.line is not None else "",
        "answered_on": timezone.localtime(c.answered_at).date() if c.answered_at else None,
        "answer": c.answer if answered else "",
        "measures": c.measures if answered else "",
    }


def queue(codes: list[str], status: str = "") -> QuerySet[Complaint]:
    """Manifestations of these jurisdictions (the scoped manager also applies the user's scope):
    open ones by due date, or those of one status."""
    rows = Complaint.objects.filter(jurisdiction_id__in=codes).select_related("line", "jurisdiction")
    if status in Status.values:
        return rows.filter(status=status).order_by("due_on", "id")
    return rows.filter(status__in=OPEN).order_by("due_on", "id")
