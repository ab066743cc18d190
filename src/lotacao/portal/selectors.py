"""What the holder's home and `GET /api/portal/summary` show: what they must do and by when (each
deadline with its article, from the engine or from the record that carries the law's citation),
what they owe (the one ledger, `billing.ledger.debts`), and their permits, vehicles, agents,
documents and notices — a chartering company's CRC, fleet and trips instead of permits.

Every row is read for one holder, the signed-in one (the views pass `access.holder_id`); nothing
here takes an id from the request.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse

from lotacao.billing.ledger.debts import Debt, open_debts, payable_total
from lotacao.chartering.models import CharteringCompany
from lotacao.chartering.rules import regulates_chartering
from lotacao.core.formats import br_date
from lotacao.core.law import entry, pack_for
from lotacao.core.models import Jurisdiction
from lotacao.core.vehicle_verdict import has_permits
from lotacao.documents.models import Document
from lotacao.duties import selectors as duties
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import Fine, InfractionNotice
from lotacao.enforcement.sanctions.fine_payment import paid_before_appeal_deadline
from lotacao.holder_requests import selectors as holder_requests
from lotacao.inspections.models import InsurancePolicy, IrregularityNotice, Seal
from lotacao.permits import rules as permit_rules
from lotacao.permits.models import Permit, PermitAgent
from lotacao.registry.models import Holder, Vehicle

HORIZON_DAYS = 120  # documents, seals, insurance and terms expiring within this many days (or past)
FINAL = (InfractionNotice.Status.ANNULLED, InfractionNotice.Status.ARCHIVED)


@dataclass(frozen=True)
class Deadline:
    what: str
    due: dt.date | None
    citation: str
    url: str = ""
    late: bool = False


@dataclass
class Summary:
    holder: Holder
    jurisdiction: Jurisdiction
    on: dt.date
    chartering: bool
    debts: list[Debt] = field(default_factory=list)
    deadlines: list[Deadline] = field(default_factory=list)
    permits: list[Permit] = field(default_factory=list)
    vehicles: list[Vehicle] = field(default_factory=list)
    agents: list[PermitAgent] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    notices: list[dict[str, Any]] = field(default_factory=list)
    company: dict[str, Any] | None = None
    requests: list[Any] = field(default_factory=list)  # holder_requests.selectors.OpenRequest

    @property
    def payable_total(self) -> Any:
        return payable_total(self.debts)

    @property
    def unpriced(self) -> list[Debt]:
        return [d for d in self.debts if d.amount is None]


def _law_cite(code: str, cite: Any) -> str:
    """Citations as one line, each once, with the law's name once in front ("Lei …, art. 70;
    art. 71"); a citation of another act keeps its own name."""
    raw = cite if isinstance(cite, list | tuple) else [cite] if cite else []
    law = pack_for(code).law
    own: list[str] = []
    other: list[str] = []
    for item in raw:
        text = str(item).strip()
        if not text:
            continue
        if text.startswith(f"{law}, "):
            own.append(text[len(law) + 2 :])
        elif text.lower().startswith(("lei ", "decreto", "resolução", "portaria")):
            other.append(text)
        else:
            own.extend(part.strip() for part in text.split(";") if part.strip())
    parts = [f"{law}, {'; '.join(dict.fromkeys(own))}"] if own else []
    return "; ".join(parts + list(dict.fromkeys(other)))


def _soon(day: dt.date | None, on: dt.date) -> bool:
    return day is not None and day <= on + dt.timedelta(days=HORIZON_DAYS)


def _notice_deadlines(code: str, notices: list[InfractionNotice], on: dt.date) -> list[Deadline]:
    found = []
    for notice in notices:
        stage = current_stage(notice, on)
        if stage.instance is None or stage.blocked or stage.due is None:
            continue
        url = reverse("enforcement:notice", args=[notice.pk]) + "#processo"
        name = str(stage.instance.get("name") or "Defesa ou recurso")
        found.append(
            Deadline(
                what=f"{name} contra o auto {notice.number}",
                due=stage.due,
                citation=_law_cite(code, stage.citations),
                url=url,
                late=stage.due < on,
            )
        )
        paid_first = paid_before_appeal_deadline(notice, str(stage.instance.get("id")))
        if not paid_first and paid_first.deadline is not None:
            cite = next((c for c in paid_first.citations if c.startswith(pack_for(code).law)), "")
            found.append(
                Deadline(
                    what=(
                        f"Pagar a multa do auto {notice.number} para o recurso ser julgado"
                        if paid_first.admits_before
                        else f"Pagar a multa do auto {notice.number} antes de recorrer"
                    ),
                    due=paid_first.deadline,
                    citation=cite or _law_cite(code, list(paid_first.citations)),
                    url=url,
                    late=paid_first.deadline < on,
                )
            )
    return found


