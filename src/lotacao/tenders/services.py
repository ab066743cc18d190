"""Write services of the tenders: each transition of the call's state table, keyword-only, atomic,
validated (Portuguese messages naming the article), audited. What differs per law is read from the
pack; nothing here knows a jurisdiction's name.

Laws implemented: Recife art. 2º, § 1º (licitação); Cabo de Santo Agostinho arts. 2º, a–b
(criteria) and 7º (inscriptions within ten days); Esteio arts. 8º, parágrafo único, II–III
(incumbent's preference, draw), 19, § 4º, 20 and 40 (licitação); Maricá arts. 2º, 7º, § 2º
(service time and infractions), 15 (requirements, through the permits' eligibility) and 76,
§§ 1º–2º (provisional permits end at the award; their time may count).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, update_audited
from lotacao.core.formats import br_date
from lotacao.core.models import Jurisdiction
from lotacao.permits import rules
from lotacao.permits import services as permit_services
from lotacao.permits.eligibility import check_eligibility
from lotacao.permits.models import Permit
from lotacao.registry.models import Company, Holder, Line, Vehicle
from lotacao.tenders import selection
from lotacao.tenders.models import Call, TenderAppeal, TenderApplication
from lotacao.tenders.states import require

C = Call.Status
A = TenderApplication.Status


def _reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise ValidationError("Informe o motivo.")
    return reason.strip()


def _fresh(call: Call) -> Call:
    return Call.unscoped.select_for_update().get(pk=call.pk)


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _update(actor: Any, call: Call, changes: dict[str, Any], reason: str, action: str) -> Call:
    return update_audited(actor=actor, instance=call, changes=changes, reason=reason, action=action)


# --------------------------------------------------------------------------- the call


def tie_break(code: str, on: dt.date) -> tuple[str, str]:
    """('draw', citation) where the law fixes the draw (Esteio art. 8º, parágrafo único, III);
    ('', '') where it is the edital's clause."""
    entry = rules.entry(code, "tender.tie_break", on)
    if entry is not None and entry.status == "value" and entry.value == "draw":
        return "draw", str(entry.citation)
    return "", ""


def _law_tenders(code: str, on: dt.date) -> str:
    procedure = rules.entry(code, "permit.grant_procedure", on)
    if procedure is None or procedure.status != "value" or procedure.value not in ("tender", "inscription"):
        raise ValidationError(f"A {rules.law_name(code)} não prevê edital para a outorga de permissões.")
    return str(procedure.citation)


def _window_fits(code: str, opens_on: dt.date, closes_on: dt.date) -> None:
    if closes_on < opens_on:
        raise ValidationError("O fim das inscrições não pode ser anterior ao início.")
    window = rules.entry(code, "permit.application_window", opens_on)
    if window is not None and window.status == "value":
        last = rules.add(opens_on, window.value)
        if closes_on > last:
            raise ValidationError(
                f"As inscrições correm em no máximo {rules.describe(window.value)} da publicação "
                f"({window.citation}): com abertura em {br_date(opens_on)}, vão até {br_date(last)}."
            )


