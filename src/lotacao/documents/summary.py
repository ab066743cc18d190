"""What a clerk sees on a person's page: each document the law asks, valid, expiring or missing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from lotacao.documents.models import Document
from lotacao.documents.rules import ROLE_LABELS, ROLES, Requirement, requirements
from lotacao.documents.selectors import DocumentCheck, document_check

EXPIRING_DAYS = 30


@dataclass
class Row:
    requirement: Requirement
    state: str  # valido | vencendo | vencido | pendente | sem_arquivo | ausente | recusado
    state_label: str
    valid_until: dt.date | None = None
    documents: list[Document] = field(default_factory=list)


@dataclass
class PersonDocuments:
    rows: list[Row]
    checks: list[tuple[str, DocumentCheck]]  # (role label, check) for every role the law defines
    other: list[Document]  # documents of a type no longer listed


STATE_LABELS = {
    "valido": "Válido",
    "vencendo": "Vence em breve",
    "vencido": "Vencido",
    "pendente": "Aguardando análise",
    "sem_arquivo": "Aguardando arquivo",
    "recusado": "Recusado",
    "ausente": "Não apresentado",
}


def person_documents(person: Any, today: dt.date) -> PersonDocuments:
    """Every document type of the people roles, with this person's state for each (3 queries)."""
    types: dict[str, Requirement] = {}
    checks: list[tuple[str, DocumentCheck]] = []
    for role in ROLES:
        if role == "vehicle":
            continue
        rules = requirements(person.jurisdiction_id, role, today)
        if not rules.defined:
            continue
        for item in rules.items:
            types.setdefault(item.code, item)
        checks.append(
            (
                ROLE_LABELS[role],
                document_check(jurisdiction_code=person.jurisdiction_id, role=role, person=person, on=today),
            )
        )
    docs = list(Document.objects.filter(person=person).order_by("code", "-uploaded_at"))
    by_code: dict[str, list[Document]] = {}
    for doc in docs:
        by_code.setdefault(doc.code, []).append(doc)
    rows = [_row(item, by_code.get(code, []), person, today) for code, item in types.items()]
    other = [d for d in docs if d.code not in types]
    return PersonDocuments(rows=rows, checks=checks, other=other)


def _row(item: Requirement, docs: list[Document], person: Any, today: dt.date) -> Row:
    soon = today + dt.timedelta(days=EXPIRING_DAYS)
    if item.person_field == "cnh":  # typed on the record; valid only with its file, reviewed
        end = person.cnh_expiry
        if not person.cnh_number or end is None:
            state = "ausente"
        elif end < today:
            state = "vencido"
        elif any(d.status == Document.Status.ACCEPTED for d in docs):
            state = "vencendo" if end <= soon else "valido"
        elif any(d.status == Document.Status.PENDING for d in docs):
            state = "pendente"
        elif docs:
            state = "recusado"
        else:
            state = "sem_arquivo"
        return Row(item, state, STATE_LABELS[state], valid_until=end, documents=docs)
    accepted = [d for d in docs if d.status == Document.Status.ACCEPTED]
    current = [d for d in accepted if d.valid_until is None or d.valid_until >= today]
    if current:
        ends = [d.valid_until for d in current]
        end = None if None in ends else max(e for e in ends if e is not None)
        state = "vencendo" if end is not None and end <= soon else "valido"
    elif any(d.status == Document.Status.PENDING for d in docs):
        state, end = "pendente", None
    elif accepted:
        state, end = "vencido", max(d.valid_until for d in accepted if d.valid_until is not None)
    elif docs:
        state, end = "recusado", None
    else:
        state, end = "ausente", None
    return Row(item, state, STATE_LABELS[state], valid_until=end, documents=docs)
