"""Interruption of the service on the holder's request, where the law allows it (`quota.
interruption_days`; Maricá art. 38: "pelo prazo de até trinta dias por ano").

- A clerk records the request (dates, reason). The engine checks the days of the year — those
  already authorized plus these, in each calendar year the request touches (the pack's reading of
  "por ano") — against the limit. Within it, the request waits for the manager, who authorizes it
  or not ("observada a conveniência do serviço"); the limit is checked again then.
- Beyond it, the request is recorded as refused, with the engine's words: interrupting for longer
  than authorized is desistência and leads to revocation (art. 38, parágrafo único; art. 58, IV).
  A work item asks the manager to open the revocation process if the service is interrupted
  (`open_revocation`) or to file the request away (`close`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import lower_first
from lotacao.core.law import entry, evaluate_case
from lotacao.enforcement.models import InterruptionRequest, RevocationProcess
from lotacao.enforcement.reading import br
from lotacao.enforcement.sanctions.followups import open_revocation_process
from lotacao.permits.models import Permit
from lotacao.workqueue.services import WorkItemSpec

PARAMETER = "quota.interruption_days"
Status = InterruptionRequest.Status
OVER_LIMIT_KIND = "enforcement.interruption_over_limit"
REQUESTED_KIND = "enforcement.interruption_requested"
COUNTED = (Status.AUTHORIZED,)


def _need(text: str, message: str) -> str:
    if not (text or "").strip():
        raise ValidationError(message)
    return text.strip()


def allowed_by_law(permit: Permit, on: dt.date) -> bool:
    found = entry(permit.jurisdiction_id, PARAMETER, on)
    return found is not None and found.status == "value"


def year_totals(permit: Permit, start: dt.date, end: dt.date, exclude: int | None = None) -> dict[int, int]:
    """Days of interruption per calendar year the period touches: the period's own plus those of
    the holder already authorized here or as prior authorizations (lotacao.duties) — one count."""
    from lotacao.duties.services import interruption_days

    return interruption_days(permit.holder_id, start, end, exclude_request=exclude)


def authorized_periods(holder_id: int, exclude: int | None = None) -> list[tuple[dt.date, dt.date]]:
    """The seam `interruption_periods`: the holder's interruptions authorized on this page."""
    rows = InterruptionRequest.unscoped.filter(permit__holder_id=holder_id, status__in=list(COUNTED))
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    return [(row.starts_on, row.ends_on) for row in rows]


def check(permit: Permit, start: dt.date, end: dt.date, exclude: int | None = None) -> dict[str, Any]:
    """The engine's answer for the year with the most days: {"total", "eligible", "explanation",
    "citations"}."""
    totals = year_totals(permit, start, end, exclude)
    year = max(totals, key=lambda y: totals[y])
    day = max(start, dt.date(year, 1, 1))
    result = evaluate_case(
        {
            "jurisdiction": permit.jurisdiction_id,
            "kind": "quota",
            "date": day.isoformat(),
            "interruption_days": totals[year],
        }
    )
    return {
        "year": year,
        "total": totals[year],
        "eligible": bool(result.get("eligible", True)) and not result.get("violations"),
        "explanation": str(result.get("explanation", "")),
        "citations": list(result.get("citations", [])),
    }


@transaction.atomic
def request_interruption(
    *, actor: Any, permit: Permit, starts_on: dt.date, ends_on: dt.date, reason: str, note: str = "Pedido"
) -> InterruptionRequest:
    """Record the holder's request, checked with the engine (status `over_limit` beyond it)."""
    text = _need(reason, "Informe o motivo do pedido de interrupção.")
    permit = Permit.unscoped.select_for_update().get(pk=permit.pk)
    if not allowed_by_law(permit, starts_on):
        from lotacao.duties.rules import authorization_kinds

        cite = authorization_kinds(permit.jurisdiction_id, starts_on).get("interruption")
        if cite:  # Recife: a prior authorization without a yearly limit (lotacao.duties)
            raise ValidationError(
                f"Aqui a interrupção depende de autorização prévia, sem limite anual de dias ({cite}): "
                "registre o pedido nas autorizações prévias (Deveres do operador)."
            )
        raise ValidationError("A lei desta jurisdição não prevê a interrupção do serviço a pedido.")
    if ends_on < starts_on:
        raise ValidationError("O fim da interrupção não pode ser anterior ao início.")
    if permit.effective_status(starts_on) not in Permit.LIVE:
        raise ValidationError(f"A permissão está {lower_first(permit.effective_status_label(starts_on))}.")
    found = check(permit, starts_on, ends_on)
    request = InterruptionRequest(
        jurisdiction_id=permit.jurisdiction_id,
        permit=permit,
        starts_on=starts_on,
        ends_on=ends_on,
        days=(ends_on - starts_on).days + 1,
        year_days=found["total"],
        reason=text,
        status=Status.REQUESTED if found["eligible"] else Status.OVER_LIMIT,
        explanation=found["explanation"],
        citations=found["citations"],
        recorded_by=actor if getattr(actor, "pk", None) is not None else None,
    )
    action = (
        "enforcement.interruption_requested" if found["eligible"] else "enforcement.interruption_over_limit"
    )
    return create_audited(actor=actor, instance=request, reason=note, action=action)


