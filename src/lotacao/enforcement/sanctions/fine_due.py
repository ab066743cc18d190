"""When a fine falls due, read from the pack at every event of the process (the plan `sync_fine`
applies): its status, due date, why, and whether a filing contests it.

- `fine.due` = `defense_deadline` (Recife): due at the end of the first instance's deadline
  counted from the service of the notice; a defense at an instance whose `payment` is `postpones`
  postpones it until the decision; a rejected defense falls due on the date the decision is served
  (`after_rejection: decision_served`).
- `fine.due` = `after_final` (Pernambuco): the engine deadline `deadline` counted from the final
  decision.
- `fine.due` undefined (Esteio, Maricá, Cabo): the clerk gives the due date on the slip; an appeal
  at an instance whose `payment` is `suspends` suspends the fine when not judged by the due date,
  and a refusal after it needs a new slip (Esteio Anexo I art. 22 § 1º).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils import timezone

from lotacao.core.formats import br_date, lower_first
from lotacao.core.law import entry
from lotacao.enforcement.due_process.procedure import instances, run_deadline, short_cites
from lotacao.enforcement.models import Decision, Filing, Fine, InfractionNotice
from lotacao.enforcement.reading import infraction_day, silence

Status = Fine.Status
CENT = Decimal("0.01")
REJECTED = (Decision.Outcome.UPHELD, Decision.Outcome.CHANGED, Decision.Outcome.NOT_KNOWN)
AGENCY_DUE = "Vencimento informado pelo órgão"


def fine_terms(penalty: dict[str, Any] | None) -> dict[str, Any] | None:
    """The fine of a penalty JSON: {"amount"} in BRL or {"units", "unit"}; None without a fine."""
    for item in (penalty or {}).get("penalties", []) or []:
        if item.get("type") != "fine":
            continue
        if item.get("amount") not in (None, ""):
            amount = Decimal(str(item["amount"])).quantize(CENT)
            return {"amount": amount, "units": None, "unit": ""}
        if item.get("units") not in (None, "") and item.get("unit"):
            return {"amount": None, "units": Decimal(str(item["units"])), "unit": str(item["unit"])}
    return None


def deadline(code: str, deadline_id: str, start: dt.date) -> tuple[dt.date | None, list[str], str]:
    """The engine's deadline from `start`: (due, citations, explanation)."""
    result = run_deadline(code, deadline_id, start)
    return result["due"], result["citations"], result["explanation"]


def process_of(notice: InfractionNotice) -> tuple[list[Filing], list[Decision]]:
    filings = list(Filing.unscoped.filter(notice=notice).order_by("filed_at", "id"))
    decisions = list(Decision.unscoped.filter(notice=notice).order_by("decided_on", "id"))
    return filings, decisions


def terms_in_force(notice: InfractionNotice, decisions: list[Decision]) -> tuple[dict[str, Any] | None, str]:
    """(the fine of the penalty in force, why it is cancelled or "")."""
    if notice.status in (InfractionNotice.Status.ANNULLED, InfractionNotice.Status.ARCHIVED):
        return None, f"Auto {lower_first(notice.get_status_display())}: multa cancelada."
    terms = fine_terms(notice.penalty)
    for decision in decisions:
        if decision.outcome == Decision.Outcome.ANNULLED:
            return None, f"Auto anulado pela decisão de {br_date(decision.decided_on)}: multa cancelada."
        if decision.outcome == Decision.Outcome.CHANGED and decision.penalty:
            terms = fine_terms(decision.penalty)
            if terms is None:
                return None, (
                    f"Penalidade alterada sem multa pela decisão de {br_date(decision.decided_on)}: "
                    "multa cancelada."
                )
    return terms, ""


# --------------------------------------------------------------------------------------- the plan


@dataclass
class Plan:
    status: str
    due_on: dt.date | None
    explanation: str
    citations: list[str] = field(default_factory=list)
    contested: bool = False
    note: str = ""
    new_slip: bool = False