def _fine_deadlines(code: str, holder: Holder, on: dt.date) -> list[Deadline]:
    fines = Fine.unscoped.filter(holder=holder, status=Fine.Status.OPEN, due_on__isnull=False)
    return [
        Deadline(
            what=f"Pagar a multa do auto {fine.notice.number}",
            due=fine.due_on,
            citation=_law_cite(code, fine.due_citations) or fine.due_explanation,
            url=reverse("enforcement:notice", args=[fine.notice_id]) + "#multa",
            late=fine.due_on is not None and fine.due_on < on,
        )
        for fine in fines.select_related("notice").order_by("due_on")
    ]


def _permit_deadlines(code: str, permits: list[Permit], on: dt.date) -> list[Deadline]:
    found = []
    for permit in permits:
        if permit.status not in Permit.LIVE or permit.valid_until is None:
            continue
        url = reverse("permits:detail", args=[permit.pk])
        rule = entry(code, "permit.renewal_request_deadline", on)
        if rule is not None and rule.status == "value":
            last_day = permit_rules.subtract(permit.valid_until, rule.value)
            if _soon(last_day, on) and last_day >= on:
                found.append(
                    Deadline(
                        what=f"Pedir a prorrogação da permissão nº {permit.number}",
                        due=last_day,
                        citation=_law_cite(code, rule.citation),
                        url=url,
                    )
                )
        if _soon(permit.valid_until, on):
            found.append(
                Deadline(
                    what=f"Permissão nº {permit.number} vence",
                    due=permit.valid_until,
                    citation=_law_cite(code, permit.term_citation),
                    url=url,
                    late=permit.valid_until < on,
                )
            )
    return found


def _vehicle_deadlines(code: str, vehicles: list[Vehicle], on: dt.date) -> list[Deadline]:
    found = []
    for vehicle in vehicles:
        seal = Seal.unscoped.filter(vehicle=vehicle).order_by("-valid_until").first()
        if seal is not None and _soon(seal.valid_until, on):
            found.append(
                Deadline(
                    what=f"Vistoria do veículo {vehicle.plate_display} (selo vence)",
                    due=seal.valid_until,
                    citation=_law_cite(code, seal.citations),
                    late=seal.valid_until < on,
                )
            )
        policy = InsurancePolicy.unscoped.filter(vehicle=vehicle).order_by("-valid_until").first()
        if policy is not None and _soon(policy.valid_until, on):
            found.append(
                Deadline(
                    what=f"Renovar o seguro do veículo {vehicle.plate_display}",
                    due=policy.valid_until,
                    citation=_law_cite(code, policy.citations),
                    late=policy.valid_until < on,
                )
            )
        for notice in IrregularityNotice.unscoped.filter(vehicle=vehicle, resolved_on__isnull=True):
            if notice.representation_due is None:
                continue
            found.append(
                Deadline(
                    what=f"Reapresentar o veículo {vehicle.plate_display} (notificação {notice.number})",
                    due=notice.representation_due,
                    citation=_law_cite(code, notice.deadline_citation or notice.citations),
                    late=notice.representation_due < on,
                )
            )
    return found


def holder_documents(holder: Holder) -> QuerySet[Document]:
    """The holder's own documents: theirs as a person or company, and their vehicles'."""
    owner = Q(vehicle__holder=holder)
    if holder.person_id is not None:
        owner |= Q(person_id=holder.person_id)
    if holder.company_id is not None:
        owner |= Q(company_id=holder.company_id)
    return Document.unscoped.filter(owner, jurisdiction_id=holder.jurisdiction_id)


