"""The end of an intervention in the delegated service (Esteio Lei 3.839/2004, arts. 44–45), as
the delegation sees it. The intervention itself — the decree with interventor, term, objectives and
limits (art. 43, parágrafo único), the procedure opened within `deadline.intervention_procedure`
(art. 44) and concluded within `deadline.intervention_conclusion` (art. 44, § 2º) or void, the
nightly check and its work items — is the enforcement's (`lotacao.enforcement.sanctions.
interventions`); here its two endings that touch the contract:

    procedure_open --nullify--> annulled   (art. 44, § 1º: the service returned at once to the
                                            delegate, without prejudice to its right to indemnity)
    procedure_open --cease----> concluded  (art. 45: the administration returned after the
                                            interventor's accounts — or, where an inquiry to end
                                            the delegation is proposed, the caducidade inquiry opens
                                            on the contract and the service is not returned)

An intervention read here past its deadline is first marked void (the nightly check, run for it on
read), so no screen shows as running an intervention the law already made invalid.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.core.formats import br_date
from lotacao.core.states import StateTable, Transition
from lotacao.delegation import rules, services
from lotacao.delegation.models import Contract, Inquiry
from lotacao.enforcement.models import Intervention
from lotacao.enforcement.sanctions import interventions

S = Intervention.Status
DECIDERS = ("gestor",)
TRANSITIONS: tuple[Transition, ...] = (
    Transition(
        "nullify",
        "Declarar a nulidade",
        "declarar a nulidade da intervenção",
        DECIDERS,
        (S.PROCEDURE_OPEN,),
        S.ANNULLED,
    ),
    Transition(
        "cease", "Cessar a intervenção", "cessar a intervenção", DECIDERS, (S.PROCEDURE_OPEN,), S.CONCLUDED
    ),
)
PHRASES = {
    S.DECREED: "a intervenção foi decretada e o procedimento administrativo ainda não foi instaurado",
    S.PROCEDURE_OPEN: "o procedimento administrativo da intervenção está em curso",
    S.CONCLUDED: "a intervenção já cessou",
    S.VOID: "a intervenção é inválida: o prazo da lei para o procedimento venceu",
    S.ANNULLED: "a intervenção já foi declarada nula",
}
TABLE = StateTable(TRANSITIONS, PHRASES)


def of_contract(contract: Contract, on: dt.date | None = None) -> list[Intervention]:
    """The interventions in the contract's permit, each past its deadline first marked void."""
    day = on or timezone.localdate()
    rows = list(Intervention.unscoped.filter(permit_id=contract.permit_id).values_list("pk", flat=True))
    if rows:
        interventions.check_interventions(today=day, only=rows)
    return list(Intervention.unscoped.filter(pk__in=rows).order_by("-decreed_on", "-pk"))


def deadline_words(row: Intervention, on: dt.date | None = None) -> str:
    """The deadline that runs, in words (or why none runs)."""
    day = on or timezone.localdate()
    if row.status == S.DECREED and row.procedure_due is not None:
        left = (row.procedure_due - day).days
        return f"instaurar o procedimento até {br_date(row.procedure_due)} ({left} dias; art. 44)"
    if row.status == S.PROCEDURE_OPEN and row.conclusion_due is not None:
        left = (row.conclusion_due - day).days
        return (
            f"concluir o procedimento até {br_date(row.conclusion_due)} ({left} dias), sob pena de "
            "invalidade (art. 44, § 2º)"
        )
    return row.outcome_note or row.get_status_display()


def _fresh(contract: Contract, intervention: Intervention, action: str) -> Intervention:
    if intervention.permit_id != contract.permit_id:
        raise ValidationError(f"A intervenção não é na permissão do {contract}.")
    interventions.check_interventions(today=timezone.localdate(), only=[intervention.pk])
    intervention = Intervention.unscoped.get(pk=intervention.pk)
    TABLE.require(intervention.status, action)
    return intervention


@transaction.atomic
def nullify(
    *, actor: Any, contract: Contract, intervention: Intervention, on: dt.date, reasons: str
) -> Intervention:
    """The procedure proved the intervention did not observe the legal grounds: it is null, the
    service returns at once to the delegate, and its right to indemnity is recorded (art. 44, § 1º)."""
    intervention = _fresh(contract, intervention, "nullify")
    reasons = (reasons or "").strip()
    if not reasons:
        raise ValidationError("Informe as razões: os pressupostos legais ou regulamentares não observados.")
    cite = rules.cited(contract.jurisdiction_id, "art. 44, § 1º")
    note = (
        f"Intervenção nula: {reasons} Serviço devolvido à permissionária em {br_date(on)}, sem prejuízo "
        f"do seu direito à indenização ({cite})."
    )
    return interventions.conclude_intervention(
        actor=actor,
        intervention=intervention,
        concluded_on=on,
        outcome_note=note,
        reason=reasons,
        nullity=True,
    )


@transaction.atomic
def cease(
    *,
    actor: Any,
    contract: Contract,
    intervention: Intervention,
    on: dt.date,
    accounts: str = "",
    inquiry_number: str = "",
    inquiry_act: str = "",
    inquiry_facts: str = "",
) -> Inquiry | None:
    """The intervention ceases (art. 45). Without a proposed inquiry to end the delegation, the
    administration returns to the delegate after the interventor's accounts (required). With one
    (its number, act and facts), the caducidade inquiry opens on the contract (arts. 37; 46, § 3º)
    and the service is not returned; it is returned."""
    intervention = _fresh(contract, intervention, "cease")
    code = contract.jurisdiction_id
    cite = rules.cited(code, "art. 45")
    accounts = (accounts or "").strip()
    if inquiry_number.strip() or inquiry_act.strip() or inquiry_facts.strip():
        inquiry = services.open_inquiry(
            actor=actor,
            contract=contract,
            number=inquiry_number,
            opening_act=inquiry_act,
            facts=inquiry_facts,
            on=on,
        )
        note = (
            f"Intervenção cessada em {br_date(on)} com proposta de inquérito para a extinção da "
            f"delegação ({inquiry}): o serviço não é devolvido ({cite})."
            + (f" Contas do interventor: {accounts}" if accounts else "")
        )
        interventions.conclude_intervention(
            actor=actor, intervention=intervention, concluded_on=on, outcome_note=note, reason=note
        )
        return inquiry
    if not accounts:
        raise ValidationError(
            "A devolução da administração do serviço é precedida da prestação de contas do interventor, "
            f"que responde pelos atos da sua gestão ({cite}): informe as contas prestadas — ou proponha "
            "o inquérito para a extinção da delegação."
        )
    note = (
        f"Intervenção cessada em {br_date(on)}: contas do interventor prestadas ({accounts}); "
        f"administração do serviço devolvida à permissionária ({cite})."
    )
    interventions.conclude_intervention(
        actor=actor, intervention=intervention, concluded_on=on, outcome_note=note, reason=note
    )
    return None
