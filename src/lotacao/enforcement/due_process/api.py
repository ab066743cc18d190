"""REST endpoints of the due process (mounted at /api/due-process): where a notice stands (the
instance open for filing and its deadline, filings, decisions), filing a defense or appeal (the
holder for their own notices, a clerk at the counter), the body's decisions — judging a filing
(outcome or members' votes, a changed penalty, the measure chosen among the law's alternatives,
Pernambuco's CRC sanction) and applying the penalty where the body does it without a filing
(Cabo's Council, art. 29) — each member's vote on a session's agenda item and the result computed
from the votes, and recording that a decision was communicated. Same scoping, roles
and services as the screens."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Router, Schema
from ninja.errors import HttpError

from lotacao.enforcement import permissions
from lotacao.enforcement.due_process import application, decisions, filings, votes
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import (
    AgendaItem,
    BodyMember,
    Decision,
    Filing,
    InfractionNotice,
    Session,
    Vote,
)

router = Router(tags=["defesa e recursos"])


class FilingOut(Schema):
    """A defense or appeal filed: its receipt, the deadline it met or missed and why."""

    id: int
    receipt: str
    instance: str
    instance_name: str
    body: str | None
    filed_at: dt.datetime
    channel: str
    due_on: dt.date | None
    late: bool
    due_explanation: str
    citations: list[str]
    status: str


class DecisionOut(Schema):
    id: int
    instance: str
    outcome: str
    outcome_label: str
    decided_on: dt.date | None
    reasons: str
    penalty: dict[str, Any]  # the penalty that results (penalties and measures)
    citations: list[str]
    notify_due: dt.date | None
    served_on: dt.date | None
    final: bool
    final_on: dt.date | None
    effects: list[Any]  # what the decision did (a fine issued, a measure lifted…)


class OpenInstanceOut(Schema):
    id: str
    name: str
    due: dt.date | None
    explanation: str
    citations: list[str]
    missing_parameters: list[Any]


class ProcessOut(Schema):
    """Where a notice stands: the instance open for filing (null when none is, or it is blocked),
    its filings and decisions."""

    notice: str
    status: str
    open_instance: OpenInstanceOut | None
    blocked: str  # why no filing can be made now ("" when one can)
    filings: list[FilingOut]
    decisions: list[DecisionOut]


class NotificationOut(Schema):
    id: int
    method: str
    sent_on: dt.date | None
    served_on: dt.date | None  # from the law: when the notification counts as done
    explanation: str
    citations: list[str]
    notice_status: str


def _date(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None


def filing_data(filing: Filing) -> dict[str, Any]:
    return {
        "id": filing.pk,
        "receipt": filing.receipt,
        "instance": filing.instance,
        "instance_name": filing.instance_name,
        "body": filing.body.name if filing.body else None,
        "filed_at": filing.filed_at.isoformat(),
        "channel": filing.channel,
        "due_on": _date(filing.due_on),
        "late": filing.late,
        "due_explanation": filing.due_explanation,
        "citations": filing.citations,
        "status": filing.status,
    }


def decision_data(decision: Decision) -> dict[str, Any]:
    return {
        "id": decision.pk,
        "instance": decision.instance,
        "outcome": decision.outcome,
        "outcome_label": decision.get_outcome_display(),
        "decided_on": _date(decision.decided_on),
        "reasons": decision.reasons,
        "penalty": decision.penalty,
        "citations": decision.citations,
        "notify_due": _date(decision.notify_due),
        "served_on": _date(decision.served_on),
        "final": decision.final,
        "final_on": _date(decision.final_on),
        "effects": decision.effects,
    }


def process_data(notice: InfractionNotice) -> dict[str, Any]:
    stage = current_stage(notice, timezone.localdate())
    return {
        "notice": notice.number,
        "status": notice.status,
        "open_instance": (
            None
            if stage.instance is None or stage.blocked
            else {
                "id": stage.instance["id"],
                "name": stage.instance["name"],
                "due": _date(stage.due),
                "explanation": stage.explanation,
                "citations": stage.citations,
                "missing_parameters": stage.missing,
            }
        ),
        "blocked": stage.blocked,
        "filings": [filing_data(f) for f in notice.filings.select_related("body")],
        "decisions": [decision_data(d) for d in notice.decisions.order_by("decided_on", "id")],
    }


@router.get("/notices/{int:notice_id}", response=ProcessOut, summary="Situação do processo de um auto")
def notice_process(request: HttpRequest, notice_id: int) -> HttpResponse:
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    return JsonResponse(process_data(notice))


class FilingIn(Schema):
    text: str


@router.post(
    "/notices/{int:notice_id}/filings", response={201: FilingOut}, summary="Protocolar defesa ou recurso"
)
def file(request: HttpRequest, notice_id: int, payload: FilingIn) -> HttpResponse:
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    access = getattr(request, "access", None)
    if access is not None and access.holder_id and access.holder_id == notice.holder_id:
        channel, reason = Filing.Channel.PORTAL, "Protocolo pelo portal do permissionário (API)"
    elif permissions.allowed(access, notice.jurisdiction_id, permissions.FILING_ROLES):
        channel, reason = Filing.Channel.COUNTER, "Protocolo no órgão (API)"
    else:
        raise HttpError(403, "Seu perfil não permite protocolar defesa neste auto.")
    filing = filings.file_defense(
        actor=request.user, notice=notice, text=payload.text, channel=channel, reason=reason
    )
    return JsonResponse(filing_data(filing), status=201)


class ServiceIn(Schema):
    served_on: dt.date


@router.post(
    "/decisions/{int:decision_id}/service",
    response=DecisionOut,
    summary="Registrar a comunicação de uma decisão",
)
def serve(request: HttpRequest, decision_id: int, payload: ServiceIn) -> HttpResponse:
    decision = get_object_or_404(Decision.objects.all(), pk=decision_id)
    if not permissions.allowed(
        getattr(request, "access", None),
        decision.jurisdiction_id,
        permissions.FILING_ROLES + permissions.JUDGING_ROLES,
    ):
        raise HttpError(403, "Seu perfil não permite registrar a comunicação.")
    decision = decisions.record_decision_service(
        actor=request.user, decision=decision, served_on=payload.served_on
    )
    return JsonResponse(decision_data(decision))


class NotificationIn(Schema):
    method: str
    sent_on: dt.date | None = None
    received_on: dt.date | None = None
    published_on: dt.date | None = None
    returned: bool = False
    returned_reason: str = ""
    returned_note: str = ""
    address: str = ""
    reason: str = "Notificação registrada pela API"


@router.post(
    "/notices/{int:notice_id}/notifications",
    response={201: NotificationOut},
    summary="Registrar o envio ou a notificação de um auto",
)
def notify(request: HttpRequest, notice_id: int, payload: NotificationIn) -> HttpResponse:
    """A letter sent (awaiting its AR), or the notification done (by hand, AR, returned letter,
    edital): the date it counts as served comes from the law."""
    from lotacao.enforcement.notices.notification import record_notification

    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    if not permissions.allowed(
        getattr(request, "access", None), notice.jurisdiction_id, permissions.FILING_ROLES
    ):
        raise HttpError(403, "Seu perfil não permite registrar notificações.")
    service = record_notification(actor=request.user, notice=notice, **payload.dict())
    notice.refresh_from_db()
    return JsonResponse(
        {
            "id": service.pk,
            "method": service.method,
            "sent_on": _date(service.sent_on),
            "served_on": _date(service.served_on),
            "explanation": service.explanation,
            "citations": service.citations,
            "notice_status": notice.status,
        },
        status=201,
    )


def _require_judging(request: HttpRequest, code: str) -> None:
    if not permissions.allowed(getattr(request, "access", None), code, permissions.JUDGING_ROLES):
        raise HttpError(403, "Seu perfil não permite decidir neste processo.")


def _session(session_id: int | None) -> Session | None:
    if session_id is None:
        return None
    session: Session = get_object_or_404(Session.objects.all(), pk=session_id)
    return session


class VoteIn(Schema):
    member_id: int
    vote: str  # uphold, annul, change, abstain, impeded, suspect
    reasons: str = ""


class PenaltyApplicationIn(Schema):
    outcome: str
    reasons: str
    decided_on: dt.date
    session_id: int | None = None
    new_penalty: str = ""
    new_value: str | None = None
    votes: list[VoteIn] = []  # each member's vote, where the body records them (the outcome is then theirs)


@router.post(
    "/notices/{int:notice_id}/application",
    response={201: DecisionOut},
    summary="Aplicação da penalidade pelo órgão, onde a lei a dá sem protocolo (Cabo: o Conselho, art. 29)",
)
def apply_penalty(request: HttpRequest, notice_id: int, payload: PenaltyApplicationIn) -> HttpResponse:
    """outcome: upheld (aplicada como calculada), changed (com `new_penalty`: warning, fine or
    suspension, with `new_value` in R$ or days) or annulled (não aplicada)."""
    notice = get_object_or_404(InfractionNotice.objects.all(), pk=notice_id)
    _require_judging(request, notice.jurisdiction_id)
    session = _session(payload.session_id)
    decision = application.apply_penalty(
        actor=request.user,
        notice=notice,
        outcome=payload.outcome,
        reasons=payload.reasons,
        decided_on=payload.decided_on,
        session=session,
        penalty=decisions.penalty_from(payload.new_penalty, payload.new_value, notice),
        reason="Aplicação da penalidade pelo órgão (API)",
        **_application_votes(session, payload.votes),
    )
    return JsonResponse(decision_data(decision), status=201)


class JudgmentIn(Schema):
    reasons: str
    decided_on: dt.date
    outcome: str | None = None
    session_id: int | None = None
    votes: list[VoteIn] = []
    new_penalty: str = ""
    new_value: str | None = None
    measure_choice: str | None = None


def _votes(session: Session | None, votes: list[VoteIn]) -> dict[BodyMember, str] | None:
    if not votes:
        return None
    if session is None:
        raise ValidationError("Votos só se registram em sessão: informe a sessão.")
    present = {m.pk: m for m in session.present.all()}
    out: dict[BodyMember, str] = {}
    for vote in votes:
        member = present.get(vote.member_id)
        if member is None:
            raise ValidationError(f"O membro {vote.member_id} não está presente na sessão.")
        out[member] = vote.vote
    return out


def _reasons_given(given: dict[BodyMember, str] | None, votes: list[VoteIn]) -> dict[BodyMember, str] | None:
    """The reasons of each vote, when the caller sends any (then every vote needs its own)."""
    if not given or not any(v.reasons.strip() for v in votes):
        return None
    by_id = {m.pk: m for m in given}
    return {by_id[v.member_id]: v.reasons for v in votes}


def _application_votes(session: Session | None, votes: list[VoteIn]) -> dict[str, Any]:
    given = _votes(session, votes)
    if not given:
        return {}
    return {"votes": given, "vote_reasons": _reasons_given(given, votes) or {}}


@router.post(
    "/filings/{int:filing_id}/decision",
    response={201: DecisionOut},
    summary="Julgar uma defesa ou um recurso",
)
def judge(request: HttpRequest, filing_id: int, payload: JudgmentIn) -> HttpResponse:
    """The outcome (upheld, changed, annulled, not_known) or, where the law gives a voting rule,
    the votes of the members present (uphold, change, annul); `new_penalty` for a changed one
    (warning, fine, suspension — or Pernambuco's crc_suspension, crc_cancellation,
    crc_revocation, added to the fine); `measure_choice` where the law offers alternatives
    (Esteio, Anexo II, IV-02)."""
    filing = get_object_or_404(Filing.objects.select_related("notice"), pk=filing_id)
    _require_judging(request, filing.jurisdiction_id)
    session = _session(payload.session_id)
    decision = decisions.decide(
        actor=request.user,
        filing=filing,
        session=session,
        outcome=payload.outcome,
        votes=(given := _votes(session, payload.votes)),
        vote_reasons=_reasons_given(given, payload.votes),
        reasons=payload.reasons,
        decided_on=payload.decided_on,
        penalty=decisions.penalty_from(payload.new_penalty, payload.new_value, filing.notice),
        measure_choice=payload.measure_choice or None,
        reason="Julgamento (API)",
    )
    decision.refresh_from_db()
    return JsonResponse(decision_data(decision), status=201)


class BallotIn(Schema):
    member_id: int
    vote: str  # uphold, annul, change, abstain, impeded, suspect
    reasons: str = ""


class VoteOut(Schema):
    member_id: int
    member: str
    role: str
    vote: str
    vote_label: str
    reasons: str
    tie_break: bool
    late: bool


class VoteResultOut(Schema):
    """The vote on an agenda item so far: the counts on the merits, the outcome when the decision
    can be recorded, or why not (`refusal`), who still has to vote."""

    item_id: int
    filing_id: int
    ready: bool
    outcome: str | None
    outcome_label: str
    counts: dict[str, int]
    tie_break: bool
    note: str
    refusal: str
    missing: list[str]
    impeded: list[str]
    abstained: list[str]
    quorum: int | None
    eligible: int
    votes: list[VoteOut]


def _vote_data(vote: Vote) -> dict[str, Any]:
    return {
        "member_id": vote.member_id,
        "member": vote.member.name,
        "role": vote.member.get_role_display(),
        "vote": vote.choice,
        "vote_label": vote.get_choice_display(),
        "reasons": vote.reasons,
        "tie_break": vote.tie_break,
        "late": vote.late,
    }


def _result_data(item: AgendaItem) -> dict[str, Any]:
    result = votes.result(item)
    return {
        "item_id": item.pk,
        "filing_id": item.filing_id,
        "ready": result.ready,
        "outcome": result.outcome,
        "outcome_label": votes.LABELS.get(result.outcome or "", ""),
        "counts": result.counts,
        "tie_break": result.tie_break,
        "note": result.note,
        "refusal": result.refusal,
        "missing": [m.name for m in result.missing],
        "impeded": [m.name for m in result.out_of_count],
        "abstained": [m.name for m in result.abstained],
        "quorum": result.quorum,
        "eligible": result.eligible,
        "votes": [_vote_data(v) for v in item.votes.select_related("member").order_by("member__name")],
    }


@router.post(
    "/agenda/{int:item_id}/votes",
    response={201: VoteOut},
    summary="Registrar o voto de um membro num processo da pauta",
)
def cast_vote(request: HttpRequest, item_id: int, payload: BallotIn) -> HttpResponse:
    """A member present votes on the merits (uphold, annul, change) with the reasons of the vote,
    abstains, or declares an impediment or suspicion (impeded, suspect) with its reason; the vote
    can be changed until the decision."""
    item = get_object_or_404(AgendaItem.objects.select_related("session"), pk=item_id)
    _require_judging(request, item.jurisdiction_id)
    member = BodyMember.objects.filter(pk=payload.member_id).first()
    if member is None:
        raise ValidationError(f"O membro {payload.member_id} não existe neste órgão.")
    vote = votes.cast_vote(
        actor=request.user,
        item=item,
        member=member,
        choice=payload.vote,
        reasons=payload.reasons,
        reason="Voto registrado na sessão (API)",
    )
    return JsonResponse(_vote_data(vote), status=201)


@router.get(
    "/agenda/{int:item_id}/result",
    response=VoteResultOut,
    summary="Resultado da votação de um processo da pauta",
)
def vote_result(request: HttpRequest, item_id: int) -> dict[str, Any]:
    item = get_object_or_404(AgendaItem.objects.all(), pk=item_id)
    if not permissions.allowed(
        getattr(request, "access", None), item.jurisdiction_id, permissions.PROCESS_VIEW_ROLES
    ):
        raise HttpError(403, "Seu perfil não tem acesso às sessões de julgamento.")
    return _result_data(item)