@transaction.atomic
def create_call(
    *,
    actor: Any,
    jurisdiction: Jurisdiction,
    number: str,
    subject: str,
    line: Line,
    places: int,
    opens_on: dt.date,
    closes_on: dt.date,
    reason: str,
    edital_criteria: list[str] | None = None,
    tie_break_clause: str = "",
    count_provisional_time: bool = False,
    permit_valid_until: dt.date | None = None,
) -> Call:
    """Draw up a call: its object (places on a line), window, criteria (the law's, then the
    edital's where the law leaves room) and the tie-break clause where the law gives none."""
    reason = _reason(reason)
    code = jurisdiction.code
    procedure_cite = _law_tenders(code, opens_on)
    number, subject = number.strip(), subject.strip()
    if not number or not subject:
        raise ValidationError("Informe o número e o objeto do edital.")
    if places < 1:
        raise ValidationError("O edital oferece ao menos uma vaga.")
    if line.jurisdiction_id != code:
        raise ValidationError("A linha pertence a outra jurisdição.")
    if not line.active:
        raise ValidationError(f"A linha {line.code} não está ativa.")
    _window_fits(code, opens_on, closes_on)
    law_criteria = list(rules.value(code, "permit.selection_criteria", opens_on) or [])
    extra = [c for c in (edital_criteria or []) if c not in law_criteria]
    unknown = [c for c in extra if c not in selection.EDITAL_CRITERIA]
    if unknown:
        raise ValidationError("Critério do edital desconhecido: " + ", ".join(unknown) + ".")
    citations = (
        [rules.cite(code, "permit.selection_criteria", opens_on)] if law_criteria else [procedure_cite]
    )
    if extra:
        citations.append(f"Edital nº {number}")
    preference, preference_cite = selection.incumbent_preference(code, opens_on)
    if preference:
        citations.append(preference_cite)
    law_draw, draw_cite = tie_break(code, opens_on)
    clause = tie_break_clause.strip()
    if law_draw:
        citations.append(draw_cite)
    elif not clause:
        raise ValidationError(
            f"A {rules.law_name(code)} não fixa o desempate: informe a cláusula do edital que prevê o "
            "sorteio público entre os empatados."
        )
    if count_provisional_time:
        may = rules.entry(code, "tender.provisional_time_may_count", opens_on)
        if may is None or not may.value:
            raise ValidationError(
                f"A {rules.law_name(code)} não prevê permissão provisória a contar no edital."
            )
        citations.append(str(may.citation))
    call = Call(
        jurisdiction=jurisdiction,
        number=number,
        subject=subject,
        line=line,
        places=places,
        opens_on=opens_on,
        closes_on=closes_on,
        criteria=law_criteria + extra,
        criteria_citations=citations,
        edital_criteria=extra,
        tie_break_clause=clause,
        count_provisional_time=count_provisional_time,
        permit_valid_until=permit_valid_until,
    )
    if Call.unscoped.filter(jurisdiction_id=code, number=number).exists():
        raise ValidationError(f"Já existe o edital nº {number}.")
    return create_audited(actor=actor, instance=call, reason=reason, action="call.created")


@transaction.atomic
def open_call(*, actor: Any, call: Call, reason: str, on: dt.date | None = None) -> Call:
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "open")
    if day > call.closes_on:
        raise ValidationError(f"O prazo de inscrição do edital terminou em {br_date(call.closes_on)}.")
    return _update(actor, call, {"status": C.OPEN}, reason, "call.opened")


def provisional_on_line(call: Call, on: dt.date) -> list[int]:
    """Ids of the provisional permits of the call's line that the award will end (where the law
    says so: Maricá art. 76, § 1º)."""
    ends = rules.entry(call.jurisdiction_id, "tender.ends_provisional", on)
    if ends is None or ends.status != "value" or not ends.value:
        return []
    live = selection.live_on(call.jurisdiction_id, on)
    return list(live.filter(line_id=call.line_id, kind=Permit.Kind.PROVISIONAL).values_list("pk", flat=True))


@transaction.atomic
def file_application(
    *,
    actor: Any,
    call: Call,
    holder: Holder,
    vehicle: Vehicle,
    reason: str,
    on: dt.date | None = None,
    association: Company | None = None,
) -> TenderApplication:
    """An application inside the window, by an eligible applicant (the permits' eligibility: bans,
    documents, other permits, residence, age, fines) with a vehicle of their own or free."""
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "apply")
    code = call.jurisdiction_id
    if not call.opens_on <= day <= call.closes_on:
        raise ValidationError(
            f"Inscrição fora do prazo: as inscrições do edital nº {call.number} vão de "
            f"{br_date(call.opens_on)} a {br_date(call.closes_on)}."
        )
    for obj, label in ((holder, "O inscrito"), (vehicle, "O veículo"), (association, "A associação")):
        if obj is not None and obj.jurisdiction_id != code:
            raise ValidationError(f"{label} pertence a outra jurisdição.")
    if vehicle.holder_id is not None and vehicle.holder_id != holder.pk:
        raise ValidationError(f"O veículo {vehicle.plate_display} está cadastrado para outro permissionário.")
    if association is not None and association.kind != Company.Kind.ASSOCIATION:
        raise ValidationError(f"{association.legal_name} não está cadastrada como associação.")
    if TenderApplication.unscoped.filter(call=call, holder=holder).exists():
        raise ValidationError(f"{holder} já está inscrito neste edital.")
    result = check_eligibility(holder=holder, on=day, ending=tuple(provisional_on_line(call, day)))
    if not result.eligible:
        raise ValidationError("Inscrição recusada: requerente inapto. " + result.summary())
    number = TenderApplication.unscoped.filter(call=call).count() + 1
    application = TenderApplication(
        jurisdiction_id=code,
        call=call,
        number=number,
        holder=holder,
        vehicle=vehicle,
        association=association,
        filed_on=day,
        eligibility=result.as_dict(),
    )
    return create_audited(actor=actor, instance=application, reason=reason, action="tender_application.filed")


