"""Effects that took effect before the decision was final, settled when it is.

Where the appeal that follows a decision does not suspend it (`process.instances[].suspensive:
false`, Recife art. 43, parágrafo único), the decision's suspension and revocation take effect
when it is served (`effects.apply_on_service`), each effect marked `provisional` with the day it
began (`since`). At finality:

- the same decision becomes final (no appeal, or none known): its effects are confirmed;
- a later decision becomes final: each provisional effect is kept when the final penalty still
  has it, reduced (a shorter suspension; a revocation reduced to a suspension counts its days
  from the revocation) or undone (the suspension lifted, the permit or the agent restored and the
  ban lifted) — each step audited by the permits services. The final decision records what was
  done, and is flagged (`effects_undone`) until its letter reaches the holder: a work item says so
  (`undone_items`). A fine paid is refunded through `refunds`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from lotacao.audit.services import update_audited
from lotacao.enforcement.models import Decision, SuspensionFollowUp
from lotacao.enforcement.reading import br
from lotacao.permits import services as permits
from lotacao.permits.models import Permit, PermitAgent
from lotacao.workqueue.services import WorkItemSpec

# The effects that start when a decision is served where its appeal does not suspend it.
IMMEDIATE = ("suspension", "revocation")
UNDONE_KIND = "enforcement.effects_undone"
FollowStatus = SuspensionFollowUp.Status


@dataclass
class Settled:
    """What the final decision does to the effects in force: its effect records, the penalty
    types already dealt with, and the days of suspension still to serve (a revocation reduced to a
    suspension that has not run out)."""

    effects: list[dict[str, Any]] = field(default_factory=list)
    handled: set[str] = field(default_factory=set)
    residual_days: int = 0
    undone: bool = False


def is_provisional(decision: Decision) -> bool:
    return any(e.get("provisional") for e in decision.effects or [])


def confirmed(decision: Decision, on: dt.date) -> list[dict[str, Any]]:
    """The decision's own provisional effects, now final."""
    return [
        {**e, "provisional": False, "note": f"{e.get('note', '')} Definitiva em {br(on)}.".strip()}
        if e.get("provisional")
        else dict(e)
        for e in decision.effects or []
    ]


def provisional_before(decision: Decision) -> Decision | None:
    """The earlier decision of the same notice whose effects are in force provisionally."""
    rows = (
        Decision.unscoped.filter(notice_id=decision.notice_id, final=False)
        .exclude(pk=decision.pk)
        .order_by("-decided_on", "-pk")
    )
    return next((d for d in rows if is_provisional(d)), None)


def _ref(effect: dict[str, Any]) -> tuple[str, int]:
    model, _, pk = str(effect.get("ref", "")).partition(":")
    return model, int(pk) if pk.isdigit() else 0


def _days(penalties: list[Any], kind: str = "suspension") -> int:
    return next((int(p.get("days") or 0) for p in penalties if str(p.get("type")) == kind), 0)


def _words(final: Decision) -> str:
    body = f" ({final.body})" if final.body_id else ""
    return f"a decisão de {br(final.decided_on)}{body}"


def _result(
    effect: dict[str, Any],
    note: str,
    *,
    done: bool = True,
    undone: bool = False,
    cites: list[str] | None = None,
) -> dict[str, Any]:
    item = {
        "type": effect.get("type"),
        "done": done,
        "note": note,
        "citations": list(dict.fromkeys([*(effect.get("citations") or []), *(cites or [])])),
        "since": effect.get("since"),
        "undone": undone,
    }
    if effect.get("ref"):
        item["ref"] = effect["ref"]
    return item


def reconcile(actor: Any, earlier: Decision, final: Decision, penalties: list[Any], on: dt.date) -> Settled:
    """Keep, reduce or undo the effects `earlier` put in force when served, to match the final
    decision's `penalties` (empty when it annulled the notice)."""
    settled = Settled()
    new = {str(p.get("type")) for p in penalties}
    old_days = _days(list((earlier.penalty or {}).get("penalties", [])))
    for effect in earlier.effects or []:
        if not (effect.get("provisional") and effect.get("done")):
            continue
        kind = str(effect.get("type"))
        since = dt.date.fromisoformat(str(effect.get("since")))
        settled.handled.add(kind)
        if kind == "revocation" and "revocation" in new:
            note = f"Cassação em vigor desde {br(since)}, confirmada por {_words(final)}."
            settled.effects.append(_result(effect, note, cites=list(final.citations)))
        elif kind == "revocation":
            settled.effects.append(_undo_revocation(actor, effect, since, final, penalties, settled, on))
        elif kind == "suspension":
            item = _settle_suspension(actor, effect, since, old_days, _days(penalties), final, on)
            settled.undone = settled.undone or bool(item.get("undone"))
            settled.effects.append(item)
    return settled


