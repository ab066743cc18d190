"""The CRC register (arts. 5 to 8): the company, its request with the legal clocks, the review of
documents per modality, issue, renewal and the nightly clocks (archiving, late renewals).

Services are keyword-only, atomic, validated (Portuguese messages naming the article) and audited;
a refusal writes nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, update_audited
from lotacao.chartering import fees, rules
from lotacao.chartering.models import CharteringCompany, Crc, CrcApplication, FleetVehicle, Sanction
from lotacao.chartering.status import crc_state, current_crc
from lotacao.core.formats import lower_first
from lotacao.documents.rules import requirements
from lotacao.documents.selectors import document_check
from lotacao.inspections import selectors as inspections_selectors
from lotacao.registry.models import Holder

DOCUMENTS = "chartering.crc_documents"


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


# --------------------------------------------------------------------------- company


@transaction.atomic
def register_company(*, actor: Any, holder: Holder, reason: str, regular_fleet: int = 0) -> CharteringCompany:
    """Open a holder's chartering record (a company, where the law regulates chartering)."""
    code = holder.jurisdiction_id
    if not rules.regulates_chartering(code):
        raise ValidationError("A lei desta jurisdição não regula o fretamento intermunicipal.")
    if holder.company_id is None:
        raise ValidationError("O CRC de fretamento é de pessoa jurídica (art. 3º, § 4º, e art. 5º, I).")
    if CharteringCompany.unscoped.filter(holder=holder).exists():
        raise ValidationError(f"{holder} já está no cadastro de fretamento.")
    if regular_fleet < 0:
        raise ValidationError("A frota do transporte regular não pode ser negativa.")
    company = CharteringCompany(jurisdiction_id=code, holder=holder, regular_fleet=regular_fleet)
    return create_audited(
        actor=actor, instance=company, reason=reason, action="chartering.company_registered"
    )


# --------------------------------------------------------------------------- documents


@dataclass
class DocumentStatus:
    complete: bool
    required: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    missing_parameters: list[str] = field(default_factory=list)


def required_documents(
    code: str, modalities: list[str], company_kind: str, on: dt.date
) -> tuple[list[str], str]:
    """The document codes the request needs: every company's, each modality's, the company kind's."""
    rule = rules.require(code, DOCUMENTS, on, "os documentos do requerimento do CRC")
    codes = list(rule.get("always", []))
    for modality in modalities:
        codes += rule.get("modalities", {}).get(modality, [])
    codes += rule.get("company_kinds", {}).get(company_kind, [])
    return list(dict.fromkeys(codes)), rules.citation(code, DOCUMENTS, on)


def documents_status(company: CharteringCompany, modalities: list[str], on: dt.date) -> DocumentStatus:
    """Whether the documents the request needs are present, accepted and valid (documents app)."""
    code = company.jurisdiction_id
    party = company.party
    codes, cite = required_documents(code, modalities, party.kind, on)
    check = document_check(jurisdiction_code=code, role="holder", company=party, on=on)
    known = {item.code: item for item in requirements(code, "holder", on).items}
    status = DocumentStatus(complete=True, required=codes, citations=[cite, *check.citations])
    status.missing_parameters = list(check.missing_parameters)
    for doc in codes:
        item = known.get(doc)
        status.labels[doc] = item.label if item is not None else doc
        if item is None:
            status.problems.append(
                f"O documento “{doc}” é exigido ({cite}) mas não consta da lista de documentos do "
                "permissionário: o gestor deve acrescentá-lo em Valores da lei."
            )
        elif doc in check.missing or doc in check.expired or doc in check.pending:
            status.problems += [line for line in check.explanation if line.startswith(item.label)]
    if status.missing_parameters:
        status.problems += check.explanation
    status.complete = not status.problems
    return status


# --------------------------------------------------------------------------- request and clocks


def _open_application(company: CharteringCompany) -> CrcApplication | None:
    return CrcApplication.unscoped.filter(company=company, status__in=CrcApplication.OPEN).first()


