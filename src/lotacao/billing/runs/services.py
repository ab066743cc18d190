"""The monthly billing run: simulate (the plan, or the refusal naming what is missing), the
manager's approval, then the execution — in batches, each in its own transaction, so a crash
leaves whole batches and re-executing resumes (keys already made are skipped); a month executed
twice creates nothing new. Charges and their audit records are written in bulk."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit import actions, separation
from lotacao.audit.models import AuditEvent
from lotacao.audit.services import SYSTEM, record, snapshot, update_audited
from lotacao.billing.ledger.models import Charge
from lotacao.billing.runs.models import BillingRun
from lotacao.billing.runs.planner import Plan, build_plan, late_notes
from lotacao.core.bulk import insert_new
from lotacao.core.formats import lower_first
from lotacao.core.models import Jurisdiction

BATCH = 2000


@transaction.atomic
def simulate(*, actor: Any, jurisdiction: Jurisdiction, period: dt.date, reason: str) -> BillingRun:
    """A dry run: what the month would charge and why, or what the law leaves missing."""
    plan = build_plan(jurisdiction.code, period)
    status = BillingRun.Status.REFUSED if plan.refusals else BillingRun.Status.PLANNED
    run = BillingRun(
        jurisdiction=jurisdiction,
        period=plan.period,
        status=status,
        plan=plan.lines,
        refusals=plan.refusals,
        notes=plan.notes,
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    # The plan (one line per charge: 100,000s at a state's size) is kept on the run itself and
    # never changes; the audit record names it by its size and digest instead of copying it.
    run.full_clean(exclude=["plan"])
    run.save(force_insert=True)
    after = snapshot(run)
    after["plan"] = {"linhas": len(plan.lines), "sha256": plan_digest(plan.lines)}
    record(actor=actor, action="billing_run.planned", instance=run, reason=reason, after=after)
    return run


def plan_digest(lines: list[dict[str, Any]]) -> str:
    """SHA-256 of the plan's lines as canonical JSON (what the audit record of the simulation keeps)."""
    return hashlib.sha256(json.dumps(lines, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def approve(*, actor: Any, run: BillingRun, reason: str) -> BillingRun:
    """The manager's approval; where the agency separates the steps (its setting, on by default),
    by someone other than who simulated — the refusal is audited."""
    separation.check(act="billing_run.approve", actor=actor, first_id=_created_by(run), instance=run)
    return _approve(actor=actor, run=run, reason=reason)


def _created_by(run: BillingRun) -> int | None:
    return BillingRun.unscoped.filter(pk=run.pk).values_list("created_by_id", flat=True).first()


@transaction.atomic
def _approve(*, actor: Any, run: BillingRun, reason: str) -> BillingRun:
    run = BillingRun.unscoped.select_for_update().get(pk=run.pk)
    if run.status == BillingRun.Status.REFUSED:
        raise ValidationError("Simulação recusada: informe os valores que faltam e simule de novo.")
    if run.status != BillingRun.Status.PLANNED:
        raise ValidationError(f"Este faturamento já está {lower_first(run.get_status_display())}.")
    return update_audited(
        actor=actor,
        instance=run,
        changes={
            "status": BillingRun.Status.APPROVED,
            "approved_by": actor if getattr(actor, "pk", None) else None,
            "approved_at": timezone.now(),
        },
        reason=reason,
        action="billing_run.approved",
    )


def execute(*, actor: Any, run: BillingRun, reason: str) -> list[Charge]:
    """Make the approved plan's charges (resuming a run that stopped midway); returns those made."""
    with transaction.atomic():
        run = BillingRun.unscoped.select_for_update().get(pk=run.pk)
        if run.status not in (BillingRun.Status.APPROVED, BillingRun.Status.RUNNING):
            raise ValidationError("Só se executa um faturamento aprovado pelo gestor.")
        if run.status == BillingRun.Status.APPROVED:
            late = [n for n in late_notes(list(run.plan), timezone.localdate()) if n not in run.notes]
            run = update_audited(
                actor=actor,
                instance=run,
                changes={
                    "status": BillingRun.Status.RUNNING,
                    "started_at": timezone.now(),
                    "notes": [*run.notes, *late],
                },
                reason=reason,
                action="billing_run.executed",
            )
    made: list[Charge] = []
    lines = list(run.plan)
    for start in range(0, len(lines), BATCH):
        made += _create_batch(actor, run, lines[start : start + BATCH], reason)
    with transaction.atomic():
        total = Charge.unscoped.filter(run=run).count()
        update_audited(
            actor=actor,
            instance=run,
            changes={"status": BillingRun.Status.DONE, "finished_at": timezone.now(), "created_count": total},
            reason=reason,
            action="billing_run.finished",  # one click, one "execução": this records its end
        )
    return made


@transaction.atomic
def _create_batch(actor: Any, run: BillingRun, lines: list[dict[str, Any]], reason: str) -> list[Charge]:
    code = run.jurisdiction_id
    keys = [line["key"] for line in lines]
    done = set(Charge.unscoped.filter(jurisdiction_id=code, key__in=keys).values_list("key", flat=True))
    charges = [_charge(code, run, line) for line in lines if line["key"] not in done]
    # Each value checked against its field. (`full_clean` adds nothing here: Charge has no
    # `clean`, and its one constraint — the key unique per jurisdiction — involves an excluded
    # field, so it is left to the database and to `done` above; its unique checks cost ≈ 10 %.)
    for charge in charges:
        charge.clean_fields(exclude=["holder", "jurisdiction", "run", "line"])
    made = insert_new(Charge, charges)
    _audit(actor, made, reason)
    return made


def _charge(code: str, run: BillingRun, line: dict[str, Any]) -> Charge:
    return Charge(
        jurisdiction_id=code,
        holder_id=line["holder_id"],
        kind=line["kind"],
        fee=line["fee"],
        description=line["description"][:300],
        competence=dt.date.fromisoformat(line["competence"]),
        line_id=line.get("line_id"),
        base=Decimal(line["base"]),
        base_label=line["base_label"][:300],
        rate=None if line.get("rate") is None else Decimal(line["rate"]),
        amount=Decimal(line["amount"]),
        due_on=dt.date.fromisoformat(line["due_on"]),
        citation=line["citation"][:500],
        fund=line.get("fund", ""),
        key=line["key"],
        run=run,
    )


def _audit(actor: Any, charges: list[Charge], reason: str) -> None:
    """One audit record per charge, as `record` would write it, in one insert."""
    action = "charge.issued"
    actions.label(action)
    user = actor if getattr(actor, "pk", None) is not None else None
    insert_new(
        AuditEvent,
        [
            AuditEvent(
                jurisdiction_id=charge.jurisdiction_id,
                actor_id=user.pk if user is not None else None,
                actor_label=user.get_username() if user is not None else SYSTEM,
                action=action,
                object_type=charge._meta.label_lower,
                object_id=str(charge.pk),
                object_repr=str(charge)[:200],
                after=snapshot(charge),
                reason=reason.strip(),
            )
            for charge in charges
        ],
        batch_size=1000,
    )


def preview(code: str, period: dt.date) -> Plan:
    """The plan without recording anything (the command's --dry-run)."""
    return build_plan(code, period)


def resume_interrupted(day: dt.date) -> dict[str, int]:
    """The nightly job: finish runs left `executando` by a process that stopped (no charge is made
    twice: each one's key is checked)."""
    stale = timezone.now() - dt.timedelta(hours=1)
    resumed = made = 0
    for run in BillingRun.unscoped.filter(status=BillingRun.Status.RUNNING, started_at__lt=stale):
        made += len(execute(actor=None, run=run, reason="Retomada noturna de faturamento interrompido"))
        resumed += 1
    return {"retomados": resumed, "cobrancas": made}