@transaction.atomic
def close_call(*, actor: Any, call: Call, reason: str, on: dt.date | None = None) -> Call:
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "close")
    if day <= call.closes_on:
        raise ValidationError(
            f"As inscrições vão até {br_date(call.closes_on)}: o edital só se encerra depois desse dia."
        )
    return _update(actor, call, {"status": C.CLOSED}, reason, "call.closed")


# --------------------------------------------------------------------------- ranking and draw


@transaction.atomic
def rank_call(*, actor: Any, call: Call, reason: str, on: dt.date | None = None) -> Call:
    """Score every application from the applicant's dossier on the last day of the window, order
    them by the criteria (and the incumbent's preference where the law gives it) and list the ties
    the public draw decides."""
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "rank")
    applications = list(
        TenderApplication.unscoped.filter(call=call).exclude(status=A.DISQUALIFIED).order_by("number")
    )
    if not applications:
        raise ValidationError("Não há inscrições a classificar: cancele o edital ou publique outro.")
    preference, _ = selection.incumbent_preference(call.jurisdiction_id, call.opens_on)
    facts = {a.number: selection.dossier_facts(a, call.closes_on) for a in applications}
    rows, ties = selection.rank(applications, facts, list(call.criteria), preference)
    for position, row in enumerate(rows, start=1):
        mine = facts[row.application.number]
        update_audited(
            actor=actor,
            instance=row.application,
            changes={
                "facts": mine,
                "incumbent": bool(mine.get("incumbent")),
                "position": position,
                "draw_order": None,
                "status": A.RANKED,
            },
            reason=reason,
            action="tender_application.ranked",
        )
    return _update(
        actor,
        call,
        {
            "status": C.RANKED,
            "ranked_on": day,
            "ties": ties,
            "draw_seed": "",
            "draw_seed_published_in": "",
            "draw_seed_recorded_at": None,
            "draw_held_on": None,
            "draw_result": [],
        },
        reason,
        "call.ranked",
    )


@transaction.atomic
def record_seed(*, actor: Any, call: Call, seed: str, published_in: str, reason: str) -> Call:
    """The seed of the public draw, published before it (step 2 of `selection`'s procedure)."""
    reason = _reason(reason)
    call = _fresh(call)
    require(call, "record_seed")
    if not call.ties:
        raise ValidationError("Não há empate na classificação: não há sorteio a realizar.")
    if call.draw_held_on is not None:
        raise ValidationError(
            f"O sorteio já foi realizado em {br_date(call.draw_held_on)} com a semente registrada."
        )
    seed, published_in = seed.strip(), published_in.strip()
    if not seed or not published_in:
        raise ValidationError("Informe a semente do sorteio e onde ela foi publicada antes do sorteio.")
    return _update(
        actor,
        call,
        {"draw_seed": seed, "draw_seed_published_in": published_in, "draw_seed_recorded_at": timezone.now()},
        reason,
        "call.seed_recorded",
    )


@transaction.atomic
def draw_ties(*, actor: Any, call: Call, reason: str, on: dt.date | None = None) -> Call:
    """The public draw of the ties with the recorded seed; the ranking takes its order."""
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "draw")
    if not call.ties:
        raise ValidationError("Não há empate na classificação: não há sorteio a realizar.")
    if call.draw_held_on is not None:
        raise ValidationError(f"O sorteio já foi realizado em {br_date(call.draw_held_on)}.")
    if not call.draw_seed:
        raise ValidationError("Registre antes a semente do sorteio, publicada antes dele.")
    result = selection.draw_order(call.draw_seed, list(call.ties))
    places = selection.drawn_position(result)
    applications = list(
        TenderApplication.unscoped.filter(call=call, status=A.RANKED).order_by("position", "number")
    )
    ordered = sorted(applications, key=lambda a: (a.position or 0, places.get(a.number, 0)))
    # Inside each tie group the positions the group holds are redistributed in the drawn order.
    by_group: dict[int, list[TenderApplication]] = {}
    group_of = {n: g["group"] for g in result for n in g["numbers"]}
    for application in ordered:
        if application.number in group_of:
            by_group.setdefault(group_of[application.number], []).append(application)
    for group in result:
        members = by_group.get(group["group"], [])
        slots = sorted(a.position or 0 for a in members)
        drawn = sorted(members, key=lambda a: places[a.number])
        for slot, application in zip(slots, drawn, strict=True):
            update_audited(
                actor=actor,
                instance=application,
                changes={"position": slot, "draw_order": places[application.number]},
                reason=f"{reason} — sorteio público com a semente {call.draw_seed!r}",
                action="tender_application.ranked",
            )
    return _update(actor, call, {"draw_held_on": day, "draw_result": result}, reason, "call.drawn")


