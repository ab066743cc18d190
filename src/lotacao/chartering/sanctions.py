"""The CRC's sanctions (art. 23, III-IV and p.ú.; art. 30, § 1º; art. 31; art. 35).

Entry points for enforcement's final decisions (enforcement calls these; chartering never imports
enforcement): `apply_sanction` (suspension, cancellation or cassação decided), `extend_sanction`
(recidivism during the sanction: the manager adds days, at most up to double the original) and
`end_sanction` (after the term, with the proof that the fault is cured). Proposals the system
makes (late renewal, another modality) wait for the manager: `confirm_proposal`, `dismiss_proposal`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.chartering import fees, rules
from lotacao.chartering.models import CharteringCompany, Crc, Sanction, Trip
from lotacao.chartering.status import crc_state
from lotacao.core.formats import lower_first

LABEL = {"suspension": "suspensão", "cancellation": "cancelamento", "revocation": "cassação"}


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _term(code: str, kind: str, starts_on: dt.date) -> tuple[int | None, dt.date | None, list[str]]:
    if kind == Sanction.Kind.REVOCATION:
        return None, None, [rules.citation(code, "chartering.wrong_modality", starts_on)]
    rule, cite = rules.sanction_rule(code, kind, starts_on)
    days = int(rule["days"])
    return days, starts_on + dt.timedelta(days=days - 1), [cite]


def _effects(*, actor: Any, sanction: Sanction, reason: str) -> int:
    """Cancel the live trips the sanction bars (from its start; to its end for a suspension)."""
    trips = Trip.unscoped.select_for_update().filter(
        company_id=sanction.company_id, status__in=Trip.LIVE, departs_at__date__gte=sanction.starts_on
    )
    if sanction.kind == Sanction.Kind.SUSPENSION and sanction.ends_on is not None:
        trips = trips.filter(departs_at__date__lte=sanction.ends_on)
    count = 0
    for trip in trips:
        update_audited(
            actor=actor,
            instance=trip,
            changes={
                "status": Trip.Status.CANCELLED,
                "cancelled_reason": f"{sanction.get_kind_display()}: {reason}",
            },
            reason=f"{sanction.get_kind_display()} impede a viagem ({'; '.join(sanction.citations)})",
            action="chartering.trip_cancelled",
        )
        count += 1
    return count


def _put_in_force(
    *, actor: Any, sanction: Sanction, starts_on: dt.date, reference: str, reason: str
) -> Sanction:
    code = sanction.jurisdiction_id
    days, ends_on, cites = _term(code, sanction.kind, starts_on)
    crc = Crc.unscoped.select_for_update().get(pk=sanction.crc_id)
    changes: dict[str, Any] = {}
    if sanction.kind == Sanction.Kind.CANCELLATION:
        changes["cancelled_on"] = starts_on
    elif sanction.kind == Sanction.Kind.REVOCATION:
        changes["revoked_on"] = starts_on
    if changes:
        update_audited(
            actor=actor,
            instance=crc,
            changes=changes,
            reason=reason,
            action=f"chartering.crc_{'cancelled' if 'cancelled_on' in changes else 'revoked'}",
        )
        fees.leave(actor=actor, company=sanction.company, starts_on=starts_on, reason=reason)
    fields = {
        "status": Sanction.Status.IN_FORCE,
        "starts_on": starts_on,
        "original_days": days,
        "days": days,
        "ends_on": ends_on,
        "decision_reference": reference.strip()[:120],
        "citations": list(dict.fromkeys([*sanction.citations, *[c for c in cites if c]])),
    }
    if sanction.pk is None:
        for key, value in fields.items():
            setattr(sanction, key, value)
        create_audited(actor=actor, instance=sanction, reason=reason, action="chartering.sanction_applied")
    else:
        update_audited(
            actor=actor,
            instance=sanction,
            changes=fields,
            reason=reason,
            action="chartering.sanction_applied",
        )
    _effects(actor=actor, sanction=sanction, reason=reason)
    return sanction


@transaction.atomic
def apply_sanction(
    *,
    actor: Any,
    company: CharteringCompany,
    kind: str,
    starts_on: dt.date,
    grounds: str,
    reason: str,
    decision_reference: str = "",
) -> Sanction:
    """Apply a sanction decided in a final decision: the CRC in force is suspended (90 days),
    cancelled (180 days, then a new CRC) or revoked; the trips it bars are cancelled."""
    if kind not in Sanction.Kind.values:
        raise ValidationError("Sanção desconhecida.")
    if not grounds.strip():
        raise ValidationError("Informe os fundamentos de fato da sanção.")
    state = crc_state(company, starts_on)
    if state.crc is None or state.status in ("revoked", "cancelled"):
        raise ValidationError(f"Não há CRC a sancionar: {state.reasons[0] if state.reasons else 'sem CRC'}")
    if state.sanction is not None:
        raise ValidationError(
            f"Já há {lower_first(state.sanction.get_kind_display())} em vigor até {rules.pt(state.sanction.ends_on)}: "  # noqa: E501
            f"a reincidência durante a sanção majora o prazo ({rules.cite(company.jurisdiction_id, 'art. 31')})."  # noqa: E501
        )
    sanction = Sanction(
        jurisdiction_id=company.jurisdiction_id,
        company=company,
        crc=state.crc,
        kind=kind,
        grounds=grounds.strip(),
    )
    return _put_in_force(
        actor=actor, sanction=sanction, starts_on=starts_on, reference=decision_reference, reason=reason
    )


@transaction.atomic
def confirm_proposal(
    *, actor: Any, sanction: Sanction, starts_on: dt.date, reason: str, decision_reference: str = ""
) -> Sanction:
    """The manager confirms a proposal (late renewal → cancellation; another modality → cassação)."""
    sanction = Sanction.unscoped.select_for_update().get(pk=sanction.pk)
    if sanction.status != Sanction.Status.PROPOSED:
        raise ValidationError(
            f"Esta sanção não é uma proposta ({lower_first(sanction.get_status_display())})."
        )
    state = crc_state(sanction.company, starts_on, crc=sanction.crc)
    if state.status in ("revoked", "cancelled"):
        raise ValidationError(f"O CRC já não está em vigor: {state.reasons[0]}")
    return _put_in_force(
        actor=actor, sanction=sanction, starts_on=starts_on, reference=decision_reference, reason=reason
    )


@transaction.atomic
def dismiss_proposal(*, actor: Any, sanction: Sanction, reason: str) -> Sanction:
    sanction = Sanction.unscoped.select_for_update().get(pk=sanction.pk)
    if sanction.status != Sanction.Status.PROPOSED:
        raise ValidationError("Só uma proposta pode ser rejeitada.")
    if not reason.strip():
        raise ValidationError("Informe o motivo da rejeição da proposta.")
    return update_audited(
        actor=actor,
        instance=sanction,
        changes={"status": Sanction.Status.DISMISSED, "dismissed_reason": reason.strip()},
        reason=reason,
        action="chartering.sanction_dismissed",
    )


@transaction.atomic
def extend_sanction(
    *, actor: Any, sanction: Sanction, extra_days: int, grounds: str, reason: str, on: dt.date | None = None
) -> Sanction:
    """Recidivism during the sanction: the manager adds days; the total never passes the original
    term times the law's factor (double: art. 31)."""
    day = _today(on)
    sanction = Sanction.unscoped.select_for_update().get(pk=sanction.pk)
    code = sanction.jurisdiction_id
    if sanction.status != Sanction.Status.IN_FORCE or sanction.days is None or sanction.original_days is None:
        raise ValidationError("Só uma suspensão ou um cancelamento em vigor pode ser majorado.")
    assert sanction.starts_on is not None and sanction.ends_on is not None
    if not sanction.starts_on <= day <= sanction.ends_on:
        raise ValidationError(
            f"A reincidência em {rules.pt(day)} não ocorreu durante a sanção "
            f"({rules.pt(sanction.starts_on)} a {rules.pt(sanction.ends_on)}; {rules.cite(code, 'art. 31')})."
        )
    if extra_days < 1:
        raise ValidationError("Informe quantos dias acrescentar (ao menos 1).")
    if not grounds.strip():
        raise ValidationError("Informe a nova infração que motiva a majoração.")
    rule = rules.require(code, "chartering.sanction_extension", day, "a majoração das sanções do CRC")
    cite = rules.citation(code, "chartering.sanction_extension", day)
    ceiling = int(sanction.original_days * rule["max_factor"])
    if sanction.days + extra_days > ceiling:
        room = ceiling - sanction.days
        raise ValidationError(
            f"Majoração recusada: o prazo passaria a {sanction.days + extra_days} dias; o limite é o dobro do "  # noqa: E501
            f"prazo original, {ceiling} dias ({cite}). "
            + (f"Ainda cabem {room} dias." if room > 0 else "O prazo já chegou ao limite.")
        )
    days = sanction.days + extra_days
    history = [*sanction.extensions, {"on": day.isoformat(), "days": extra_days, "grounds": grounds.strip()}]
    return update_audited(
        actor=actor,
        instance=sanction,
        changes={
            "days": days,
            "ends_on": sanction.starts_on + dt.timedelta(days=days - 1),
            "extensions": history,
            "citations": list(dict.fromkeys([*sanction.citations, cite])),
        },
        reason=reason,
        action="chartering.sanction_extended",
    )


