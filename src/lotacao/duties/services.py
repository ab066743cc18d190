"""Writes of the operator duties: keyword-only, validated in Portuguese, saved and audited in one
transaction (lotacao.audit.services).

- `report_incident`: an accident or another fact, its deadline counted by the engine from the day
  it occurred (where the jurisdiction is), late when reported after it; a late report suggests the
  law's infraction to staff (work queue), and an accident where the law requires the vehicle's
  inspection before it operates again (Maricá art. 40, IX; Esteio Anexo II, III-11) schedules a
  post-accident inspection.
- `request_authorization` / `decide_authorization` / `revoke_authorization` /
  `withdraw_authorization`: the register of prior authorizations, through `states`; a granted
  advertising authorization issues the law's monthly fee through billing (Recife art. 25, § 1º,
  VIII), and every decision queues a message to the holder (outbox).
- `deliver_report`: one period of a periodic report, late when after its due date.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.core.law import next_business_day_after
from lotacao.core.models import Jurisdiction
from lotacao.core.uploads import check_content
from lotacao.documents.services import detect_content_type, max_upload_bytes
from lotacao.duties import rules, states
from lotacao.duties.models import Authorization, IncidentPhoto, IncidentReport, PeriodicReport
from lotacao.registry.models import Holder, Vehicle
from lotacao.workqueue.services import WorkItemSpec, open_item

MAX_PHOTOS = 6
PHOTO_TYPES = ("image/jpeg", "image/png")
REPORT_TYPES = ("application/pdf", "image/jpeg", "image/png")
LATE_INCIDENT_KIND = "duties.incident_late"
INSPECTION_KIND = "duties.post_accident_inspection"
AUTHORIZATION_KIND = "duties.authorization_requested"
LATE_REPORT_KIND = "duties.report_late"
MAX_AUTHORIZATION_DAYS = 366 * 5


def _need(text: str, message: str) -> str:
    if not (text or "").strip():
        raise ValidationError(message)
    return text.strip()


def local_day(jurisdiction: Jurisdiction, moment: dt.datetime) -> dt.date:
    """The day of `moment` where the jurisdiction is."""
    return moment.astimezone(ZoneInfo(jurisdiction.timezone)).date()


def _checked_file(file: Any, allowed: tuple[str, ...], what: str) -> tuple[str, int, str]:
    """(content type, size, sha256) of an upload, checked by its content (lotacao.core.uploads)."""
    name = str(getattr(file, "name", "") or what)[-80:]
    size = int(getattr(file, "size", 0) or 0)
    if size <= 0:
        raise ValidationError(f"O arquivo {name} está vazio.")
    limit = max_upload_bytes()
    if size > limit:
        raise ValidationError(f"O arquivo {name} passa do limite de {limit // (1024 * 1024)} MB.")
    kind = detect_content_type(file)
    if kind not in allowed:
        words = "JPEG ou PNG" if "application/pdf" not in allowed else "PDF, JPEG ou PNG"
        raise ValidationError(f"O arquivo {name} não é {words} (o conteúdo é o que conta, não o nome).")
    check_content(file, kind, name=name)
    file.seek(0)
    digest = hashlib.sha256()
    for chunk in file.chunks():
        digest.update(chunk)
    file.seek(0)
    return kind, size, digest.hexdigest()


def _protocol(jurisdiction: Jurisdiction, year: int) -> str:
    """OC-<year>-<JUR>-<seq>: numbered per jurisdiction and year under the jurisdiction's row lock."""
    Jurisdiction.objects.select_for_update().filter(pk=jurisdiction.pk).first()
    prefix = f"OC-{year}-{jurisdiction.code[:3].upper()}-"
    n = IncidentReport.unscoped.filter(protocol__startswith=prefix).count() + 1
    return f"{prefix}{n:06d}"


# --------------------------------------------------------------------------- incident reports


