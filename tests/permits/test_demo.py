"""Demo data: every permit state per jurisdiction (withdrawal where the law has it); idempotent."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.demo import base as demo
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.workqueue.services import refresh


def test_demo_has_every_state_and_is_idempotent(db: Any) -> None:
    today = dt.date(2026, 11, 29)
    demo.load(today)
    states = {
        j: {p.effective_status(today) for p in Permit.objects.filter(jurisdiction_id=j)}
        for j in ("recife", "cabo", "esteio", "marica")
    }
    base = {"active", "application", "expired", "revoked", "suspended"}
    assert states["recife"] == states["cabo"] == states["esteio"] == base
    assert states["marica"] == base | {"withdrawn"}
    assert Ban.objects.filter(cause="revocation").count() == 3  # Esteio's law sets no ban
    assert PermitAgent.objects.count() == 3  # Esteio's law leaves the number of agents undefined
    assert not Permit.objects.filter(jurisdiction_id="pernambuco").exists()
    assert demo.load(today).created == 0
    result = refresh(today, 30)  # the demo already queued them: a second refresh keeps them
    assert result.opened == 0 and result.kept >= 4  # the pending applications at least