@transaction.atomic
def file_application(
    *, actor: Any, company: CharteringCompany, modalities: list[str], reason: str, on: dt.date | None = None
) -> CrcApplication:
    """File a CRC request (first, or renewal when the company holds one): the issue deadline runs
    from the first business day after filing (art. 6); a renewal filed less than 30 days before the
    CRC's expiry is late and cancellation is proposed to the manager (art. 8)."""
    day = _today(on)
    code = company.jurisdiction_id
    chosen = rules.check_modalities(code, modalities, day)
    CharteringCompany.unscoped.select_for_update().filter(pk=company.pk).first()
    if _open_application(company) is not None:
        raise ValidationError("Já existe um requerimento de CRC em análise para esta empresa.")
    state = crc_state(company, day)
    if state.status == "suspended":
        raise ValidationError(f"Requerimento recusado: {state.reasons[0]}")
    if state.status == "revoked":
        _refuse_after_revocation(state, day)
    if state.status == "cancelled" and state.sanction is not None:
        raise ValidationError(
            f"Requerimento recusado: o novo CRC só pode ser pedido ao fim do prazo do cancelamento "
            f"({rules.pt(state.sanction.ends_on)}) e da comprovação de que a irregularidade foi sanada "
            f"({rules.citation(code, 'chartering.crc_sanctions', day)}; art. 30, § 1º)."
        )
    issue = rules.deadline(code, "crc_issue", day)
    application = CrcApplication(
        jurisdiction_id=code,
        company=company,
        modalities=chosen,
        filed_on=day,
        issue_due=dt.date.fromisoformat(issue["due"]),
        citations=list(issue["citations"]),
        explanation=str(issue["explanation"]),
    )
    renewing = state.crc if state.status in ("valid", "expired") else None
    if renewing is not None and state.status == "valid":
        application.kind = CrcApplication.Kind.RENEWAL
        application.renewal_of = renewing
        limit = rules.deadline(code, "crc_renewal", renewing.valid_until)
        application.citations += limit["citations"]
        application.late_renewal = day > dt.date.fromisoformat(limit["due"])
    create_audited(actor=actor, instance=application, reason=reason, action="chartering.crc_filed")
    if application.late_renewal:
        assert renewing is not None
        propose_late_renewal_cancellation(actor=actor, crc=renewing, on=day, filed_on=day)
    return application


def _refuse_after_revocation(state: Any, day: dt.date) -> None:
    """After a cassação (art. 35) the text sets no term for a new CRC: by the pack's reading none is
    issued, unless the agency set a ban in years (`chartering.revocation_reentry`, Valores da lei)."""
    crc = state.crc
    code = crc.jurisdiction_id
    rule = rules.value(code, "chartering.revocation_reentry", day) or {}
    cite = rules.citation(code, "chartering.revocation_reentry", day) or rules.cite(code, "art. 35")
    years = rule.get("ban_years")
    if years is None:
        raise ValidationError(
            f"Requerimento recusado: {state.reasons[0]} A lei não fixa prazo para um novo CRC depois "
            f"da cassação ({cite}); pela leitura adotada, a empresa cassada não obtém novo CRC enquanto "
            "o órgão não fixar um prazo de impedimento em Valores da lei."
        )
    revoked_on = crc.revoked_on
    try:
        until = revoked_on.replace(year=revoked_on.year + int(years))
    except ValueError:  # 29/02
        until = revoked_on.replace(year=revoked_on.year + int(years), day=28)
    if day < until:
        raise ValidationError(
            f"Requerimento recusado: {state.reasons[0]} Um novo CRC só pode ser pedido a partir de "
            f"{rules.pt(until)}, {int(years)} {'ano' if int(years) == 1 else 'anos'} depois da cassação "
            f"({cite})."
        )


def propose_late_renewal_cancellation(
    *, actor: Any, crc: Crc, on: dt.date, filed_on: dt.date | None = None
) -> Sanction | None:
    """Propose to the manager the cancellation art. 8 attaches to a late renewal (once per CRC)."""
    if (
        Sanction.unscoped.filter(crc=crc, kind=Sanction.Kind.CANCELLATION)
        .exclude(status=Sanction.Status.DISMISSED)
        .exists()
    ):
        return None
    code = crc.jurisdiction_id
    limit = rules.deadline(code, "crc_renewal", crc.valid_until)
    due = dt.date.fromisoformat(limit["due"])
    what = f"pedida em {rules.pt(filed_on)}" if filed_on else "não pedida"
    grounds = (
        f"Renovação do CRC {crc.number} {what}; devia ser pedida até {rules.pt(due)}, 30 dias antes do "
        f"vencimento em {rules.pt(crc.valid_until)}, sob pena de cancelamento ({'; '.join(limit['citations'])})."  # noqa: E501
    )
    sanction = Sanction(
        jurisdiction_id=code,
        company_id=crc.company_id,
        crc=crc,
        kind=Sanction.Kind.CANCELLATION,
        grounds=grounds,
        citations=list(limit["citations"]),
    )
    return create_audited(
        actor=actor, instance=sanction, reason=grounds, action="chartering.sanction_proposed"
    )


