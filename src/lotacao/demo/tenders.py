"""Demo tenders: in Recife (Lei 16.856/2003, art. 2º, § 1º: the permits by licitação), one call
(edital) for a place on the first line, its window open around today, with two applications by
new applicants whose documents the law lists are accepted (so the permits' eligibility passes).
The law sets no criterion, so all tie and the edital's clause gives the public draw. Idempotent:
a jurisdiction with calls is left as it is."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.files.base import ContentFile

from lotacao.core.models import Jurisdiction
from lotacao.core.sample_ids import sample_cpf
from lotacao.demo.base import PLATE_PREFIX, REASON
from lotacao.demo.documents import pdf_bytes
from lotacao.documents import services as documents
from lotacao.documents.rules import document_types
from lotacao.registry import services as registry
from lotacao.registry.models import Holder, Line, Person
from lotacao.tenders import services
from lotacao.tenders.models import Call

CODE = "recife"
APPLICANTS = ("Joana Batista Ramos", "Severino Alves Cordeiro")


def load(today: dt.date, summary: Any) -> None:
    jurisdiction = Jurisdiction.objects.filter(code=CODE, active=True).first()
    if jurisdiction is None:
        return
    if Call.unscoped.filter(jurisdiction=jurisdiction).exists():
        summary.existing += 1
        return
    line = Line.unscoped.filter(jurisdiction=jurisdiction, active=True).order_by("code").first()
    if line is None:
        return
    opens = today - dt.timedelta(days=5)
    call = services.create_call(
        actor=None,
        jurisdiction=jurisdiction,
        number=f"1/{opens.year}",
        subject=f"Uma vaga de permissão na linha {line.code}",
        line=line,
        places=1,
        opens_on=opens,
        closes_on=opens + dt.timedelta(days=9),
        tie_break_clause="Item 9 do edital: sorteio público entre os empatados, com semente publicada",
        reason=REASON,
    )
    services.open_call(actor=None, call=call, reason=REASON, on=opens)
    for n, name in enumerate(APPLICANTS):
        holder, vehicle = _applicant(jurisdiction, n, name, today)
        services.file_application(
            actor=None, call=call, holder=holder, vehicle=vehicle, reason=REASON, on=today
        )
    summary.created += 1


def _applicant(jurisdiction: Jurisdiction, n: int, name: str, today: dt.date) -> tuple[Holder, Any]:
    """A new person with the documents the law lists accepted (the CNH typed on the record and its
    file reviewed), registered as holder, and a van."""
    cpf = sample_cpf(100_700_000 + n)
    person = Person.unscoped.filter(jurisdiction=jurisdiction, cpf=cpf).first() or registry.create_person(
        actor=None,
        jurisdiction=jurisdiction,
        cpf=cpf,
        full_name=name,
        birth_date=dt.date(1982 + n, 7, 12),
        cnh_number=f"{70_000_000_000 + n:011d}",
        cnh_category="D",
        cnh_expiry=today + dt.timedelta(days=3 * 365),
        city=jurisdiction.name,
        state=jurisdiction.state,
        reason=REASON,
    )
    holder = Holder.unscoped.filter(person=person).first() or registry.register_holder(
        actor=None, person=person, reason=REASON
    )
    for index, (code, requirement) in enumerate(document_types(CODE, today).items()):
        document = documents.upload_document(
            actor=None,
            person=person,
            code=code,
            file=ContentFile(pdf_bytes(f"{requirement.label} - {name}"), name="documento.pdf"),
            issued_on=today - dt.timedelta(days=30 + index),
            valid_until=today + dt.timedelta(days=365) if requirement.expires else None,
            reason=REASON,
            on=today,
        )
        documents.review_document(actor=None, document=document, accepted=True)
    vehicle = registry.create_vehicle(
        actor=None,
        jurisdiction=jurisdiction,
        plate=f"{PLATE_PREFIX[CODE]}7T{n:02d}",
        manufacture_year=2022,
        category="van",
        seats=16,
        doors=4,
        holder=holder,
        reason=REASON,
    )
    return holder, vehicle