@transaction.atomic
def end_sanction(
    *, actor: Any, sanction: Sanction, cure_proof: str, reason: str, on: dt.date | None = None
) -> Sanction:
    """End a suspension or cancellation once its term is served and the company proved the fault
    cured (art. 30, § 1º); after a cancellation the company must request a new CRC."""
    day = _today(on)
    sanction = Sanction.unscoped.select_for_update().get(pk=sanction.pk)
    code = sanction.jurisdiction_id
    if sanction.status != Sanction.Status.IN_FORCE or sanction.ends_on is None:
        raise ValidationError("Só uma suspensão ou um cancelamento em vigor pode ser encerrado.")
    rule = rules.value(code, "decision.suspension_end", day) or {}
    cite = rules.citation(code, "decision.suspension_end", day) or rules.cite(code, "art. 30, § 1º")
    if day <= sanction.ends_on:
        raise ValidationError(
            f"A sanção só termina depois do prazo, que vai até {rules.pt(sanction.ends_on)} ({cite})."
        )
    if rule.get("requires_proof", True) and not cure_proof.strip():
        raise ValidationError(f"Informe a comprovação de que a irregularidade foi sanada ({cite}).")
    return update_audited(
        actor=actor,
        instance=sanction,
        changes={"status": Sanction.Status.ENDED, "ended_on": day, "cure_proof": cure_proof.strip()},
        reason=reason,
        action="chartering.sanction_ended",
    )
