"""The conformance check of every API answer (tests/api/conformance.py) can fail: each defect it
looks for, on a real operation of the OpenAPI."""

from __future__ import annotations

import json

from tests.api import conformance

FINE = {
    "id": 1,
    "notice": 2,
    "notice_number": "AI-2026-000001",
    "jurisdiction": "recife",
    "payer_name": "Pessoa",
    "amount": "100.00",
    "units": None,
    "unit": "",
    "due_on": "2026-12-10",
    "due_explanation": "",
    "due_citations": [],
    "status": "open",
    "status_label": "Em aberto",
    "status_note": "",
    "slip_count": 0,
    "paid_on": None,
    "paid_amount": None,
    "unit_value": None,
    "unit_value_citation": "",
    "payment_reference": "",
    "charge": None,
}
JSON = "application/json"


def _defects(body: object, status: int = 200, media: str = JSON, method: str = "GET") -> list[str]:
    return conformance.defects(method, "/api/fines/7", status, media, json.dumps(body).encode())


def test_a_conforming_answer_has_no_defect() -> None:
    assert _defects(FINE) == []


def test_each_kind_of_defect_is_named() -> None:
    assert any("slip_count" in d for d in _defects({**FINE, "slip_count": "zero"}))
    assert any("payer_name" in d for d in _defects({k: v for k, v in FINE.items() if k != "payer_name"}))
    assert any("extra" in d for d in _defects({**FINE, "extra": 1}))  # a key the schema does not name
    assert any("due_on" in d for d in _defects({**FINE, "due_on": "10/12/2026"}))  # formats are checked
    assert any("answered 201" in d for d in _defects(FINE, status=201))
    assert any("text/html" in d for d in _defects(FINE, media="text/html"))


def test_files_errors_and_other_paths_are_left_to_their_own_checks() -> None:
    assert conformance.defects("GET", "/api/inspections/seals/3/pdf", 200, "application/pdf", b"%PDF") == []
    assert any(
        "text/plain" in d
        for d in conformance.defects("GET", "/api/inspections/seals/3/pdf", 200, "text/plain", b"x")
    )
    assert _defects({"detail": "não"}, status=404) == []  # an error: problem details, checked elsewhere
    assert conformance.defects("GET", "/cadastro/pessoas/", 200, "text/html", b"<html>") == []