@dataclass
class Reading:
    """What the plan reads once: the law's instances and `fine.due`, the process so far."""

    code: str
    day: dt.date
    steps: list[dict[str, Any]]
    effects: dict[str, str]  # instance id → its payment effect (postpones / suspends / none)
    decisions: list[Decision]
    pending: list[Filing]  # filings in time that contest the fine
    rule: dict[str, Any] | None  # fine.due, or None where the law gives none
    cite: str  # fine.due's citation

    def instance(self, instance_id: str) -> dict[str, Any]:
        return next((i for i in self.steps if str(i.get("id")) == instance_id), {})

    def rejection(self, effect: str) -> Decision | None:
        """The last decision that rejected a filing at an instance with this payment effect."""
        ids = {k for k, v in self.effects.items() if v == effect}
        return next(
            (
                d
                for d in reversed(self.decisions)
                if d.instance in ids and d.filing_id and d.outcome in REJECTED
            ),
            None,
        )


def _pending(filings: list[Filing], decisions: list[Decision], effects: dict[str, str]) -> list[Filing]:
    """Filings in time, not yet decided, at an instance whose payment effect is postpones/suspends."""
    decided = {d.filing_id for d in decisions if d.filing_id}
    return [
        f
        for f in filings
        if not f.late
        and f.pk not in decided
        and f.status in (Filing.Status.PENDING, Filing.Status.DILIGENCE)
        and effects.get(f.instance) in ("postpones", "suspends")
    ]


def _read(notice: InfractionNotice) -> Reading:
    code = notice.jurisdiction_id
    day = infraction_day(notice)
    steps = instances(code, day)
    effects = {str(i.get("id")): str(i.get("payment", "none")) for i in steps}
    filings, decisions = process_of(notice)
    found = entry(code, "fine.due", day)
    rule = found.value if found is not None and found.status == "value" else None
    cite = str(found.citation) if found is not None else ""
    return Reading(code, day, steps, effects, decisions, _pending(filings, decisions, effects), rule, cite)


def due_plan(fine: Fine, notice: InfractionNotice, on: dt.date) -> Plan:
    """The fine's status and due date now, by the law's rule."""
    law = _read(notice)
    if law.rule is None:
        return _by_the_agency(fine, law, on)
    if law.rule.get("rule") == "after_final":
        return _after_final(law)
    return _after_defense_deadline(fine, notice, law)


def _after_final(law: Reading) -> Plan:
    """Pernambuco: due the engine's deadline after the final decision."""
    assert law.rule is not None
    final = next((d for d in reversed(law.decisions) if d.final and d.final_on), None)
    if final is None or final.final_on is None:
        return Plan(
            Status.AWAITING,
            None,
            f"A multa só é exigível depois da decisão definitiva ({law.cite}).",
            [law.cite],
        )
    due, cites, text = deadline(law.code, str(law.rule.get("deadline")), final.final_on)
    return Plan(
        Status.OPEN, due, f"Decisão definitiva em {br_date(final.final_on)}. {text}", [law.cite, *cites]
    )


def _after_defense_deadline(fine: Fine, notice: InfractionNotice, law: Reading) -> Plan:
    """Recife: due at the end of the defense deadline from the service, postponed by a defense,
    due on the service of the decision that rejects it."""
    if notice.served_on is None:
        return Plan(
            Status.AWAITING,
            None,
            "A multa vence com o fim do prazo de defesa, contado da notificação, ainda não registrada "
            f"({law.cite}).",
            [law.cite],
        )
    if law.pending:
        filing = law.pending[0]
        return Plan(
            Status.AWAITING,
            None,
            f"{filing.instance_name} protocolada em {br_date(timezone.localdate(filing.filed_at))} "
            f"(protocolo {filing.receipt}): o vencimento fica adiado até a decisão ({law.cite}).",
            [law.cite, *short_cites(law.instance(filing.instance))],
            contested=True,
        )
    rejection = law.rejection("postpones")
    assert law.rule is not None
    if rejection is not None and law.rule.get("after_rejection") == "decision_served":
        return _after_rejection(rejection, law)
    return _end_of_defense(fine, notice, law)