@transaction.atomic
def notify_deficiency(
    *, actor: Any, application: CrcApplication, missing: str, reason: str, on: dt.date | None = None
) -> CrcApplication:
    """Notify the company to complete the documents within 30 business days (art. 6, § 1º)."""
    day = _today(on)
    application = CrcApplication.unscoped.select_for_update().get(pk=application.pk)
    if application.status != CrcApplication.Status.FILED:
        raise ValidationError(f"O requerimento está {lower_first(application.get_status_display())}.")
    if not missing.strip():
        raise ValidationError("Diga quais documentos faltam ou precisam ser corrigidos.")
    due = rules.deadline(application.jurisdiction_id, "crc_complement", day)
    return update_audited(
        actor=actor,
        instance=application,
        changes={
            "status": CrcApplication.Status.DEFICIENT,
            "deficiency": missing.strip(),
            "deficiency_notified_on": day,
            "complement_due": dt.date.fromisoformat(due["due"]),
            "citations": list(dict.fromkeys([*application.citations, *due["citations"]])),
        },
        reason=reason,
        action="chartering.crc_deficiency",
    )


@transaction.atomic
def record_completion(
    *, actor: Any, application: CrcApplication, reason: str, on: dt.date | None = None
) -> CrcApplication:
    """The company completed the documents in time: the request goes back to analysis."""
    day = _today(on)
    application = CrcApplication.unscoped.select_for_update().get(pk=application.pk)
    if application.status != CrcApplication.Status.DEFICIENT:
        raise ValidationError("Não há complementação pendente neste requerimento.")
    assert application.complement_due is not None
    if day > application.complement_due:
        raise ValidationError(
            f"O prazo de complementação venceu em {rules.pt(application.complement_due)}: o requerimento "
            f"é arquivado ({rules.citation(application.jurisdiction_id, 'deadline.crc_complement', day)})."
        )
    return update_audited(
        actor=actor,
        instance=application,
        changes={"status": CrcApplication.Status.FILED, "completed_on": day},
        reason=reason,
        action="chartering.crc_completed",
    )


@transaction.atomic
def refuse_application(
    *, actor: Any, application: CrcApplication, reason: str, on: dt.date | None = None
) -> CrcApplication:
    application = CrcApplication.unscoped.select_for_update().get(pk=application.pk)
    if application.status not in CrcApplication.OPEN:
        raise ValidationError(f"O requerimento está {lower_first(application.get_status_display())}.")
    if not reason.strip():
        raise ValidationError("Informe os motivos do indeferimento.")
    return update_audited(
        actor=actor,
        instance=application,
        changes={
            "status": CrcApplication.Status.REFUSED,
            "closed_on": _today(on),
            "closing_reason": reason.strip(),
        },
        reason=reason,
        action="chartering.crc_refused",
    )


def earliest_policy_end(company: CharteringCompany, on: dt.date) -> dt.date | None:
    """The end of the policy that runs out first among the fleet's vehicles in force on `on`."""
    ends = []
    for entry in FleetVehicle.unscoped.filter(company=company, removed_on__isnull=True).select_related(
        "vehicle"
    ):
        policy = inspections_selectors.current_insurance(entry.vehicle, on)
        if policy is not None:
            ends.append(policy.valid_until)
    return min(ends) if ends else None


@transaction.atomic
def _refuse_during_sanction(company: CharteringCompany, application: CrcApplication, day: dt.date) -> None:
    """No CRC is issued while the company's is suspended, cancelled or revoked (art. 23, par. único):
    a request filed before the sanction waits for its end, and after a cancellation only a request
    filed after it can give the new CRC. Otherwise the new CRC would carry no sanction and erase it."""
    state = crc_state(company, day)
    code = company.jurisdiction_id
    cite = rules.cite(code, "art. 23, parágrafo único")
    if state.status == "suspended":
        raise ValidationError(
            f"CRC não emitido: {state.reasons[0]} Durante a sanção não se emite novo CRC ({cite})."
        )
    if state.status == "revoked":
        assert state.crc is not None and state.crc.revoked_on is not None
        _refuse_after_revocation(state, day)
        if application.filed_on <= state.crc.revoked_on:
            raise ValidationError(
                f"CRC não emitido: este requerimento foi feito antes da cassação do CRC {state.crc.number}; "
                f"é preciso requerer novo CRC ({rules.cite(code, 'art. 35')})."
            )
    if state.status == "cancelled":
        assert state.crc is not None and state.crc.cancelled_on is not None
        if state.sanction is not None:
            raise ValidationError(
                f"CRC não emitido: {state.reasons[0]} O novo CRC só pode ser emitido ao fim do prazo do "
                f"cancelamento e da comprovação de que a irregularidade foi sanada ({cite}; art. 30, § 1º)."
            )
        if application.filed_on <= state.crc.cancelled_on:
            raise ValidationError(
                f"CRC não emitido: este requerimento foi feito antes do cancelamento do CRC "
                f"{state.crc.number}; ao fim do cancelamento é preciso requerer novo CRC ({cite})."
            )


