"""Demo data of enforcement (called by lotacao.demo.base after permits, documents, inspections).

For each jurisdiction, against the demo holder of `permissionario.<code>` (their active permit
where the law has permits, else their vehicle):
- the judging bodies of the pack (`judging.ensure_bodies`), with members — as many as the law
  names for a collegiate body (else three), one authority for a body that decides alone — the
  president linked to the demo user `comissao.<code>`;
- where the law fines in a fiscal unit it does not price (Maricá's UFIMA, art. 51; Esteio's UFRM,
  art. 18 and Anexo I, art. 19), a demonstration value of the unit (a fictitious act, never the
  law's value), so those fines have a slip in R$;
- three notices drawn up by `fiscal.<code>` through the engine (real codes of the pack; Cabo and
  Maricá by group), each served by hand:
  1. recent, served 3 days ago: its deadline is open, the holder sees "Apresentar defesa";
  2. served 20 days ago, with a defense filed at the counter two days later; for a collegiate
     body, a session scheduled for today with that filing on its agenda (the commission opens it
     and judges);
  3. served 90 days ago, nothing filed: made final by `settle.settle_due_process` (history);
  where the law gives the body the first decision (Cabo's Council applies the penalty, art. 29),
  the notices of stages 2 and 3 are applied by it the day after their service and the
  application communicated the day after; the recent one waits for it;
- the fines of the notices whose penalty has one (`fines.issue_fine`; where the law fixes no due
  date, the agency's: today + 30 days).
- on the defended notice, the first measure the engine lists that does not stop the vehicle
  (`measures.apply_measure`: Recife's seizure of documents, Esteio's removal of staff), so the
  demo vehicles stay authorized at the public plate check.

Idempotent: notices are found by their demo description, members by name, sessions by day;
every write goes through the services (actor None, reason "Dados de demonstração").
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from lotacao.accounts.models import HolderAccount, User
from lotacao.core.law import pack_for, value
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.enforcement.due_process import (
    application,
    decisions,
    filings,
    judging,
    minutes,
    procedure,
    settle,
)
from lotacao.enforcement.models import (
    BodyMember,
    Decision,
    Filing,
    Fine,
    InfractionNotice,
    JudgingBody,
    Measure,
    OffenderKind,
    Session,
)
from lotacao.enforcement.notices import services
from lotacao.enforcement.notices.notification import record_notification
from lotacao.enforcement.notices.selectors import catalogue
from lotacao.enforcement.sanctions import fine_due, fines, measures
from lotacao.permits.models import Permit
from lotacao.registry.models import Vehicle
from lotacao.web.agency_values import set_agency_value

REASON = "Dados de demonstração"
MANDATE_DAYS_AGO = 120
DEFAULT_MEMBERS = 3  # a collegiate body whose law does not say how many members it has
AGENCY_DUE_DAYS = 30  # the agency's due date where the law fixes none
# (code, group) of the three notices: a real code of the pack with its group where the law
# gives none (Maricá); Cabo's law has no catalogue, only the classes of art. 26 (the notice
# still needs an enquadramento: the article).
INFRACTIONS: dict[str, list[tuple[str, str]]] = {
    "recife": [("G2-a", ""), ("G3-a", ""), ("G2-f", "")],
    "cabo": [("art26", "leve"), ("art26", "media"), ("art26", "leve")],
    "esteio": [("II-02", ""), ("III-02", ""), ("II-05", "")],
    # the appealed one is a warning: an appeal against a fine needs the fine paid first (art. 70)
    "marica": [("art42-I", "B"), ("art42-II", "A"), ("art42-III", "B")],
    "pernambuco": [("III-a", ""), ("III-b", ""), ("III-c", "")],
}
# (days before today the notice was served, place)
STAGES = [
    (3, "Av. Principal, em frente ao terminal"),
    (20, "Ponto final da linha"),
    (90, "Praça da Matriz"),
]
MEMBER_NAMES = [
    "Helena Cavalcanti",
    "Roberto Wanderley",
    "Cláudia Menezes",
    "Paulo Brandão",
    "Teresa Albuquerque",
    "Marcos Bezerra",
    "Lúcia Fontes",
]
DEFENSE_TEXT = (
    "O veículo estava parado para embarque autorizado e o permissionário apresenta fotos e a "
    "declaração de dois passageiros. Pede o arquivamento do auto."
)


def load(today: dt.date, summary: Any) -> None:
    # The services refuse dates after the real day (filings, decisions): never go past it.
    today = min(today, timezone.localdate())
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        code = jurisdiction.code
        if code not in INFRACTIONS:
            continue
        account = HolderAccount.objects.filter(user__username=f"permissionario.{code}").first()
        inspector = User.objects.filter(username=f"fiscal.{code}").first()
        if account is None or inspector is None:
            continue
        commission = User.objects.filter(username=f"comissao.{code}").first()
        _agency_groups(jurisdiction, summary)
        _fiscal_units(jurisdiction, summary)
        _bodies(code, today, commission, summary)
        for n in (2, 1, 0):  # oldest first, so the numbers follow the dates
            _notice(jurisdiction, account.holder, inspector, n, today, summary)
    # What no instance can change any more (the notices of stage 3) becomes final: history.
    result = settle.settle_due_process(today=today)
    summary.created += len(result.lapsed) + len(result.final)


GROUPS_ACT = "Portaria de demonstração: grupos das condutas (valor fictício)"


def _agency_groups(jurisdiction: Jurisdiction, summary: Any) -> None:
    """Where the law leaves each conduct's group to the agency (Maricá art. 43), the manager sets
    it once: the demo's conducts get the groups of its notices, so the phone form never asks."""
    parameter = services.GROUPS_PARAMETER
    pack = pack_for(jurisdiction.code)
    if not pack.has(parameter):
        return
    if AgencyValue.unscoped.filter(jurisdiction=jurisdiction, parameter=parameter).exists():
        summary.existing += 1
        return
    notices = INFRACTIONS[jurisdiction.code]
    groups = {code: group for code, group in notices if group and code in pack.infractions}
    set_agency_value(
        actor=None,
        jurisdiction=jurisdiction,
        parameter=parameter,
        valid_from=pack.start,
        value=groups,
        cite=GROUPS_ACT,
        reason=REASON,
    )
    summary.created += 1


