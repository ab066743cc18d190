"""One call per law, walked from the edital to the grants, with a reproducible public draw."""

from __future__ import annotations

import datetime as dt
import random

from lotacao.audit.models import AuditEvent
from lotacao.permits import services as permit_services
from lotacao.permits.models import Permit
from lotacao.tenders import services
from lotacao.tenders.models import Call, TenderApplication
from tests.tenders.conftest import APPEALS_FROM, AWARDS, OPENS, Tenders

SEED = "Loteria Federal 05921, 1º prêmio 48.213"


def _positions(call: Call) -> list[int]:
    return [a.number for a in TenderApplication.unscoped.filter(call=call).order_by("position")]


def test_recife_call_to_grants_with_a_draw_of_all_tied(tenders: Tenders) -> None:
    """Recife art. 2º, § 1º: licitação; no criterion in the law, so all tie and the edital's draw decides."""
    j = tenders.jurisdiction("recife")
    call = tenders.call(j, places=2)
    assert call.criteria == [] and "art. 2º, § 1º" in call.criteria_citations[0]
    tenders.open(call)
    apps = [tenders.apply(call) for _ in range(3)]
    call = tenders.close_and_rank(call)
    assert call.status == "ranked" and call.ties == [[1, 2, 3]]
    call = tenders.draw(call, SEED)
    expected = [1, 2, 3]
    random.Random(SEED).shuffle(expected)
    assert call.draw_result == [{"group": 1, "numbers": [1, 2, 3], "order": expected}]
    assert services.replay_draw(call) == call.draw_result  # a re-run with the seed gives the same order
    assert _positions(call) == expected
    call = tenders.publish_and_open_appeals(call)
    loser = TenderApplication.unscoped.get(call=call, number=expected[2])
    appeal = services.file_appeal(
        actor=None, application=loser, grounds="Pede nova contagem", reason="recurso", on=APPEALS_FROM
    )
    services.judge_appeal(
        actor=None,
        appeal=appeal,
        granted=False,
        decision="Sorteio regular",
        reason="julgamento",
        on=APPEALS_FROM,
    )
    permits = tenders.award(call)
    assert [p.holder_id for p in permits] == [
        TenderApplication.unscoped.get(call=call, number=n).holder_id for n in expected[:2]
    ]
    assert all(p.status == "active" and p.line_id == call.line_id for p in permits)
    assert permits[0].valid_until == dt.date(2031, 6, 22)  # six years (art. 2º)
    statuses = {a.number: a.status for a in TenderApplication.unscoped.filter(call=call)}
    assert statuses[expected[2]] == "not_awarded"
    assert Call.unscoped.get(pk=call.pk).status == "awarded"
    assert AuditEvent.objects.filter(action="call.drawn", object_id=str(call.pk)).exists()
    assert len(apps) == 3


def test_cabo_ranks_existing_operators_then_associations(tenders: Tenders) -> None:
    """Cabo art. 2º, a–b: first who already operates with a permit, then those in an association;
    art. 7º: the window of at most ten days."""
    from lotacao.registry import services as registry

    j = tenders.jurisdiction("cabo", population=30000)
    old_holder = tenders.holder(j)
    old = tenders.permit(j, holder=old_holder, on=dt.date(2019, 1, 10))  # five years: expired in 2024
    permit_services.expire_permit(actor=None, permit=old, on=OPENS)
    association = registry.create_company(
        actor=None,
        jurisdiction=j,
        cnpj="11222333000181",
        legal_name="Associação dos Kombeiros",
        kind="associacao",
        reason="teste",
    )
    call = tenders.call(j, places=2)
    assert call.criteria == ["existing_operator", "association"]
    tenders.open(call)
    plain = tenders.apply(call)
    member = tenders.apply(call, association=association)
    operator = tenders.apply(call, holder=old_holder)
    call = tenders.close_and_rank(call)
    assert call.ties == []
    assert _positions(call) == [operator.number, member.number, plain.number]
    call = tenders.publish_and_open_appeals(call)
    permits = tenders.award(call)
    assert {p.holder_id for p in permits} == {old_holder.pk, member.holder_id}


def test_esteio_prefers_the_incumbent_then_draws(tenders: Tenders) -> None:
    """Esteio art. 8º, parágrafo único, II (the incumbent's preference) and III (the draw)."""
    j = tenders.jurisdiction("esteio")
    line = tenders.line(j)
    incumbent = tenders.permit(j, line=line, on=dt.date(2020, 1, 10))
    call = tenders.call(j, places=2, line=line, tie_break_clause="")
    assert any("art. 8º, parágrafo único, III" in c for c in call.criteria_citations)
    tenders.open(call)
    first = tenders.apply(call)
    mine = tenders.apply(call, holder=incumbent.holder)
    third = tenders.apply(call)
    call = tenders.close_and_rank(call)
    assert TenderApplication.unscoped.get(pk=mine.pk).position == 1
    assert call.ties == [[first.number, third.number]]
    call = tenders.draw(call, "sessão pública de 12/06/2025")
    order = [first.number, third.number]
    random.Random("sessão pública de 12/06/2025").shuffle(order)
    assert _positions(call) == [mine.number, *order]
    call = tenders.publish_and_open_appeals(call)
    permits = tenders.award(call)
    assert permits[0].holder_id == incumbent.holder_id
    assert Permit.unscoped.filter(holder=incumbent.holder, status="active").count() == 2


def test_marica_service_time_and_the_provisional_permits_end_at_the_award(tenders: Tenders) -> None:
    """Maricá art. 7º, § 2º (service time), art. 76, § 1º (provisional permits end at the award)
    and § 2º (their time counts where the edital says so)."""
    j = tenders.jurisdiction("marica")
    line = tenders.line(j)
    since = dt.date(2010, 1, 1)
    provisional_holder = tenders.holder(j, residence_since=since)
    vehicle = tenders.vehicle(j, provisional_holder)
    application = permit_services.apply_for_permit(
        actor=None,
        holder=provisional_holder,
        reason="provisória",
        applied_on=dt.date(2024, 9, 2),
        kind="provisional",
    )
    provisional = permit_services.grant_permit(
        actor=None,
        permit=application,
        line=line,
        vehicle=vehicle,
        reason="provisória",
        on=dt.date(2024, 9, 2),
    )
    call = tenders.call(
        j, places=1, line=line, count_provisional_time=True, permit_valid_until=dt.date(2035, 6, 22)
    )
    assert call.criteria == ["service_time", "infractions"]
    tenders.open(call)
    veteran = tenders.apply(call, holder=provisional_holder, vehicle=vehicle)
    newcomer = tenders.apply(call, holder=tenders.holder(j, residence_since=since))
    call = tenders.close_and_rank(call)
    assert TenderApplication.unscoped.get(pk=veteran.pk).facts["service_time"] == 9
    assert _positions(call) == [veteran.number, newcomer.number] and call.ties == []
    call = tenders.publish_and_open_appeals(call)
    (permit,) = tenders.award(call)
    provisional.refresh_from_db()
    assert provisional.status == "expired" and provisional.ends_on == AWARDS
    assert "art. 76, § 1º" in provisional.term_citation
    assert (
        permit.holder_id == provisional_holder.pk
        and permit.kind == "regular"
        and permit.vehicle_id == vehicle.pk
    )
    assert AuditEvent.objects.filter(
        action="permit.provisional_ended", object_id=str(provisional.pk)
    ).exists()
    assert OPENS < AWARDS