@transaction.atomic
def report_incident(
    *,
    actor: Any,
    holder: Holder,
    vehicle: Vehicle,
    kind: str,
    occurred_at: dt.datetime,
    description: str,
    place: str = "",
    victims: bool = False,
    vehicle_withdrawn: bool = False,
    photos: list[Any] | None = None,
    source: str = IncidentReport.Source.HOLDER,
    reported_at: dt.datetime | None = None,
    reason: str = "Comunicação de ocorrência",
) -> IncidentReport:
    jurisdiction = Jurisdiction.objects.get(pk=holder.jurisdiction_id)
    code = jurisdiction.code
    if kind not in IncidentReport.Kind.values:
        raise ValidationError(
            "Informe se foi um acidente ou outro fato que interrompeu ou alterou o serviço."
        )
    if source not in IncidentReport.Source.values:
        raise ValidationError("Origem da comunicação desconhecida.")
    if vehicle.holder_id != holder.pk or vehicle.jurisdiction_id != code:
        raise ValidationError(f"O veículo {vehicle} não está cadastrado em nome deste permissionário.")
    if vehicle.deregistered_on is not None:
        raise ValidationError(
            f"O veículo {vehicle} foi baixado do serviço em {br_date(vehicle.deregistered_on)}."
        )
    text = _need(description, "Descreva o que aconteceu.")
    if timezone.is_naive(occurred_at):
        raise ValidationError("Informe a data e a hora do fato com o fuso horário.")
    now = reported_at or timezone.now()
    if occurred_at > now:
        raise ValidationError("A data e a hora do fato não podem ser futuras.")
    files = list(photos or [])
    if len(files) > MAX_PHOTOS:
        raise ValidationError(f"Envie no máximo {MAX_PHOTOS} fotos.")
    checked = [(f, *_checked_file(f, PHOTO_TYPES, "foto")) for f in files]
    occurred_on = local_day(jurisdiction, occurred_at)
    rule = rules.incident_rule(code, occurred_on) or {}
    reported_on = local_day(jurisdiction, now)
    if kind in rule:
        deadline = rules.incident_deadline(code, occurred_on)
        citations = [rules.cited(code, rule[kind])]
    else:
        # The law puts no such duty on the holder: the agency still takes the report as information,
        # with no deadline and nothing late (and no article to cite).
        what = lower_first(IncidentReport.Kind(kind).label)
        deadline = {
            "due": None,
            "explanation": f"A {rules.law_name(code)} não obriga a comunicação de {what} nem fixa prazo: "
            "o órgão gestor recebe o relato como informação.",
            "citations": [],
        }
        citations = []
    due = dt.date.fromisoformat(deadline["due"]) if deadline.get("due") else None
    late = due is not None and reported_on > due
    for citation in deadline.get("citations", []):
        if citation not in citations:
            citations.append(citation)
    needs_inspection = kind == IncidentReport.Kind.ACCIDENT and "inspection" in rule
    if needs_inspection:
        citations.append(rules.cited(code, rule["inspection"]))
    suggested = rules.suggested_infractions(code, rules.INCIDENT_INFRACTIONS, occurred_on) if late else []
    report = IncidentReport(
        jurisdiction_id=code,
        protocol=_protocol(jurisdiction, reported_on.year),
        holder=holder,
        vehicle=vehicle,
        kind=kind,
        occurred_at=occurred_at,
        reported_at=now,
        place=(place or "").strip()[:200],
        victims=bool(victims),
        vehicle_withdrawn=bool(vehicle_withdrawn),
        description=text,
        source=source,
        due_on=due,
        deadline_text=str(deadline.get("explanation", "")),
        late=late,
        citations=citations,
        suggested_infractions=suggested,
        recorded_by=actor if getattr(actor, "pk", None) is not None else None,
    )
    create_audited(actor=actor, instance=report, reason=reason, action="duties.incident_reported")
    for file, content_type, size, digest in checked:
        IncidentPhoto.unscoped.create(
            jurisdiction_id=code,
            report=report,
            file=file,
            content_type=content_type,
            size=size,
            sha256=digest,
        )
    if needs_inspection:
        _schedule_inspection(actor, report, reported_on)
    if late:
        open_item(late_incident_item(report), reported_on)
    return report


def _schedule_inspection(actor: Any, report: IncidentReport, day: dt.date) -> None:
    """The vehicle's inspection before it operates again, on the next business day; where it cannot
    be scheduled now (a debt blocks it), a work item asks staff to schedule it."""
    from lotacao.inspections.models import Inspection
    from lotacao.inspections.services.inspection import schedule_inspection

    when = next_business_day_after(report.jurisdiction_id, day)
    try:
        with transaction.atomic():
            inspection = schedule_inspection(
                actor=actor,
                vehicle=report.vehicle,
                scheduled_for=when,
                kind=Inspection.Kind.POST_ACCIDENT,
                reason=f"Vistoria antes do retorno à operação após o acidente ({report.protocol})",
                on=day,
            )
    except ValidationError:
        open_item(inspection_item(report), day)
        return
    report.inspection = inspection
    report.save(update_fields=["inspection"])