def _open(request: InterruptionRequest, *statuses: str) -> InterruptionRequest:
    row = InterruptionRequest.unscoped.select_for_update().select_related("permit").get(pk=request.pk)
    if row.status not in statuses:
        raise ValidationError(f"O pedido está {lower_first(row.get_status_display())}.")
    return row


def _check_day(row: InterruptionRequest, day: dt.date) -> None:
    if day > timezone.localdate():
        raise ValidationError("A data da decisão não pode ser futura.")


@transaction.atomic
def decide(
    *, actor: Any, request: InterruptionRequest, authorize: bool, decided_on: dt.date, note: str, reason: str
) -> InterruptionRequest:
    """The manager authorizes the interruption (within the limit, checked again) or denies it."""
    reason = _need(reason, "Informe o motivo.")
    row = _open(request, Status.REQUESTED)
    _check_day(row, decided_on)
    if authorize:
        found = check(row.permit, row.starts_on, row.ends_on, exclude=row.pk)
        if not found["eligible"]:
            raise ValidationError(f"Não é possível autorizar: {found['explanation']}")
    return update_audited(
        actor=actor,
        instance=row,
        changes={
            "status": Status.AUTHORIZED if authorize else Status.DENIED,
            "decided_on": decided_on,
            "decision_note": _need(note, "Registre a decisão (ato ou despacho)."),
        },
        reason=reason,
        action="enforcement.interruption_decided",
    )


@transaction.atomic
def open_revocation(
    *, actor: Any, request: InterruptionRequest, on: dt.date, fact: str, reason: str
) -> RevocationProcess:
    """The service was interrupted beyond what is authorized: desistência, and the revocation
    process opens (art. 38, parágrafo único; art. 58, IV)."""
    reason = _need(reason, "Informe o motivo.")
    fact = _need(fact, "Descreva a interrupção constatada (datas, relatório da fiscalização).")
    row = _open(request, Status.OVER_LIMIT)
    _check_day(row, on)
    process = open_revocation_process(
        actor=actor,
        notice=None,
        permit=Permit.unscoped.get(pk=row.permit_id),
        on=on,
        cause=(
            f"Interrupção do serviço além do prazo autorizado, considerada desistência da permissão "
            f"(pedido de {row.days} dias a partir de {br(row.starts_on)}, {row.year_days} no ano): {fact}"
        ),
        citations=[c for c in row.citations if c],
    )
    update_audited(
        actor=actor,
        instance=row,
        changes={
            "status": Status.REVOCATION_OPENED,
            "decided_on": on,
            "revocation": process,
            "decision_note": fact,
        },
        reason=reason,
        action="enforcement.interruption_decided",
    )
    return process


@transaction.atomic
def close(
    *, actor: Any, request: InterruptionRequest, on: dt.date, note: str, reason: str
) -> InterruptionRequest:
    """The refused request filed away: the holder did not interrupt the service beyond the limit."""
    reason = _need(reason, "Informe o motivo.")
    row = _open(request, Status.OVER_LIMIT)
    _check_day(row, on)
    return update_audited(
        actor=actor,
        instance=row,
        changes={
            "status": Status.CLOSED,
            "decided_on": on,
            "decision_note": _need(note, "Registre por quê."),
        },
        reason=reason,
        action="enforcement.interruption_decided",
    )


def interruption_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items for the manager: requests to decide; requests beyond the limit (desistência if
    the service stops: open the revocation process, or file the request away)."""
    rows = InterruptionRequest.unscoped.filter(
        status__in=[Status.REQUESTED, Status.OVER_LIMIT]
    ).select_related("permit")
    for row in rows:
        url = f"/fiscalizacao/permissoes/{row.permit_id}/interrupcoes/"
        period = f"de {br(row.starts_on)} a {br(row.ends_on)}"
        if row.status == Status.REQUESTED:
            title = f"{row.permit}: pedido de interrupção {period} ({row.days} dias) a decidir"
            kind = REQUESTED_KIND
        else:
            title = (
                f"{row.permit}: pedido de interrupção {period} recusado — {row.year_days} dias no ano, "
                "além do limite; se o serviço parar, é desistência: abra o processo de cassação"
            )
            kind = OVER_LIMIT_KIND
        yield WorkItemSpec(
            jurisdiction_id=row.jurisdiction_id,
            kind=kind,
            key=f"interruption:{row.pk}",
            title=title[:300],
            due_on=row.starts_on,
            url=url,
        )
