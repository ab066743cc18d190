"""Work-queue provider: documents and CNHs expiring within `horizon` days (or expired), and
documents waiting for a clerk's review. Three set-based queries, no per-row queries."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from lotacao.core.formats import br_date
from lotacao.documents.models import Document
from lotacao.registry.models import Person
from lotacao.workqueue.services import WorkItemSpec

ACCEPTED = Document.Status.ACCEPTED
PENDING = Document.Status.PENDING


def _url(name: str, pk: int) -> str:
    return reverse(name, args=[pk])


def _successor(owner: str) -> Exists:
    """A newer document of the same owner and type that replaces this one (in review, or valid longer)."""
    return Exists(
        Document.unscoped.filter(**{owner: OuterRef(owner), "code": OuterRef("code")})
        .filter(
            Q(status=PENDING)
            | Q(status=ACCEPTED, valid_until__isnull=True)
            | Q(status=ACCEPTED, valid_until__gt=OuterRef("valid_until"))
        )
        .exclude(pk=OuterRef("pk"))
    )


def items(today: dt.date, horizon: int) -> Iterator[WorkItemSpec]:
    limit = today + dt.timedelta(days=horizon)
    base_doc = _url("documents:document", 0)
    base_person = _url("people:person", 0)

    def doc_url(pk: int) -> str:
        return base_doc.replace("/0/", f"/{pk}/")

    expiring = (
        Document.unscoped.filter(status=ACCEPTED, valid_until__lte=limit)
        .exclude(_successor("person_id") | _successor("company_id") | _successor("vehicle_id"))
        .values_list(
            "pk",
            "jurisdiction_id",
            "label",
            "valid_until",
            "person__full_name",
            "company__legal_name",
            "vehicle__plate",
        )
    )
    for pk, jurisdiction, label, valid_until, person, company, plate in expiring.iterator(chunk_size=2000):
        owner = person or company or plate or ""
        verb = "venceu" if valid_until is not None and valid_until < today else "vence"
        yield WorkItemSpec(
            jurisdiction_id=jurisdiction,
            kind="document.expiring",
            key=str(pk),
            title=f"{label} de {owner} {verb} em {br_date(valid_until)}"[:300],
            due_on=valid_until,
            url=doc_url(pk),
        )

    pending = Document.unscoped.filter(status=PENDING).values_list(
        "pk",
        "jurisdiction_id",
        "label",
        "uploaded_at",
        "person__full_name",
        "company__legal_name",
        "vehicle__plate",
    )
    for pk, jurisdiction, label, uploaded_at, person, company, plate in pending.iterator(chunk_size=2000):
        owner = person or company or plate or ""
        yield WorkItemSpec(
            jurisdiction_id=jurisdiction,
            kind="document.review",
            key=str(pk),
            title=f"Analisar {label} de {owner}"[:300],
            due_on=uploaded_at.date(),
            url=doc_url(pk),
        )

    cnhs = (
        Person.unscoped.filter(cnh_expiry__lte=limit)
        .exclude(cnh_number="")
        .values_list("pk", "jurisdiction_id", "full_name", "cnh_expiry")
    )
    for pk, jurisdiction, name, expiry in cnhs.iterator(chunk_size=2000):
        verb = "venceu" if expiry is not None and expiry < today else "vence"
        yield WorkItemSpec(
            jurisdiction_id=jurisdiction,
            kind="person.cnh",
            key=str(pk),
            title=f"CNH de {name} {verb} em {br_date(expiry)}"[:300],
            due_on=expiry,
            url=base_person.replace("/0/", f"/{pk}/"),
        )