def late_incident_item(report: IncidentReport) -> WorkItemSpec:
    infractions = "; ".join(f"{i['citation']} — {i['description']}" for i in report.suggested_infractions)
    title = (
        f"Comunicação {report.protocol} ({report.vehicle}) feita fora do prazo, que venceu em "
        f"{br_date(report.due_on)}"
        + (f": infração sugerida {infractions}" if infractions else ": a lei não tipifica o atraso")
    )
    return WorkItemSpec(
        jurisdiction_id=report.jurisdiction_id,
        kind=LATE_INCIDENT_KIND,
        key=f"incident:{report.pk}",
        title=title[:300],
        due_on=report.due_on,
        url=f"/deveres/ocorrencias/{report.pk}/",
    )


def inspection_item(report: IncidentReport) -> WorkItemSpec:
    return WorkItemSpec(
        jurisdiction_id=report.jurisdiction_id,
        kind=INSPECTION_KIND,
        key=f"incident-inspection:{report.pk}",
        title=(
            f"Acidente {report.protocol}: agendar a vistoria do veículo {report.vehicle} antes do retorno "
            "à operação"
        )[:300],
        due_on=local_day(report.jurisdiction, report.reported_at),
        url=f"/deveres/ocorrencias/{report.pk}/",
    )


@transaction.atomic
def review_incident(*, actor: Any, report: IncidentReport, note: str, reason: str) -> IncidentReport:
    row = IncidentReport.unscoped.select_for_update().get(pk=report.pk)
    if row.reviewed_at is not None:
        raise ValidationError(f"A comunicação {row.protocol} já foi analisada.")
    return update_audited(
        actor=actor,
        instance=row,
        changes={"reviewed_at": timezone.now(), "review_note": _need(note, "Registre a análise.")},
        reason=_need(reason, "Informe o motivo."),
        action="duties.incident_reviewed",
    )


# --------------------------------------------------------------------------- authorizations


@transaction.atomic
def request_authorization(
    *,
    actor: Any,
    holder: Holder,
    kind: str,
    starts_on: dt.date,
    ends_on: dt.date,
    purpose: str,
    vehicle: Vehicle | None = None,
    reason: str = "Pedido de autorização prévia",
    today: dt.date | None = None,
) -> Authorization:
    code = holder.jurisdiction_id
    day = today or timezone.localdate()
    if kind not in Authorization.Kind.values:
        raise ValidationError("Escolha a autorização pedida.")
    kinds = rules.authorization_kinds(code, day)
    if kind not in kinds:
        label = lower_first(Authorization.Kind(kind).label)
        raise ValidationError(f"A {rules.law_name(code)} não prevê autorização prévia para: {label}.")
    text = _need(purpose, "Explique o pedido: motivo, destino, o que muda no veículo ou o anúncio.")
    if ends_on < starts_on:
        raise ValidationError("O fim do período não pode ser anterior ao início.")
    if starts_on < day:
        raise ValidationError("A autorização é prévia: o início não pode ser anterior a hoje.")
    if (ends_on - starts_on).days > MAX_AUTHORIZATION_DAYS:
        raise ValidationError("Peça a autorização por no máximo cinco anos.")
    if vehicle is not None and (vehicle.holder_id != holder.pk or vehicle.jurisdiction_id != code):
        raise ValidationError(f"O veículo {vehicle} não está cadastrado em nome deste permissionário.")
    if vehicle is None and kind != Authorization.Kind.INTERRUPTION:
        raise ValidationError("Informe o veículo da autorização.")
    if kind == Authorization.Kind.INTERRUPTION:
        _check_interruption_limit(holder, starts_on, ends_on)
    months = None
    if kind == Authorization.Kind.ADVERTISING:
        months = _months(starts_on, ends_on)
    row = Authorization(
        jurisdiction_id=code,
        holder=holder,
        vehicle=vehicle,
        kind=kind,
        starts_on=starts_on,
        ends_on=ends_on,
        purpose=text,
        citation=kinds[kind],
        months=months,
        requested_by=actor if getattr(actor, "pk", None) is not None else None,
    )
    return create_audited(actor=actor, instance=row, reason=reason, action="duties.authorization_requested")


def _days_in(year: int, start: dt.date, end: dt.date) -> int:
    first, last = max(start, dt.date(year, 1, 1)), min(end, dt.date(year, 12, 31))
    return max(0, (last - first).days + 1)


