"""Write services of the delegation: keyword-only, atomic, validated (Portuguese messages naming
the article), audited. What the law says is read from the pack (`lotacao.delegation.rules`);
every status change goes through `lotacao.delegation.states`, and every effect on the permit
through the permits' own services (so through `lotacao.permits.states`).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.councils import gates
from lotacao.councils.models import Resolution
from lotacao.delegation import rules, states
from lotacao.delegation.models import (
    Consortium,
    Contract,
    Extinction,
    Inquiry,
    Interruption,
    ReversibleAsset,
)
from lotacao.permits import services as permits
from lotacao.permits.models import Permit
from lotacao.permits.rules import add

I = Inquiry.Status  # noqa: E741
Cause = Extinction.Cause
# Causes of art. 46 that only the caducidade inquiry leads to (due process, art. 37; § 3º, a).
THROUGH_INQUIRY = (Cause.CADUCIDADE, Cause.BREACH)
# Moments a party may invoke to excuse an interruption (art. 27).
EXCUSES = {
    "calamity": "calamidade pública",
    "strike": "greve",
    "external": "fato externo ao serviço",
}


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _text(value: str, message: str) -> str:
    if not value or not value.strip():
        raise ValidationError(message)
    return value.strip()


def _fresh_contract(contract: Contract) -> Contract:
    return Contract.unscoped.select_for_update().get(pk=contract.pk)


def _fresh_inquiry(inquiry: Inquiry) -> Inquiry:
    return Inquiry.unscoped.select_for_update().get(pk=inquiry.pk)


def _law(code: str, cite: str) -> str:
    return rules.cited(code, cite)


# --------------------------------------------------------------------------- the contract


@transaction.atomic
def record_contract(
    *,
    actor: Any,
    permit: Permit,
    number: str,
    signed_on: dt.date,
    clauses: dict[str, str],
    starts_on: dt.date | None = None,
    predecessor: Contract | None = None,
    reason: str,
) -> Contract:
    """Record the contract of a permit (art. 42) with every essential clause, and its term (art. 41).

    A contract that replaces an extinct delegation after the tender (`predecessor`) is born signed:
    its operation starts once the staff take-over is met (art. 49; `takeover.start_contract`)."""
    code = permit.jurisdiction_id
    rules.require_applies(code, signed_on)
    reason = _text(reason, "Informe o motivo.")
    number = _text(number, "Informe o número do contrato.")
    required = rules.clauses(code, signed_on)
    given = {k: (v or "").strip() for k, v in clauses.items() if k in required}
    missing = [k for k in required if not given.get(k)]
    if missing:
        names = "; ".join(f"{k}) {required[k]}" for k in missing)
        raise ValidationError(
            f"Faltam cláusulas essenciais do contrato ({rules.clauses_citation(code, signed_on)}): {names}."
        )
    if permit.effective_status(signed_on) not in Permit.LIVE:
        raise ValidationError(f"A {permit} não está em vigor: não cabe registrar o seu contrato.")
    if Contract.unscoped.filter(
        permit=permit, status__in=(Contract.Status.IN_FORCE, Contract.Status.SIGNED)
    ).exists():
        raise ValidationError(f"A {permit} já tem contrato em vigor.")
    if predecessor is not None:
        predecessor = _fresh_contract(predecessor)
        if predecessor.jurisdiction_id != code:
            raise ValidationError("O contrato extinto precisa ser da mesma jurisdição.")
        if predecessor.status != Contract.Status.EXTINCT:
            raise ValidationError(
                f"O {predecessor} não foi extinto: a sucessora só substitui uma delegação extinta "
                f"({_law(code, 'art. 49')})."
            )
        if Contract.unscoped.filter(predecessor=predecessor).exists():
            raise ValidationError(f"O {predecessor} já tem contrato sucessor registrado.")
        if predecessor.permit_id == permit.pk:
            raise ValidationError("O contrato sucessor precisa ser de outra permissão, a da licitação.")
    start = starts_on or signed_on
    duration, term_cite = rules.term(code, start)
    if duration is None:
        raise ValidationError(f"A {rules.law_name(code)} não fixa o prazo da delegação.")
    return create_audited(
        actor=actor,
        instance=Contract(
            jurisdiction_id=code,
            permit=permit,
            number=number,
            signed_on=signed_on,
            starts_on=start,
            ends_on=add(start, duration),
            term_citation=term_cite,
            clauses={k: given[k] for k in required},
            predecessor=predecessor,
            status=Contract.Status.SIGNED if predecessor is not None else Contract.Status.IN_FORCE,
        ),
        reason=reason,
        action="delegation_contract.recorded",
    )


def missing_clauses(contract: Contract) -> list[str]:
    """The essential clauses of the law the recorded contract does not have (a check for the screen)."""
    required = rules.clauses(contract.jurisdiction_id, contract.signed_on)
    return [k for k in required if not str(contract.clauses.get(k, "")).strip()]


# --------------------------------------------------------------------------- interruption (art. 27)


@transaction.atomic
def record_interruption(
    *,
    actor: Any,
    contract: Contract,
    interrupted_on: dt.date,
    facts: str,
    until: dt.date,
    excuse: str = "",
    on: dt.date | None = None,
) -> Interruption:
    """The service was interrupted: the rights of the permit are suspended at once (art. 27),
    unless the interruption came from a public calamity, a strike or a fact external to the service."""
    day = _today(on)
    code = contract.jurisdiction_id
    rules.require_applies(code, day)
    contract = _fresh_contract(contract)
    states.require_contract(contract, "interrupt")
    facts = _text(facts, "Descreva a interrupção do serviço (dias, horários, linhas).")
    if excuse:
        words = EXCUSES.get(excuse, excuse)
        raise ValidationError(
            f"A interrupção por {words} não enseja a suspensão imediata ({_law(code, 'art. 27')})."
        )
    if interrupted_on > day:
        raise ValidationError("A data da interrupção não pode ser futura.")
    row = create_audited(
        actor=actor,
        instance=Interruption(
            jurisdiction_id=code,
            contract=contract,
            interrupted_on=interrupted_on,
            facts=facts,
            suspended_until=until,
        ),
        reason=facts,
        action="delegation_interruption.recorded",
    )
    permits.suspend_permit(
        actor=actor,
        permit=contract.permit,
        until=until,
        reason=f"Suspensão imediata por interrupção do serviço em {br_date(interrupted_on)} "
        f"({_law(code, 'art. 27')}): {facts}",
        on=day,
    )
    return row


# --------------------------------------------------------------------------- the caducidade inquiry


@transaction.atomic
def open_inquiry(
    *, actor: Any, contract: Contract, number: str, opening_act: str, facts: str, on: dt.date | None = None
) -> Inquiry:
    """Open the administrative inquiry that must precede the caducidade (art. 37), with its facts."""
    day = _today(on)
    code = contract.jurisdiction_id
    rules.require_applies(code, day)
    contract = _fresh_contract(contract)
    states.require_contract(contract, "open_inquiry")
    number = _text(number, "Informe o número do inquérito.")
    act = _text(opening_act, "Informe o ato de instauração do inquérito (portaria, número e data).")
    facts = _text(facts, "Descreva os fatos: as faltas graves reiteradas que fundamentam o inquérito.")
    live = Inquiry.unscoped.filter(contract=contract, status__in=(I.OPENED, I.NOTIFIED, I.DEFENDED))
    if live.exists():
        raise ValidationError(f"O {contract} já tem inquérito de caducidade em andamento ({live.first()}).")
    return create_audited(
        actor=actor,
        instance=Inquiry(
            jurisdiction_id=code,
            contract=contract,
            number=number,
            opened_on=day,
            opening_act=act,
            facts=facts,
        ),
        reason=f"{act}: {facts}",
        action="delegation_inquiry.opened",
    )


@transaction.atomic
def notify_inquiry(*, actor: Any, inquiry: Inquiry, notified_on: dt.date, means: str) -> Inquiry:
    """The holder was notified of the facts: the defense deadline (the agency's value, art. 37) runs."""
    inquiry = _fresh_inquiry(inquiry)
    states.require_inquiry(inquiry, "notify")
    means = _text(means, "Informe o meio da notificação (pessoal, correio com AR, edital).")
    if notified_on < inquiry.opened_on:
        raise ValidationError(
            f"A notificação não pode ser anterior à instauração ({br_date(inquiry.opened_on)})."
        )
    if notified_on > timezone.localdate():
        raise ValidationError("A data da notificação não pode ser futura.")
    due, citations = rules.defense_due(inquiry.jurisdiction_id, notified_on)
    return update_audited(
        actor=actor,
        instance=inquiry,
        changes={
            "status": I.NOTIFIED,
            "notified_on": notified_on,
            "notification_means": means,
            "defense_due": due,
            "defense_deadline_act": citations[:300],
        },
        reason=f"Notificação por {means}; defesa até {br_date(due)}.",
        action="delegation_inquiry.notified",
    )


@transaction.atomic
def record_defense(*, actor: Any, inquiry: Inquiry, filed_on: dt.date, text: str) -> Inquiry:
    inquiry = _fresh_inquiry(inquiry)
    states.require_inquiry(inquiry, "defend")
    text = _text(text, "Informe o teor da defesa.")
    assert inquiry.notified_on is not None and inquiry.defense_due is not None
    if filed_on < inquiry.notified_on:
        raise ValidationError(
            f"A defesa não pode ser anterior à notificação ({br_date(inquiry.notified_on)})."
        )
    if filed_on > inquiry.defense_due:
        raise ValidationError(
            f"A defesa foi apresentada em {br_date(filed_on)}, depois do fim do prazo "
            f"({br_date(inquiry.defense_due)}): registre-a no processo como manifestação fora do prazo."
        )
    return update_audited(
        actor=actor,
        instance=inquiry,
        changes={"status": I.DEFENDED, "defense_on": filed_on, "defense_text": text},
        reason=f"Defesa apresentada em {br_date(filed_on)}.",
        action="delegation_inquiry.defended",
    )


def _decision_ripe(inquiry: Inquiry, day: dt.date) -> None:
    """No decision before the defense deadline ends, unless the defense was filed (art. 37)."""
    if inquiry.status == I.NOTIFIED and inquiry.defense_due is not None and day <= inquiry.defense_due:
        raise ValidationError(
            f"O prazo de defesa vai até {br_date(inquiry.defense_due)} e a defesa ainda não foi "
            f"apresentada: a decisão só pode ser tomada depois desse prazo "
            f"({_law(inquiry.jurisdiction_id, 'art. 37')})."
        )


def _check_recommendation(
    code: str, recommendation: Resolution | None, day: dt.date, opened_on: dt.date
) -> None:
    """The CMTT recommends the extinction once the breach is proven (art. 46, § 3º, a): the
    councils' gate checks the act (council, matter, date, favourable, not revoked)."""
    gates.require(
        code, "permit.extinction", day, recommendation, otherwise="O inquérito continua em andamento."
    )
    if recommendation is not None and recommendation.dated_on < opened_on:
        raise ValidationError(
            f"A {recommendation.citation} é anterior à instauração do inquérito "
            f"({br_date(opened_on)}): a recomendação precisa examinar o processo."
        )


@transaction.atomic
def declare_caducidade(
    *,
    actor: Any,
    inquiry: Inquiry,
    reasons: str,
    recommendation: Resolution | None,
    decree_number: str,
    decree_on: dt.date | None,
    on: dt.date | None = None,
) -> Extinction:
    """Declare the caducidade at the end of the inquiry: the CMTT recommends it and the Mayor
    declares it by decree (art. 46, § 3º, a); the contract is extinct and the permit ends."""
    day = _today(on)
    inquiry = _fresh_inquiry(inquiry)
    states.require_inquiry(inquiry, "declare")
    code = inquiry.jurisdiction_id
    _decision_ripe(inquiry, day)
    reasons = _text(reasons, "Informe as razões da decisão, com os fatos comprovados e a análise da defesa.")
    _check_recommendation(code, recommendation, day, inquiry.opened_on)
    assert recommendation is not None
    decree = _text(
        decree_number, "Informe o decreto do Prefeito que declara a caducidade (art. 46, § 3º, a)."
    )
    if decree_on is None or decree_on < recommendation.dated_on or decree_on > day:
        raise ValidationError(
            "A data do decreto precisa ser posterior à recomendação do CMTT e não pode ser futura."
        )
    update_audited(
        actor=actor,
        instance=inquiry,
        changes={
            "status": I.DECLARED,
            "decided_on": day,
            "decision_reasons": reasons,
            "recommendation": recommendation,
            "decree_number": decree,
            "decree_on": decree_on,
        },
        reason=reasons,
        action="delegation_inquiry.declared",
    )
    return _extinguish(
        actor=actor,
        contract=inquiry.contract,
        cause=Cause.CADUCIDADE,
        extinct_on=decree_on,
        act=f"Decreto nº {decree}, de {br_date(decree_on)}",
        reasons=reasons,
        inquiry=inquiry,
        recommendation=recommendation,
        day=day,
    )


@transaction.atomic
def archive_inquiry(*, actor: Any, inquiry: Inquiry, reasons: str, on: dt.date | None = None) -> Inquiry:
    day = _today(on)
    inquiry = _fresh_inquiry(inquiry)
    states.require_inquiry(inquiry, "archive")
    reasons = _text(reasons, "Informe as razões do arquivamento.")
    return update_audited(
        actor=actor,
        instance=inquiry,
        changes={"status": I.ARCHIVED, "decided_on": day, "decision_reasons": reasons},
        reason=reasons,
        action="delegation_inquiry.archived",
    )


# --------------------------------------------------------------------------- extinction (art. 46)


@transaction.atomic
def extinguish(
    *,
    actor: Any,
    contract: Contract,
    cause: str,
    extinct_on: dt.date,
    act: str,
    reasons: str,
    authorizing_law: str = "",
    indemnity_amount: Decimal | None = None,
    indemnity_paid_on: dt.date | None = None,
    event_on: dt.date | None = None,
    on: dt.date | None = None,
) -> Extinction:
    """Record the extinction by a cause of art. 46 other than the caducidade (which the inquiry
    declares): the term, the encampação (art. 47: an authorizing law and the indemnity paid before),
    the rescisão (art. 48: a final court decision), the company's bankruptcy or end, the holder's
    death or incapacity without successors in the window (art. 46, V)."""
    day = _today(on)
    code = contract.jurisdiction_id
    rules.require_applies(code, day)
    causes = rules.causes(code, day)
    if cause not in causes:
        raise ValidationError("Escolha uma das causas de extinção da lei (art. 46).")
    if cause in THROUGH_INQUIRY:
        raise ValidationError(
            "A extinção por descumprimento contratual ou por caducidade só é declarada ao fim do "
            "inquérito administrativo, com ampla defesa, recomendação do CMTT e decreto do Prefeito "
            f"({_law(code, 'art. 37')}; {_law(code, 'art. 46, § 3º')}): instaure o inquérito."
        )
    if extinct_on > day:
        raise ValidationError("A data da extinção não pode ser futura.")
    act = _text(act, "Informe o ato da extinção (decreto, decisão judicial, certidão).")
    reasons = _text(reasons, "Informe a fundamentação da extinção.")
    contract = _fresh_contract(contract)
    law_text = ""
    paid_on = None
    if cause == Cause.TERM and extinct_on < contract.ends_on:
        raise ValidationError(
            f"O prazo do contrato vai até {br_date(contract.ends_on)} ({contract.term_citation}): "
            "não houve advento do termo."
        )
    if cause == Cause.ENCAMPACAO:
        law_text = _text(
            authorizing_law,
            "A encampação exige lei autorizativa específica: informe o número e a data da lei "
            f"({_law(code, 'art. 47')}).",
        )
        if indemnity_amount is None or indemnity_amount <= 0 or indemnity_paid_on is None:
            raise ValidationError(
                "A encampação só se faz após o prévio pagamento da indenização: informe o valor e a "
                f"data do pagamento ({_law(code, 'art. 47')})."
            )
        if indemnity_paid_on > extinct_on:
            raise ValidationError(
                f"A indenização foi paga em {br_date(indemnity_paid_on)}, depois da retomada "
                f"({br_date(extinct_on)}): a encampação exige o pagamento prévio ({_law(code, 'art. 47')})."
            )
        if extinct_on >= contract.ends_on:
            raise ValidationError("A encampação é a retomada durante o prazo do contrato (art. 47).")
        paid_on = indemnity_paid_on
    if cause == Cause.BANKRUPTCY and contract.permit.holder.company_id is None:
        raise ValidationError(
            "A falência ou extinção da empresa só se aplica a titular pessoa jurídica (art. 46, IV)."
        )
    if cause == Cause.DEATH:
        if event_on is None:
            raise ValidationError("Informe a data do falecimento ou da incapacidade.")
        window = rules.succession_window(code, event_on)
        if window is not None and extinct_on < add(event_on, window):
            raise ValidationError(
                f"Os sucessores podem se habilitar até {br_date(add(event_on, window))}, prazo improrrogável "
                f"de seis meses contado do evento ({_law(code, 'art. 46, V')}): a extinção só depois dele."
            )
    return _extinguish(
        actor=actor,
        contract=contract,
        cause=cause,
        extinct_on=extinct_on,
        act=act,
        reasons=reasons,
        authorizing_law=law_text,
        indemnity_amount=indemnity_amount if cause == Cause.ENCAMPACAO else None,
        indemnity_paid_on=paid_on,
        day=day,
    )


def _extinguish(
    *,
    actor: Any,
    contract: Contract,
    cause: str,
    extinct_on: dt.date,
    act: str,
    reasons: str,
    day: dt.date,
    inquiry: Inquiry | None = None,
    recommendation: Resolution | None = None,
    authorizing_law: str = "",
    indemnity_amount: Decimal | None = None,
    indemnity_paid_on: dt.date | None = None,
) -> Extinction:
    contract = _fresh_contract(contract)
    states.require_contract(contract, "extinguish")
    code = contract.jurisdiction_id
    label = Cause(cause).label
    extinction = create_audited(
        actor=actor,
        instance=Extinction(
            jurisdiction_id=code,
            contract=contract,
            cause=cause,
            extinct_on=extinct_on,
            act=act,
            reasons=reasons,
            inquiry=inquiry,
            recommendation=recommendation,
            authorizing_law=authorizing_law,
            indemnity_amount=indemnity_amount,
            indemnity_paid_on=indemnity_paid_on,
            indemnity_due=rules.indemnity_due(code, extinct_on),
        ),
        reason=f"{label}: {act}. {reasons}",
        action="delegation_extinction.recorded",
    )
    update_audited(
        actor=actor,
        instance=contract,
        changes={"status": Contract.Status.EXTINCT},
        reason=f"{label}: {act}",
        action="delegation_contract.extinct",
    )
    permit = Permit.unscoped.get(pk=contract.permit_id)
    if cause != Cause.TERM:
        # The permit ends through its own state machine (permits.states). The caducidade is the
        # penalty of art. 35, VI (a cassação, with the re-entry ban the law attaches to it:
        # "revoke"); the other causes of art. 46 are no penalty: the permit is extinct, no ban.
        cite = causes_cite(code, cause, day)
        why = f"Extinção da delegação por {lower_first(label)} ({cite}): {act}."
        if cause in THROUGH_INQUIRY:
            permits.revoke_permit(actor=actor, permit=permit, reason=why, on=extinct_on)
        else:
            permits.extinguish_permit(
                actor=actor, permit=permit, cause=f"{label} — {cite}", reason=why, on=extinct_on
            )
    return extinction


def causes_cite(code: str, cause: str, day: dt.date) -> str:
    return rules.causes(code, day).get(cause, rules.law_name(code))


@transaction.atomic
def record_indemnity_payment(
    *, actor: Any, extinction: Extinction, amount: Decimal, paid_on: dt.date
) -> Extinction:
    """The indemnity was paid (art. 46, § 2º: within 180 days of the extinction)."""
    extinction = Extinction.unscoped.select_for_update().get(pk=extinction.pk)
    if extinction.indemnity_paid_on is not None:
        raise ValidationError(
            f"A indenização já foi registrada como paga em {br_date(extinction.indemnity_paid_on)}."
        )
    if amount is None or amount <= 0:
        raise ValidationError("Informe o valor pago da indenização.")
    if paid_on < extinction.extinct_on or paid_on > timezone.localdate():
        raise ValidationError("A data do pagamento precisa estar entre a extinção e hoje.")
    return update_audited(
        actor=actor,
        instance=extinction,
        changes={"indemnity_amount": amount, "indemnity_paid_on": paid_on},
        reason=f"Indenização paga em {br_date(paid_on)}.",
        action="delegation_extinction.indemnity_paid",
    )


def indemnity_state(extinction: Extinction, on: dt.date | None = None) -> str:
    """The indemnity's deadline in words, for the screen."""
    day = _today(on)
    if extinction.indemnity_paid_on is not None:
        return f"paga em {br_date(extinction.indemnity_paid_on)}"
    if extinction.indemnity_due is None:
        return "sem prazo na lei"
    if day > extinction.indemnity_due:
        return f"vencida em {br_date(extinction.indemnity_due)} sem registro de pagamento"
    return f"prazo até {br_date(extinction.indemnity_due)} ({(extinction.indemnity_due - day).days} dias)"


# --------------------------------------------------------------------------- reversible assets


@transaction.atomic
def add_asset(
    *,
    actor: Any,
    contract: Contract,
    kind: str,
    description: str,
    appraised_value: Decimal | None = None,
) -> ReversibleAsset:
    """A bound asset of the service (art. 22) that returns to the municipality at the end (art. 46, § 1º)."""
    states.require_contract(contract, "asset")
    if kind not in ReversibleAsset.Kind.values:
        raise ValidationError("Escolha o tipo do bem (veículo, instalação, garagem, oficina, direito).")
    description = _text(description, "Descreva o bem reversível.")
    if appraised_value is not None and appraised_value < 0:
        raise ValidationError("O valor apurado não pode ser negativo.")
    return create_audited(
        actor=actor,
        instance=ReversibleAsset(
            jurisdiction_id=contract.jurisdiction_id,
            contract=contract,
            kind=kind,
            description=description,
            appraised_value=appraised_value,
        ),
        reason=description,
        action="delegation_asset.recorded",
    )


@transaction.atomic
def return_asset(*, actor: Any, asset: ReversibleAsset, returned_on: dt.date) -> ReversibleAsset:
    asset = ReversibleAsset.unscoped.select_for_update().get(pk=asset.pk)
    extinction = Extinction.unscoped.filter(contract_id=asset.contract_id).first()
    if extinction is None:
        raise ValidationError(
            "Os bens reversíveis só retornam ao Município com a extinção da delegação (art. 46, § 1º)."
        )
    if asset.returned_on is not None:
        raise ValidationError(f"O bem já foi revertido em {br_date(asset.returned_on)}.")
    if returned_on < extinction.extinct_on or returned_on > timezone.localdate():
        raise ValidationError("A data da reversão precisa estar entre a extinção e hoje.")
    return update_audited(
        actor=actor,
        instance=asset,
        changes={"returned_on": returned_on},
        reason=f"Reversão ao Município em {br_date(returned_on)} (art. 46, § 1º).",
        action="delegation_asset.returned",
    )


# --------------------------------------------------------------------------- consortia (art. 19, § 5º)


@transaction.atomic
def propose_consortium(
    *,
    actor: Any,
    contracts: list[Contract],
    name: str,
    rules_text: str,
    on: dt.date | None = None,
) -> Consortium:
    """Concessionaires or permit holders propose an operating consortium under rules of common
    accord; it operates only once approved by the granting authority (art. 19, § 5º)."""
    day = _today(on)
    if len(contracts) < 2:
        raise ValidationError("Um consórcio reúne pelo menos dois contratos de delegação.")
    codes = {c.jurisdiction_id for c in contracts}
    if len(codes) != 1:
        raise ValidationError("Os contratos do consórcio precisam ser da mesma jurisdição.")
    code = codes.pop()
    rules.require_applies(code, day)
    for contract in contracts:
        states.require_contract(contract, "consortium")
    name = _text(name, "Informe o nome do consórcio.")
    rules_text = _text(rules_text, "Informe as regras estabelecidas de comum acordo (art. 19, § 5º).")
    row = create_audited(
        actor=actor,
        instance=Consortium(jurisdiction_id=code, name=name, rules_text=rules_text, proposed_on=day),
        reason=f"Proposta de consórcio operacional: {name}",
        action="delegation_consortium.proposed",
    )
    row.contracts.set(contracts)
    return row


@transaction.atomic
def decide_consortium(
    *, actor: Any, consortium: Consortium, approve: bool, act: str, reasons: str, on: dt.date | None = None
) -> Consortium:
    day = _today(on)
    consortium = Consortium.unscoped.select_for_update().get(pk=consortium.pk)
    states.require_consortium(consortium, "approve" if approve else "refuse")
    act = _text(act, "Informe o ato da decisão do poder concedente (número e data).")
    reasons = _text(reasons, "Informe as razões da decisão.")
    if approve:
        extinct = [str(c) for c in consortium.contracts.all() if c.status != Contract.Status.IN_FORCE]
        if extinct:
            raise ValidationError(f"Não é possível aprovar: {', '.join(extinct)} já não está em vigor.")
    return update_audited(
        actor=actor,
        instance=consortium,
        changes={
            "status": Consortium.Status.APPROVED if approve else Consortium.Status.REFUSED,
            "decided_on": day,
            "decision_act": act,
            "decision_reasons": reasons,
        },
        reason=reasons,
        action="delegation_consortium.approved" if approve else "delegation_consortium.refused",
    )