# The value in R$ of a fiscal unit the law fines in but does not price (Maricá's UFIMA, art. 51;
# Esteio's UFRM: the municipality publishes it). A demonstration value, NOT the real unit: it only
# lets the demo's fines become payable slips; the agency types the published value in "Valores da
# lei". Never in the law pack.
FISCAL_UNITS = {"marica": {"fiscal_unit.UFIMA": "4.50"}, "esteio": {"fiscal_unit.UFRM": "5.00"}}
FISCAL_UNITS_ACTS = {
    "fiscal_unit.UFIMA": "Decreto de demonstração da UFIMA (valor fictício, não é o valor oficial)",
    "fiscal_unit.UFRM": "Decreto de demonstração da UFRM (valor fictício, não é o valor oficial)",
}
FISCAL_UNITS_ACT = FISCAL_UNITS_ACTS["fiscal_unit.UFIMA"]


def _fiscal_units(jurisdiction: Jurisdiction, summary: Any) -> None:
    """Before the notices, so their fines are charged in R$ from the start (`fines.sync_charge`)."""
    pack = pack_for(jurisdiction.code)
    for parameter, amount in FISCAL_UNITS.get(jurisdiction.code, {}).items():
        if AgencyValue.unscoped.filter(jurisdiction=jurisdiction, parameter=parameter).exists():
            summary.existing += 1
            continue
        set_agency_value(
            actor=None,
            jurisdiction=jurisdiction,
            parameter=parameter,
            valid_from=pack.start,
            value=amount,
            cite=FISCAL_UNITS_ACTS[parameter],
            reason=REASON,
        )
        summary.created += 1