def replay_draw(call: Call) -> list[dict[str, Any]]:
    """The draw again, from the recorded seed and ties (anyone can check the published result)."""
    return selection.draw_order(call.draw_seed, list(call.ties))


@transaction.atomic
def publish_ranking(
    *,
    actor: Any,
    call: Call,
    appeals_from: dt.date,
    appeals_until: dt.date,
    reason: str,
    on: dt.date | None = None,
) -> Call:
    """Publish the ranking (the public page shows it, without CPFs) with the appeal window the
    edital fixes (the laws give no appeal period for the selection: it is the edital's)."""
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "publish")
    if call.ties and call.draw_held_on is None:
        raise ValidationError("Há empate na classificação: realize antes o sorteio público.")
    if appeals_from < day:
        raise ValidationError("O prazo de recurso não pode começar antes da publicação.")
    if appeals_until < appeals_from:
        raise ValidationError("O fim do prazo de recurso não pode ser anterior ao início.")
    return _update(
        actor,
        call,
        {
            "status": C.PUBLISHED,
            "published_on": day,
            "appeals_from": appeals_from,
            "appeals_until": appeals_until,
        },
        reason,
        "call.published",
    )


@transaction.atomic
def open_appeals(*, actor: Any, call: Call, reason: str, on: dt.date | None = None) -> Call:
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "open_appeals")
    assert call.appeals_from is not None
    if day < call.appeals_from:
        raise ValidationError(f"O prazo de recurso começa em {br_date(call.appeals_from)}.")
    return _update(actor, call, {"status": C.APPEALS}, reason, "call.appeals_opened")


# --------------------------------------------------------------------------- appeals


@transaction.atomic
def file_appeal(
    *, actor: Any, application: TenderApplication, grounds: str, reason: str, on: dt.date | None = None
) -> TenderAppeal:
    reason, day = _reason(reason), _today(on)
    call = _fresh(application.call)
    require(call, "appeal")
    assert call.appeals_from is not None and call.appeals_until is not None
    if not call.appeals_from <= day <= call.appeals_until:
        raise ValidationError(
            f"Recurso fora do prazo: o prazo de recurso vai de {br_date(call.appeals_from)} a "
            f"{br_date(call.appeals_until)}."
        )
    if not grounds.strip():
        raise ValidationError("Informe as razões do recurso.")
    appeal = TenderAppeal(
        jurisdiction_id=call.jurisdiction_id,
        call=call,
        application=application,
        filed_on=day,
        grounds=grounds.strip(),
    )
    return create_audited(actor=actor, instance=appeal, reason=reason, action="tender_appeal.filed")


@transaction.atomic
def judge_appeal(
    *, actor: Any, appeal: TenderAppeal, granted: bool, decision: str, reason: str, on: dt.date | None = None
) -> TenderAppeal:
    """Judge an appeal. Granted, the ranking is redone (the call goes back to closed: the
    committee corrects the dossier, ranks, draws and publishes again with a new appeal window)."""
    reason, day = _reason(reason), _today(on)
    call = _fresh(appeal.call)
    require(call, "judge")
    appeal = TenderAppeal.unscoped.select_for_update().get(pk=appeal.pk)
    if appeal.status != TenderAppeal.Status.FILED:
        raise ValidationError(f"O recurso já foi julgado em {br_date(appeal.decided_on)}.")
    if not decision.strip():
        raise ValidationError("Informe os fundamentos da decisão.")
    status = TenderAppeal.Status.GRANTED if granted else TenderAppeal.Status.DENIED
    appeal = update_audited(
        actor=actor,
        instance=appeal,
        changes={"status": status, "decided_on": day, "decision": decision.strip()},
        reason=reason,
        action="tender_appeal.judged",
    )
    if granted:
        require(call, "reopen")
        _update(
            actor,
            call,
            {"status": C.CLOSED, "published_on": None, "appeals_from": None, "appeals_until": None},
            f"Recurso da inscrição nº {appeal.application.number} provido: a classificação será refeita.",
            "call.reopened",
        )
    return appeal


@transaction.atomic
def disqualify(
    *, actor: Any, application: TenderApplication, reason: str, on: dt.date | None = None
) -> TenderApplication:
    """Take an application out of the ranking (a requirement found missing before the award)."""
    reason = _reason(reason)
    call = _fresh(application.call)
    require(call, "disqualify")
    application = TenderApplication.unscoped.select_for_update().get(pk=application.pk)
    if application.status != A.RANKED:
        raise ValidationError("Só uma inscrição classificada pode ser desclassificada.")
    return update_audited(
        actor=actor,
        instance=application,
        changes={"status": A.DISQUALIFIED, "disqualified_reason": reason},
        reason=reason,
        action="tender_application.disqualified",
    )