def interruption_days(
    holder_id: int,
    starts_on: dt.date,
    ends_on: dt.date,
    *,
    exclude_authorization: int | None = None,
    exclude_request: int | None = None,
) -> dict[int, int]:
    """The one yearly count of a holder's interruptions of the service (Maricá art. 38: "até trinta
    dias por ano"): per calendar year the period touches, its own days plus those already
    authorized in either register — the prior authorizations here and the interruption requests
    the enforcement page decides (seam `interruption_periods`). The request being decided is
    left out of its own register's rows (`exclude_authorization` / `exclude_request`)."""
    from lotacao.core import providers

    years = range(starts_on.year, ends_on.year + 1)
    totals = {year: _days_in(year, starts_on, ends_on) for year in years}
    granted = Authorization.unscoped.filter(
        holder_id=holder_id, kind=Authorization.Kind.INTERRUPTION, status=Authorization.Status.GRANTED
    )
    if exclude_authorization is not None:
        granted = granted.exclude(pk=exclude_authorization)
    periods = [(row.starts_on, row.ends_on) for row in granted]
    for _name, provider in providers.providers("interruption_periods"):
        periods.extend(provider(holder_id, exclude=exclude_request))
    for first, last in periods:
        for year in years:
            totals[year] += _days_in(year, first, last)
    return totals


def _check_interruption_limit(
    holder: Holder, starts_on: dt.date, ends_on: dt.date, exclude: int | None = None
) -> None:
    """Where the law limits the interruptions it authorizes per year (Maricá art. 38: 30 days),
    the days already authorized in each calendar year plus these, checked by the engine."""
    from lotacao.core.law import entry, evaluate_case

    code = holder.jurisdiction_id
    if entry(code, "quota.interruption_days", starts_on) is None:
        return
    totals = interruption_days(holder.pk, starts_on, ends_on, exclude_authorization=exclude)
    for year, days in totals.items():
        result = evaluate_case(
            {
                "jurisdiction": code,
                "kind": "quota",
                "date": max(starts_on, dt.date(year, 1, 1)).isoformat(),
                "interruption_days": days,
            }
        )
        if not result.get("eligible", True) or result.get("violations"):
            raise ValidationError(f"Interrupção além do que a lei permite: {result.get('explanation', '')}")


def _months(starts_on: dt.date, ends_on: dt.date) -> int:
    """Months of advertising, a started month counting whole (art. 25, § 1º, VIII: "por mês")."""
    delta = relativedelta(ends_on + dt.timedelta(days=1), starts_on)
    return max(1, delta.years * 12 + delta.months + (1 if delta.days else 0))


@transaction.atomic
def decide_authorization(
    *,
    actor: Any,
    authorization: Authorization,
    grant: bool,
    reasons: str,
    citation: str,
    decided_on: dt.date | None = None,
    reason: str = "Decisão do pedido de autorização",
) -> Authorization:
    row = Authorization.unscoped.select_for_update().select_related("holder").get(pk=authorization.pk)
    states.require(row, "grant" if grant else "deny")
    day = decided_on or timezone.localdate()
    if day > timezone.localdate():
        raise ValidationError("A data da decisão não pode ser futura.")
    text = _need(reasons, "Escreva as razões da decisão.")
    cite = _need(citation, "Cite o fundamento da decisão (artigo da lei ou ato).")
    changes: dict[str, Any] = {
        "status": Authorization.Status.GRANTED if grant else Authorization.Status.DENIED,
        "decided_on": day,
        "decided_by": actor if getattr(actor, "pk", None) is not None else None,
        "decision_reasons": text,
        "decision_citation": cite,
    }
    if grant and row.kind == Authorization.Kind.INTERRUPTION:
        _check_interruption_limit(row.holder, row.starts_on, row.ends_on, exclude=row.pk)
    if grant and row.kind == Authorization.Kind.ADVERTISING and row.months:
        changes["charge"] = _advertising_fee(actor, row, day)
    update_audited(
        actor=actor, instance=row, changes=changes, reason=reason, action="duties.authorization_decided"
    )
    _notify(row)
    return row


def _advertising_fee(actor: Any, row: Authorization, day: dt.date) -> Any:
    """The law's fee per month of advertising, where it has one (Recife art. 25, § 1º, VIII)."""
    from lotacao.core.law import entry

    if entry(row.jurisdiction_id, "fee.advertising", day) is None:
        return None
    from lotacao.billing.ledger.services import issue_fee

    return issue_fee(
        actor=actor,
        holder=row.holder,
        fee="advertising",
        on=day,
        months=row.months,
        reason=f"Autorização de publicidade por {row.months} meses",
        reference=f"autorizacao:{row.pk}",
    )