def _count(summary: Any, created: bool) -> None:
    if created:
        summary.created += 1
    else:
        summary.existing += 1


# ----------------------------------------------------------------------------------- bodies


def _bodies(code: str, today: dt.date, commission: Any, summary: Any) -> None:
    before = JudgingBody.unscoped.filter(jurisdiction_id=code).count()
    bodies = judging.ensure_bodies(code, today)
    summary.created += len(bodies) - before
    summary.existing += before
    for index, body in enumerate(bodies):
        rules = procedure.body_rules(code, body.key, today)
        size = int(rules.get("members") or DEFAULT_MEMBERS) if body.collegiate else 1
        for n in range(size):
            name = MEMBER_NAMES[(index * 2 + n) % len(MEMBER_NAMES)]
            if BodyMember.unscoped.filter(body=body, name=name).exists():
                _count(summary, False)
                continue
            judging.add_member(
                actor=None,
                body=body,
                name=name,
                role=BodyMember.Role.PRESIDENT if n == 0 else BodyMember.Role.MEMBER,
                # before the oldest demo notice, so its sessions have their members present
                starts_on=today - dt.timedelta(days=MANDATE_DAYS_AGO),
                act=f"Portaria nº {10 + index}/{today.year} (demonstração)",
                user=commission if n == 0 else None,
                reason=REASON,
            )
            _count(summary, True)


# ---------------------------------------------------------------------------------- notices


def _marker(n: int) -> str:
    return f"Auto de demonstração {n + 1}:"


def _description(code: str, infraction: str, group: str) -> str:
    for row in catalogue(code):
        if row["code"] == infraction:
            return str(row["description"])
    return f"Infração do grupo {group} (art. 26; definida em regulamento do Conselho)"


def _links(holder: Any, on: dt.date) -> dict[str, Any]:
    """The holder's active permit (it gives the vehicle and line the law asks for), else the
    holder's vehicle (Pernambuco's chartering has no permits)."""
    permit = Permit.unscoped.filter(holder=holder, status=Permit.Status.ACTIVE).order_by("id").first()
    if permit is not None:
        return {"permit": permit}
    vehicle = Vehicle.unscoped.filter(holder=holder).order_by("id").first()
    return {"holder": holder, "vehicle": vehicle}


def _notice(
    jurisdiction: Jurisdiction, holder: Any, inspector: Any, n: int, today: dt.date, summary: Any
) -> None:
    code = jurisdiction.code
    found = InfractionNotice.unscoped.filter(
        jurisdiction=jurisdiction, holder=holder, description__startswith=_marker(n)
    ).first()
    if found is not None:
        _count(summary, False)
        return
    infraction, group = INFRACTIONS[code][n]
    days, place = STAGES[n]
    served = today - dt.timedelta(days=days)
    zone = ZoneInfo(jurisdiction.timezone or "America/Sao_Paulo")
    drawn_up_at = dt.datetime.combine(served - dt.timedelta(days=1), dt.time(9, 30), tzinfo=zone)
    notice = services.draw_up_notice(
        actor=inspector,
        reason=REASON,
        jurisdiction=jurisdiction,
        drawn_up_at=drawn_up_at,
        infraction_code=infraction,
        infraction_group=group,
        offender_kind=OffenderKind.COMPANY if holder.company_id else OffenderKind.PERMIT_HOLDER,
        place=place,
        description=f"{_marker(n)} {_description(code, infraction, group)}",
        inspector=inspector,
        **_links(holder, today),
    )
    _count(summary, True)
    record_notification(
        actor=None, notice=notice, method="hand", received_on=served, reason=REASON, today=today
    )
    _count(summary, True)
    _fine(notice, today, summary)
    if n > 0:  # where the body applies the penalty first (Cabo art. 29), it does, and says so
        _applied(notice, served, summary)
    if n == 1:
        _measure(notice, summary)
        gap = 4 if Decision.unscoped.filter(notice=notice).exists() else 2
        filed_at = dt.datetime.combine(served + dt.timedelta(days=gap), dt.time(14, 0), tzinfo=zone)
        filing = filings.file_defense(
            actor=None,
            notice=notice,
            text=DEFENSE_TEXT,
            channel=Filing.Channel.COUNTER,
            reason=REASON,
            filed_at=filed_at,
        )
        _count(summary, True)
        _session(filing, today, summary)