# --------------------------------------------------------------------------- award


@transaction.atomic
def award_call(*, actor: Any, call: Call, reason: str, on: dt.date | None = None) -> list[Permit]:
    """Homologate and award: after the appeal window, with every appeal judged. Where the law
    says so the provisional permits of the line end first (Maricá art. 76, § 1º); then the
    winners, in ranking order up to the number of places, receive their permits through the
    permits' grant (eligibility again, quotas, term, number)."""
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "award")
    assert call.appeals_until is not None
    if day <= call.appeals_until:
        raise ValidationError(
            f"O prazo de recurso vai até {br_date(call.appeals_until)}: a adjudicação só depois desse dia."
        )
    pending = TenderAppeal.unscoped.filter(call=call, status=TenderAppeal.Status.FILED).count()
    if pending:
        raise ValidationError(f"Há recursos sem julgamento ({pending}): julgue-os antes da adjudicação.")
    act = f"Edital nº {call.number}, adjudicado em {br_date(day)}"
    ended = _end_provisional(actor=actor, call=call, day=day, act=act)
    ranked = list(TenderApplication.unscoped.filter(call=call, status=A.RANKED).order_by("position"))
    winners, others = ranked[: call.places], ranked[call.places :]
    permits = []
    for application in winners:
        permit = _grant(actor=actor, call=call, application=application, day=day, act=act)
        permits.append(permit)
    for application in others:
        update_audited(
            actor=actor,
            instance=application,
            changes={"status": A.NOT_AWARDED},
            reason=f"{act}: classificada além das {call.places} vagas.",
            action="tender_application.awarded",
        )
    _update(actor, call, {"status": C.AWARDED, "awarded_on": day}, reason, "call.awarded")
    if ended:
        record(
            actor=actor,
            action="call.awarded",
            instance=call,
            reason=f"Permissões provisórias da linha encerradas: {', '.join(ended)}.",
        )
    return permits


def _end_provisional(*, actor: Any, call: Call, day: dt.date, act: str) -> list[str]:
    ids = provisional_on_line(call, day)
    if not ids:
        return []
    ends = rules.entry(call.jurisdiction_id, "tender.ends_provisional", day)
    assert ends is not None
    ended = []
    for permit in Permit.unscoped.filter(pk__in=ids).order_by("pk"):
        permit_services.end_provisional_permit(
            actor=actor,
            permit=permit,
            on=day,
            reason=f"{act}: a licitação da linha foi concluída ({ends.citation}).",
            citation=f"{ends.citation} ({act})",
        )
        ended.append(permit.number or str(permit.pk))
    return ended


def _grant(*, actor: Any, call: Call, application: TenderApplication, day: dt.date, act: str) -> Permit:
    facts = application.facts or {}
    try:
        permit = permit_services.apply_for_permit(
            actor=actor,
            holder=application.holder,
            reason=(
                f"{act}: inscrição nº {application.number}, classificada em {application.position}º lugar."
            ),
            applied_on=day,
            line=call.line,
            vehicle=application.vehicle,
            existing_operator=bool(facts.get("existing_operator")),
            association_member=bool(facts.get("association")),
            service_months=int(facts.get("service_time") or 0),
            infraction_count=int(facts.get("infractions") or 0),
        )
        permit = permit_services.grant_permit(
            actor=actor,
            permit=permit,
            line=call.line,
            vehicle=application.vehicle,
            reason=f"{act}: outorga ao {application.position}º classificado.",
            on=day,
            valid_until=call.permit_valid_until,
            act=act,
        )
    except ValidationError as error:
        raise ValidationError(
            f"A adjudicação não foi feita: a inscrição nº {application.number} "
            f"({application.position}º lugar) não pôde receber a permissão — {' '.join(error.messages)} "
            "Desclassifique-a, com o motivo, para que a vaga passe ao próximo classificado."
        ) from error
    update_audited(
        actor=actor,
        instance=application,
        changes={"status": A.AWARDED, "permit": permit},
        reason=f"{act}: permissão nº {permit.number}.",
        action="tender_application.awarded",
    )
    return permit


@transaction.atomic
def cancel_call(*, actor: Any, call: Call, reason: str, on: dt.date | None = None) -> Call:
    reason, day = _reason(reason), _today(on)
    call = _fresh(call)
    require(call, "cancel")
    return _update(
        actor,
        call,
        {"status": C.CANCELLED, "cancelled_on": day, "cancel_reason": reason},
        reason,
        "call.cancelled",
    )