def _notify(row: Authorization) -> None:
    from lotacao.accounts.models import HolderAccount
    from lotacao.outbox.models import Event
    from lotacao.outbox.services import enqueue

    account = HolderAccount.objects.select_related("user").filter(holder_id=row.holder_id).first()
    if account is None or not account.user.email:
        return
    jurisdiction = Jurisdiction.objects.get(pk=row.jurisdiction_id)
    enqueue(
        event=Event.REQUEST,
        template="duties/mail/authorization_decided",
        context={
            "name": str(row.holder),
            "agency": jurisdiction.official_name or jurisdiction.name,
            "what": row.get_kind_display(),
            "granted": row.status == Authorization.Status.GRANTED,
            "starts_on": row.starts_on,
            "ends_on": row.ends_on,
            "vehicle": str(row.vehicle) if row.vehicle_id else "",
            "reasons": row.decision_reasons,
            "citation": row.decision_citation,
        },
        dedup_key=f"duties:authorization:{row.pk}:{row.status}",
        user=account.user,
        jurisdiction=jurisdiction,
    )


@transaction.atomic
def revoke_authorization(
    *, actor: Any, authorization: Authorization, reasons: str, citation: str, reason: str = "Revogação"
) -> Authorization:
    row = Authorization.unscoped.select_for_update().get(pk=authorization.pk)
    states.require(row, "revoke")
    update_audited(
        actor=actor,
        instance=row,
        changes={
            "status": Authorization.Status.REVOKED,
            "decided_on": timezone.localdate(),
            "decided_by": actor if getattr(actor, "pk", None) is not None else None,
            "decision_reasons": _need(reasons, "Escreva as razões da revogação."),
            "decision_citation": _need(citation, "Cite o fundamento da revogação."),
        },
        reason=reason,
        action="duties.authorization_revoked",
    )
    _notify(row)
    return row


@transaction.atomic
def withdraw_authorization(
    *, actor: Any, authorization: Authorization, reason: str = "Desistência"
) -> Authorization:
    row = Authorization.unscoped.select_for_update().get(pk=authorization.pk)
    states.require(row, "withdraw")
    return update_audited(
        actor=actor,
        instance=row,
        changes={"status": Authorization.Status.WITHDRAWN},
        reason=reason,
        action="duties.authorization_withdrawn",
    )


def authorization_item(row: Authorization) -> WorkItemSpec:
    vehicle = f" ({row.vehicle})" if row.vehicle_id else ""
    return WorkItemSpec(
        jurisdiction_id=row.jurisdiction_id,
        kind=AUTHORIZATION_KIND,
        key=f"authorization:{row.pk}",
        title=(
            f"{row.holder}{vehicle}: pedido de autorização — {lower_first(row.get_kind_display())}, de "
            f"{br_date(row.starts_on)} a {br_date(row.ends_on)}"
        )[:300],
        due_on=row.starts_on,
        url=f"/deveres/autorizacoes/{row.pk}/",
    )


# --------------------------------------------------------------------------- periodic reports


@transaction.atomic
def deliver_report(
    *,
    actor: Any,
    holder: Holder,
    report: str,
    period_start: dt.date,
    file: Any = None,
    notes: str = "",
    delivered_at: dt.datetime | None = None,
    reason: str = "Entrega de relatório periódico",
) -> PeriodicReport:
    from lotacao.duties.periods import period_of

    code = holder.jurisdiction_id
    rule = rules.report_rule(code, report, period_start)
    if rule is None:
        raise ValidationError(f"A {rules.law_name(code)} não exige este relatório.")
    if not rule.defined:
        raise ValidationError(
            f"{rule.description}: o órgão gestor ainda não informou a periodicidade e o prazo ({rule.reason})"
        )
    period = period_of(rule, period_start)
    if period is None or period[0] != period_start:
        raise ValidationError("Escolha um dos períodos do relatório.")
    moment = delivered_at or timezone.now()
    jurisdiction = Jurisdiction.objects.get(pk=code)
    if period[1] >= local_day(jurisdiction, moment):
        raise ValidationError("O período ainda não terminou: entregue o relatório depois do seu fim.")
    if PeriodicReport.unscoped.filter(holder=holder, report=report, period_start=period_start).exists():
        raise ValidationError("Este período já foi entregue.")
    if file is None and not (notes or "").strip():
        raise ValidationError("Envie o arquivo do relatório ou escreva os dados nas observações.")
    content_type = ""
    if file is not None:
        content_type = _checked_file(file, REPORT_TYPES, "relatório")[0]
    due = period[2]
    row = PeriodicReport(
        jurisdiction_id=code,
        holder=holder,
        report=report,
        period_start=period[0],
        period_end=period[1],
        due_on=due,
        delivered_at=moment,
        late=local_day(jurisdiction, moment) > due,
        file=file,
        content_type=content_type,
        notes=(notes or "").strip(),
        citation=rule.citation,
        delivered_by=actor if getattr(actor, "pk", None) is not None else None,
    )
    return create_audited(actor=actor, instance=row, reason=reason, action="duties.report_delivered")
