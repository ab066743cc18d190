"""Read-side questions about documents: is a person's (company's, vehicle's) file complete for a role?"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from lotacao.core.formats import br_date
from lotacao.documents.models import Document
from lotacao.documents.rules import ROLE_LABELS, Requirement, requirements


@dataclass
class DocumentCheck:
    """The result of `document_check`.

    `missing`, `expired` and `pending` hold document codes (as in the pack); `labels` maps each
    code to its Portuguese name; `explanation` says, in Portuguese, what is wrong and why;
    `missing_parameters` names the pack parameters the law leaves undefined (then `complete` is
    False: the agency must supply the list before the file can be judged complete).
    """

    complete: bool
    missing: list[str] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    explanation: list[str] = field(default_factory=list)
    missing_parameters: list[str] = field(default_factory=list)
    valid_until: dict[str, dt.date | None] = field(default_factory=dict)  # of the documents in force


def document_check(
    *,
    jurisdiction_code: str,
    role: str,
    person: Any = None,
    company: Any = None,
    vehicle: Any = None,
    on: dt.date,
) -> DocumentCheck:
    """Whether the documents the law requires for `role` are present, accepted and valid on `on`.

    The owner is `vehicle` for the vehicle role, otherwise `person` (or `company`, where a company
    may hold the role). Runs one query. Uses the unscoped manager: callers (eligibility, jobs) have
    already checked that the owner is in scope.
    """
    rules = requirements(jurisdiction_code, role, on)
    if not rules.defined:
        reason = rules.reason or "valor não definido"
        return DocumentCheck(
            complete=False,
            citations=[rules.citation],
            explanation=[f"Documentos do {ROLE_LABELS[role]}: {reason} ({rules.citation})."],
            missing_parameters=[rules.parameter],
        )
    owner_filter: dict[str, Any]
    if role == "vehicle":
        owner_filter = {"vehicle": vehicle} if vehicle is not None else {}
    elif person is not None:
        owner_filter = {"person": person}
    elif company is not None:
        owner_filter = {"company": company}
    else:
        owner_filter = {}

    uploaded = [item.code for item in rules.items]  # the CNH too: its file, reviewed, makes it valid
    by_code: dict[str, list[Document]] = {}
    if owner_filter and uploaded:
        rows = Document.unscoped.filter(code__in=uploaded, **owner_filter).only(
            "code", "status", "issued_on", "valid_until"
        )
        for doc in rows:
            by_code.setdefault(doc.code, []).append(doc)

    result = DocumentCheck(complete=True, citations=[rules.citation])
    for item in rules.items:
        result.labels[item.code] = item.label
        if item.citation not in result.citations:
            result.citations.append(item.citation)
        if item.person_field == "cnh":
            _check_cnh(item, person, by_code.get(item.code, []), on, result)
        else:
            _check_uploads(item, by_code.get(item.code, []), on, result)
    result.complete = not (result.missing or result.expired or result.pending)
    return result


def _check_cnh(
    item: Requirement, person: Any, docs: list[Document], on: dt.date, result: DocumentCheck
) -> None:
    """The CNH: its number, category and validity typed on the person's record, and its file
    received and accepted by a clerk — typed data alone is not a valid document."""
    if person is None or not person.cnh_number or person.cnh_expiry is None:
        result.missing.append(item.code)
        result.explanation.append(f"{item.label}: número e validade não informados ({item.citation}).")
        return
    if item.categories and person.cnh_category.upper() not in item.categories:
        result.missing.append(item.code)
        admitted = ", ".join(item.categories)
        result.explanation.append(
            f"CNH categoria {person.cnh_category or '—'}: "
            f"a lei exige a categoria {admitted} ({item.citation})."
        )
        return
    if person.cnh_expiry < on:
        result.expired.append(item.code)
        result.explanation.append(f"CNH vencida em {br_date(person.cnh_expiry)} ({item.citation}).")
        return
    if any(d.status == Document.Status.ACCEPTED for d in docs):
        result.valid_until[item.code] = person.cnh_expiry
        return
    if any(d.status == Document.Status.PENDING for d in docs):
        result.pending.append(item.code)
        result.explanation.append(f"{item.label}: aguardando análise do atendente ({item.citation}).")
        return
    result.missing.append(item.code)
    result.explanation.append(
        f"{item.label}: número e validade informados, mas falta o arquivo da CNH, analisado pelo "
        f"atendente ({item.citation})."
    )


def _in_force(doc: Document, on: dt.date) -> bool:
    started = doc.issued_on is None or doc.issued_on <= on
    return started and (doc.valid_until is None or doc.valid_until >= on)


def _check_uploads(item: Requirement, docs: list[Document], on: dt.date, result: DocumentCheck) -> None:
    accepted = [d for d in docs if d.status == Document.Status.ACCEPTED]
    good = [d for d in accepted if _in_force(d, on)]
    if good:
        ends = [d.valid_until for d in good]
        result.valid_until[item.code] = None if None in ends else max(e for e in ends if e is not None)
        return
    if any(d.status == Document.Status.PENDING for d in docs):
        result.pending.append(item.code)
        result.explanation.append(f"{item.label}: aguardando análise do atendente ({item.citation}).")
        return
    lapsed = [d for d in accepted if d.valid_until is not None and d.valid_until < on]
    if lapsed:
        last = max(d.valid_until for d in lapsed if d.valid_until is not None)
        result.expired.append(item.code)
        result.explanation.append(f"{item.label}: venceu em {br_date(last)} ({item.citation}).")
        return
    result.missing.append(item.code)
    result.explanation.append(f"{item.label}: falta apresentar ({item.citation}).")