def _undo_revocation(
    actor: Any,
    effect: dict[str, Any],
    since: dt.date,
    final: Decision,
    penalties: list[Any],
    settled: Settled,
    on: dt.date,
) -> dict[str, Any]:
    """The permit (or the agent's registration) restored and its ban lifted; a suspension the
    final decision sets instead counts from the revocation."""
    model, pk = _ref(effect)
    settled.undone = True
    reason = f"Cassação de {br(since)} desfeita por {_words(final)} (recurso)"
    try:
        with transaction.atomic():
            if model == "permitagent":
                agent = permits.restore_agent(
                    actor=actor, agent=PermitAgent.unscoped.get(pk=pk), reason=reason, on=on
                )
                what = f"cadastro de {agent} restabelecido"
            else:
                permit = permits.restore_permit(
                    actor=actor, permit=Permit.unscoped.get(pk=pk), reason=reason, on=on
                )
                what = f"{permit} restabelecida"
    except (ValidationError, IntegrityError) as error:
        why = (
            " ".join(error.messages)
            if isinstance(error, ValidationError)
            else "outra permissão usa o veículo"
        )
        note = f"Cassação de {br(since)} desfeita por {_words(final)}, mas não restabelecida: {why}."
        return _result(effect, note, done=False, undone=True, cites=list(final.citations))
    note = f"Cassação de {br(since)} desfeita por {_words(final)}: {what} e impedimento levantado."
    days = _days(penalties)
    if days and model != "permitagent":
        settled.handled.add("suspension")
        until = since + dt.timedelta(days=days - 1)
        if until >= on:
            settled.residual_days = (until - on).days + 1
            note += f" A suspensão de {days} dias que a substitui conta da cassação e vai até {br(until)}."
        else:
            note += f" A suspensão de {days} dias que a substitui já se cumpriu durante a cassação."
    return _result(effect, note, undone=True, cites=list(final.citations))


def _settle_suspension(
    actor: Any,
    effect: dict[str, Any],
    since: dt.date,
    old_days: int,
    new_days: int,
    final: Decision,
    on: dt.date,
) -> dict[str, Any]:
    """A suspension in force kept (same days), reduced or lifted (fewer or none)."""
    cites = list(final.citations)
    if new_days >= old_days:
        extra = "" if new_days == old_days else f" (a decisão fixou {new_days} dias: registre o acréscimo)"
        note = f"Suspensão em vigor desde {br(since)}, confirmada por {_words(final)}{extra}."
        return _result(effect, note, cites=cites)
    until = since + dt.timedelta(days=new_days - 1) if new_days else None
    reason = f"Suspensão de {br(since)} reduzida por {_words(final)} (recurso)"
    model, pk = _ref(effect)
    with transaction.atomic():
        if model == "permitagent":
            permits.shorten_agent_suspension(
                actor=actor, agent=PermitAgent.unscoped.get(pk=pk), until=until, reason=reason
            )
        else:
            _shorten_permit_suspension(actor, pk, until, reason, on)
    if until is None:
        note = f"Suspensão de {br(since)} desfeita por {_words(final)}: volta a operar."
    else:
        note = (
            f"Suspensão de {br(since)} reduzida de {old_days} para {new_days} dias por {_words(final)}: "
            f"vai até {br(until)}."
        )
    return _result(effect, note, undone=True, cites=cites)


def _shorten_permit_suspension(actor: Any, pk: int, until: dt.date | None, reason: str, on: dt.date) -> None:
    follow = SuspensionFollowUp.unscoped.select_for_update().get(pk=pk)
    ends = until if until is not None else max(follow.starts_on, on - dt.timedelta(days=1))
    permits.set_suspension_end(actor=actor, permit=follow.permit, until=ends, reason=reason, on=on)
    changes: dict[str, Any] = {"ends_on": ends}
    if ends < on:
        changes["status"] = FollowStatus.ENDED
    update_audited(
        actor=actor, instance=follow, changes=changes, reason=reason, action="enforcement.suspension_reduced"
    )


def undone_items(today: dt.date) -> Iterator[WorkItemSpec]:
    """Work items: final decisions that undid effects already in force, whose letter has not yet
    reached the holder (the decision's service records it)."""
    rows = Decision.unscoped.filter(final=True, effects_undone=True, served_on__isnull=True).select_related(
        "notice"
    )
    for decision in rows:
        yield WorkItemSpec(
            jurisdiction_id=decision.jurisdiction_id,
            kind=UNDONE_KIND,
            key=f"decision:{decision.pk}",
            title=(
                f"Auto {decision.notice.number}: efeitos desfeitos pela decisão de {br(decision.decided_on)} "
                "— enviar a carta da decisão ao permissionário e registrar a comunicação"
            )[:300],
            due_on=today,
            url=decision.get_absolute_url(),
        )
