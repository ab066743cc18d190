from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.demo import base as core_demo
from lotacao.demo import documents as demo
from lotacao.documents.models import Document


def test_demo_documents_are_idempotent_and_varied(db: Any) -> None:
    today = dt.date(2025, 6, 16)
    core_demo.load(today)
    count = Document.objects.count()
    assert count > 0
    assert Document.objects.filter(status="recusado").exclude(refusal_reason="").exists()
    assert Document.objects.filter(status="pendente").exists()
    assert Document.objects.filter(
        status="aceito", valid_until__lte=today + dt.timedelta(days=30), valid_until__gte=today
    ).exists()
    assert not Document.objects.filter(jurisdiction_id="esteio").exists()  # the law lists none
    summary = core_demo.DemoSummary()
    demo.load(today, summary)
    assert summary.created == 0 and Document.objects.count() == count