def _document_deadlines(code: str, documents: list[Document], on: dt.date) -> list[Deadline]:
    newest: dict[tuple[str, str], Document] = {}
    for doc in documents:
        if doc.status != Document.Status.ACCEPTED or doc.valid_until is None:
            continue
        owner = f"{doc.person_id}-{doc.company_id}-{doc.vehicle_id}"
        kept = newest.get((doc.code, owner))
        if kept is None or (kept.valid_until or on) < doc.valid_until:
            newest[(doc.code, owner)] = doc
    return [
        Deadline(
            what=f"Renovar: {doc.label}",
            due=doc.valid_until,
            citation=_law_cite(code, doc.citation),
            late=doc.valid_until is not None and doc.valid_until < on,
        )
        for doc in newest.values()
        if _soon(doc.valid_until, on)
    ]


def _company_deadlines(code: str, company: dict[str, Any], on: dt.date) -> list[Deadline]:
    found = []
    crc = company["state"].crc
    if crc is not None and _soon(crc.valid_until, on):
        found.append(
            Deadline(
                what=f"CRC nº {crc.number} vence: pedir a renovação",
                due=crc.valid_until,
                citation=_law_cite(code, crc.citations),
                url=reverse("chartering:company", args=[company["company"].pk]),
                late=crc.valid_until < on,
            )
        )
    for application in company["applications"]:
        if application.status == "deficient" and application.complement_due is not None:
            found.append(
                Deadline(
                    what="Complementar os documentos do pedido de CRC",
                    due=application.complement_due,
                    citation=_law_cite(code, application.citations),
                    url=reverse("chartering:application", args=[application.pk]),
                    late=application.complement_due < on,
                )
            )
    return found


def _notice_rows(notices: list[InfractionNotice], on: dt.date) -> list[dict[str, Any]]:
    rows = []
    for notice in notices:
        stage = current_stage(notice, on)
        rows.append(
            {
                "notice": notice,
                "status": notice.get_status_display(),
                "next": (
                    f"{stage.instance.get('name')} até {br_date(stage.due)}"
                    if stage.instance is not None and not stage.blocked and stage.due is not None
                    else stage.blocked
                ),
            }
        )
    return rows


def summary(holder: Holder, on: dt.date) -> Summary:
    """The holder's summary on `on` (every query filtered by this holder)."""
    code = holder.jurisdiction_id
    jurisdiction = Jurisdiction.unscoped.get(pk=code)
    company_row = CharteringCompany.unscoped.filter(holder=holder).first()
    chartering = company_row is not None or (bool(holder.company_id) and regulates_chartering(code))
    result = Summary(holder=holder, jurisdiction=jurisdiction, on=on, chartering=chartering)
    result.debts = open_debts(holder, on)
    result.vehicles = list(Vehicle.unscoped.filter(holder=holder).order_by("plate"))
    if has_permits(code) and not chartering:
        result.permits = list(
            Permit.unscoped.filter(holder=holder).select_related("line", "vehicle").order_by("-valid_until")
        )
        result.agents = list(
            PermitAgent.unscoped.filter(permit__holder=holder, ends_on__isnull=True)
            .select_related("person", "permit")
            .order_by("person__full_name")
        )
    result.documents = list(
        holder_documents(holder).select_related("vehicle").order_by("label", "-valid_until")
    )
    notices = list(
        InfractionNotice.unscoped.filter(holder=holder)
        .exclude(status__in=FINAL)
        .prefetch_related("decisions", "filings")
        .order_by("-drawn_up_at")[:30]
    )
    result.notices = _notice_rows(notices, on)
    deadlines = _notice_deadlines(code, notices, on) + _fine_deadlines(code, holder, on)
    deadlines += _permit_deadlines(code, result.permits, on)
    deadlines += _vehicle_deadlines(code, result.vehicles, on)
    deadlines += _document_deadlines(code, result.documents, on)
    if company_row is not None:
        from lotacao.chartering import selectors as chartering_selectors

        result.company = chartering_selectors.company_summary(company_row, on)
        deadlines += _company_deadlines(code, result.company, on)
    deadlines += _duty_deadlines(holder, on)
    result.deadlines = sorted(deadlines, key=lambda d: (d.due is None, d.due or on))
    if not chartering:
        result.requests = holder_requests.open_requests(holder)
    return result


def _duty_deadlines(holder: Holder, on: dt.date) -> list[Deadline]:
    """The operator's duties (lotacao.duties): periodic reports due, authorizations ending,
    post-accident inspections scheduled, each with the article that sets it."""
    return [
        Deadline(
            what=row["what"],
            due=row["due"],
            citation=row["citation"],
            url=row.get("url", ""),
            late=row["due"] is not None and row["due"] < on,
        )
        for row in duties.holder_duties(holder, on)
    ]