def _applied(notice: InfractionNotice, served: dt.date, summary: Any) -> None:
    """The body's own decision where the law gives it before any appeal (`ex_officio`): applied the
    day after the service, in a session of its members, and communicated the day after."""
    day = served + dt.timedelta(days=1)
    stage = application.awaiting(notice, day)
    if stage is None or stage.instance is None:
        return
    body = judging.body_for(notice.jurisdiction_id, str(stage.instance.get("body")), day)
    session = None
    if body is not None and body.collegiate:
        session = judging.schedule_session(actor=None, body=body, held_on=day, reason=REASON)
        present = [m for m in body.members.all() if m.serves_on(day)]
        judging.open_session(actor=None, session=session, present=present, reason=REASON)
    decision = application.apply_penalty(
        actor=None,
        notice=notice,
        outcome="upheld",
        reasons="Infração comprovada pelo auto e pelo relatório da fiscalização (demonstração).",
        decided_on=day,
        session=session,
        reason=REASON,
    )
    if session is not None:
        minutes.generate(actor=None, session=session, reason=REASON)
        minutes.sign(actor=None, session=session, reason=REASON)
        judging.close_session(actor=None, session=session, reason=REASON)
    decisions.record_decision_service(
        actor=None, decision=decision, served_on=day + dt.timedelta(days=1), reason=REASON
    )
    _count(summary, True)


def _fine(notice: InfractionNotice, today: dt.date, summary: Any) -> None:
    if fine_due.fine_terms(notice.penalty) is None or Fine.unscoped.filter(notice=notice).exists():
        return  # no fine in the penalty (a warning; Cabo's amounts the law leaves undefined)
    day = notice.evaluated_for or today
    law_gives_due = value(notice.jurisdiction_id, "fine.due", day) is not None
    fine = fines.issue_fine(
        actor=None,
        notice=notice,
        reason=REASON,
        due_on=None if law_gives_due else today + dt.timedelta(days=AGENCY_DUE_DAYS),
        today=today,
    )
    _count(summary, fine is not None)


def _measure(notice: InfractionNotice, summary: Any) -> None:
    kinds = [k for k in measures.applicable_kinds(notice) if k not in measures.BARS_OPERATION]
    kinds = [k for k in kinds if k in Measure.Kind.values]
    if not kinds:
        return
    measures.apply_measure(
        actor=None,
        notice=notice,
        kind=kinds[0],
        applied_at=notice.drawn_up_at,
        detail=f"{Measure.Kind(kinds[0]).label} no ato da autuação (demonstração).",
        reason=REASON,
    )
    _count(summary, True)


def _session(filing: Filing, today: dt.date, summary: Any) -> None:
    """A session today of the collegiate body that judges the filing, with the agenda built."""
    body = filing.body
    if body is None or not body.collegiate:
        return  # a body that decides alone judges on the filing's page
    session = Session.unscoped.filter(body=body, held_on=today).order_by("number").first()
    if session is None:
        session = judging.schedule_session(actor=None, body=body, held_on=today, reason=REASON)
        _count(summary, True)
    if not session.agenda.filter(filing=filing).exists():
        judging.build_agenda(actor=None, session=session, reason=REASON)