@transaction.atomic
def issue_crc(*, actor: Any, application: CrcApplication, reason: str, on: dt.date | None = None) -> Crc:
    """Issue the CRC: documents complete for the modalities, the fleet's minimum own vehicles, the
    validity of one year and never beyond the policy (art. 8)."""
    day = _today(on)
    application = CrcApplication.unscoped.select_for_update().select_related("company").get(pk=application.pk)
    if application.status != CrcApplication.Status.FILED:
        raise ValidationError(f"O requerimento está {lower_first(application.get_status_display())}.")
    company = application.company
    code = company.jurisdiction_id
    _refuse_during_sanction(company, application, day)
    docs = documents_status(company, list(application.modalities), day)
    if not docs.complete:
        raise ValidationError(["CRC não emitido: documentação incompleta (art. 5º).", *docs.problems])
    from lotacao.chartering.fleet import fleet_problems

    problems = fleet_problems(company, list(application.modalities), day)
    if problems:
        raise ValidationError(["CRC não emitido: a frota não atende à lei.", *problems])
    validity = rules.crc_validity(code, day, earliest_policy_end(company, day))
    year = day.year
    count = Crc.unscoped.filter(jurisdiction_id=code, issued_on__year=year).count() + 1
    crc = Crc(
        jurisdiction_id=code,
        company=company,
        application=application,
        number=f"CRC-{year}-{count:05d}",
        modalities=list(application.modalities),
        issued_on=day,
        valid_until=validity.until,
        limited_by_policy=validity.by_policy,
        citations=list(dict.fromkeys([validity.citation, *docs.citations, *application.citations])),
        issued_by=actor if getattr(actor, "pk", None) else None,
    )
    create_audited(actor=actor, instance=crc, reason=reason, action="chartering.crc_issued")
    fees.enrol(actor=actor, crc=crc, on=day, reason=f"CRC {crc.number} emitido: {reason}")
    if application.renewal_of is not None:
        update_audited(
            actor=actor,
            instance=application.renewal_of,
            changes={"superseded_on": day},
            reason=f"Renovado pelo CRC {crc.number}",
            action="chartering.crc_superseded",
        )
    update_audited(
        actor=actor,
        instance=application,
        changes={"status": CrcApplication.Status.ISSUED, "closed_on": day},
        reason=reason,
        action="chartering.crc_application_closed",
    )
    return crc


# --------------------------------------------------------------------------- nightly clocks


@transaction.atomic
def run_clocks(*, today: dt.date) -> dict[str, int]:
    """Archive requests whose completion deadline passed (art. 6, § 1º) and propose cancellation of
    CRCs whose renewal was not filed 30 days before expiry (art. 8). Audited as the system."""
    archived = 0
    late = CrcApplication.unscoped.select_for_update().filter(
        status=CrcApplication.Status.DEFICIENT, complement_due__lt=today
    )
    for application in late:
        cite = rules.citation(application.jurisdiction_id, "deadline.crc_complement", today)
        update_audited(
            actor=None,
            instance=application,
            changes={
                "status": CrcApplication.Status.ARCHIVED,
                "closed_on": today,
                "closing_reason": f"Documentos não complementados até {rules.pt(application.complement_due)} ({cite}).",  # noqa: E501
            },
            reason=f"Arquivamento por falta de complementação no prazo ({cite})",
            action="chartering.crc_archived",
        )
        archived += 1
    proposed = 0
    for crc in Crc.unscoped.filter(
        valid_until__gte=today - dt.timedelta(days=366),
        superseded_on__isnull=True,
        cancelled_on__isnull=True,
        revoked_on__isnull=True,
    ).select_related("company"):
        if not rules.regulates_chartering(crc.jurisdiction_id) or current_crc(crc.company, today) != crc:
            continue
        due = dt.date.fromisoformat(
            rules.deadline(crc.jurisdiction_id, "crc_renewal", crc.valid_until)["due"]
        )
        if today <= due or CrcApplication.unscoped.filter(renewal_of=crc).exists():
            continue
        proposed += propose_late_renewal_cancellation(actor=None, crc=crc, on=today) is not None
    return {"arquivados": archived, "cancelamentos_propostos": proposed}


def record_opening(*, actor: Any, instance: Any, action: str, reason: str) -> None:
    """Audit a read the law or the LGPD makes worth recording (passenger lists, manifests)."""
    record(actor=actor, action=action, instance=instance, reason=reason)