def _after_rejection(rejection: Decision, law: Reading) -> Plan:
    if rejection.served_on is None:
        return Plan(
            Status.AWAITING,
            None,
            f"Defesa julgada improcedente em {br_date(rejection.decided_on)}: a multa vence no "
            f"recebimento da decisão, ainda não registrado ({law.cite}).",
            [law.cite],
            contested=True,
        )
    return Plan(
        Status.OPEN,
        rejection.served_on,
        "Defesa julgada improcedente: a multa vence na data do recebimento da decisão, "
        f"{br_date(rejection.served_on)} ({law.cite}).",
        [law.cite],
    )


def _end_of_defense(fine: Fine, notice: InfractionNotice, law: Reading) -> Plan:
    """No defense: due at the end of the first instance's deadline from the service."""
    assert notice.served_on is not None
    first = next((i for i in law.steps if i.get("starts") == "served"), law.steps[0] if law.steps else {})
    deadline_id = first.get("deadline")
    if not deadline_id:
        reason, cite = silence(law.code, "fine.due", law.day)
        return Plan(Status.OPEN, fine.due_on, f"Prazo de defesa indefinido: {reason} ({cite}).", [law.cite])
    due, cites, text = deadline(law.code, str(deadline_id), notice.served_on)
    return Plan(
        Status.OPEN,
        due,
        f"Sem defesa, a multa vence com o fim do prazo de defesa ({law.cite}). {text}",
        list(dict.fromkeys([law.cite, *cites])),
    )


# ------------------------------------------------------------ where the agency gives the due date


def _by_the_agency(fine: Fine, law: Reading, on: dt.date) -> Plan:
    """The law gives no due date: the agency's (from the slip), with the suspensive appeal."""
    reason, cite = silence(law.code, "fine.due", law.day)
    if fine.due_on is not None and fine.due_explanation.startswith(AGENCY_DUE):
        base = fine.due_explanation  # as the slip stated it
    elif fine.due_on is not None:
        base = f"{AGENCY_DUE}: {br_date(fine.due_on)} ({reason}; {cite})."
    else:
        base = f"A lei não fixa o vencimento ({reason}; {cite}): o órgão informa a data ao emitir a guia."
    if law.pending:
        return _while_appealed(fine, law, base, cite, on)
    refused = law.rejection("suspends")
    if refused is not None and (
        fine.status == Status.SUSPENDED or (fine.due_on is not None and refused.decided_on > fine.due_on)
    ):
        cites = short_cites(law.instance(refused.instance))
        return Plan(
            Status.OPEN,
            None,
            f"Recurso indeferido em {br_date(refused.decided_on)}, depois do vencimento: emite-se nova "
            f"guia com novo vencimento ({', '.join(cites)}).",
            [cite, *cites],
            note="Aguardando nova guia de pagamento.",
            new_slip=True,
        )
    kept = base == fine.due_explanation and fine.due_citations
    return Plan(Status.OPEN, fine.due_on, base, list(fine.due_citations) if kept else [cite])


def _while_appealed(fine: Fine, law: Reading, base: str, cite: str, on: dt.date) -> Plan:
    """A filing contests the fine: postponed, or suspended once past due while not judged."""
    filing = law.pending[0]
    instance_cites = short_cites(law.instance(filing.instance))
    cites = [cite, *instance_cites]
    if law.effects.get(filing.instance) == "postpones":
        return Plan(Status.AWAITING, fine.due_on, base, cites, contested=True)
    if fine.status == Status.SUSPENDED or (fine.due_on is not None and on > fine.due_on):
        return Plan(
            Status.SUSPENDED,
            fine.due_on,
            base,
            cites,
            contested=True,
            note=(
                f"{filing.instance_name} (protocolo {filing.receipt}) não julgado até o vencimento: "
                f"aplicação da multa suspensa; se indeferido, emite-se nova guia "
                f"({', '.join(instance_cites)})."
            ),
        )
    return Plan(Status.OPEN, fine.due_on, base, cites, contested=True)
