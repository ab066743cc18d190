"""Every refusal the laws and the edital imply: each with its Portuguese message, changing nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.permits import services as permit_services
from lotacao.permits.models import Permit
from lotacao.tenders import services, states
from lotacao.tenders.models import Call, TenderAppeal, TenderApplication
from tests.tenders.conftest import APPEALS_FROM, APPEALS_UNTIL, CLOSES, OPENS, RANKS, Tenders


def _status(call: Call) -> str:
    return Call.unscoped.get(pk=call.pk).status


def test_late_and_early_applications_are_refused(tenders: Tenders) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.open(tenders.call(j))
    for day in (OPENS - dt.timedelta(days=1), CLOSES + dt.timedelta(days=1)):
        with pytest.raises(ValidationError, match=r"Inscrição fora do prazo: .* de 02/06/2025 a 11/06/2025"):
            tenders.apply(call, on=day)
    assert not TenderApplication.unscoped.exists()


def test_an_application_to_a_call_not_open_is_refused(tenders: Tenders) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.call(j)
    with pytest.raises(
        ValidationError, match="Não é possível registrar a inscrição: o edital ainda está em elaboração"
    ):
        tenders.apply(call)


def test_an_ineligible_or_banned_applicant_is_refused(tenders: Tenders, docs: Any) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.open(tenders.call(j))
    young = tenders.holder(j, birth=dt.date(2010, 1, 1))
    with pytest.raises(ValidationError, match=r"Inscrição recusada: requerente inapto\. Menor de 18 anos"):
        tenders.apply(call, holder=young)
    banned = tenders.permit(j, on=dt.date(2024, 1, 10))
    permit_services.revoke_permit(actor=None, permit=banned, reason="cassação", on=dt.date(2025, 1, 10))
    with pytest.raises(ValidationError, match="impedimento até"):
        tenders.apply(call, holder=banned.holder)
    holder = tenders.holder(j)
    docs.incomplete.add(holder.person_id)
    with pytest.raises(ValidationError, match="Documento não apresentado: Certidão criminal"):
        tenders.apply(call, holder=holder)
    assert not TenderApplication.unscoped.exists()


def test_recife_refuses_a_holder_who_already_has_a_permit(tenders: Tenders) -> None:
    j = tenders.jurisdiction("recife")
    permit = tenders.permit(j, on=dt.date(2024, 1, 10))
    call = tenders.open(tenders.call(j))
    with pytest.raises(ValidationError, match=r"Já é titular da Permissão .*art\. 2º, § 3º"):
        tenders.apply(call, holder=permit.holder)


def test_a_second_application_and_someone_elses_vehicle_are_refused(tenders: Tenders) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.open(tenders.call(j))
    first = tenders.apply(call)
    with pytest.raises(ValidationError, match="já está inscrito"):
        tenders.apply(call, holder=first.holder)
    with pytest.raises(ValidationError, match="cadastrado para outro permissionário"):
        tenders.apply(call, vehicle=first.vehicle)


def test_the_call_itself_is_refused_when_the_law_or_the_edital_lacks_something(tenders: Tenders) -> None:
    recife = tenders.jurisdiction("recife")
    with pytest.raises(ValidationError, match="não fixa o desempate: informe a cláusula do edital"):
        tenders.call(recife, tie_break_clause="")
    with pytest.raises(ValidationError, match="ao menos uma vaga"):
        tenders.call(recife, places=0)
    with pytest.raises(ValidationError, match="não prevê permissão provisória"):
        tenders.call(recife, count_provisional_time=True)
    cabo = tenders.jurisdiction("cabo", population=30000)
    with pytest.raises(ValidationError, match=r"no máximo 10 dias da publicação .*art\. 7º.*até 12/06/2025"):
        tenders.call(cabo, closes_on=OPENS + dt.timedelta(days=11))
    pernambuco = tenders.jurisdiction("pernambuco")
    with pytest.raises(ValidationError, match="não prevê edital"):
        tenders.call(pernambuco)
    assert not Call.unscoped.exists()


def test_close_before_the_end_and_draw_without_tie_are_refused(tenders: Tenders) -> None:
    j = tenders.jurisdiction("cabo", population=30000)
    call = tenders.open(tenders.call(j))
    with pytest.raises(ValidationError, match="As inscrições vão até 11/06/2025"):
        services.close_call(actor=None, call=call, reason="x", on=CLOSES)
    assert _status(call) == "open"
    tenders.apply(call)
    call = tenders.close_and_rank(call)
    assert call.ties == []
    with pytest.raises(ValidationError, match="Não há empate na classificação: não há sorteio a realizar"):
        services.draw_ties(actor=None, call=call, reason="x", on=RANKS)
    with pytest.raises(ValidationError, match="Não há empate"):
        services.record_seed(actor=None, call=call, seed="x", published_in="DO", reason="x")


def test_the_draw_needs_a_seed_recorded_before_and_runs_once(tenders: Tenders) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.open(tenders.call(j))
    tenders.apply(call)
    tenders.apply(call)
    call = tenders.close_and_rank(call)
    with pytest.raises(ValidationError, match="Registre antes a semente do sorteio"):
        services.draw_ties(actor=None, call=call, reason="x", on=RANKS)
    with pytest.raises(ValidationError, match="realize antes o sorteio público"):
        services.publish_ranking(
            actor=None,
            call=call,
            appeals_from=APPEALS_FROM,
            appeals_until=APPEALS_UNTIL,
            reason="x",
            on=RANKS,
        )
    with pytest.raises(ValidationError, match="Informe a semente"):
        services.record_seed(actor=None, call=call, seed=" ", published_in="DO", reason="x")
    call = tenders.draw(call, "semente")
    with pytest.raises(ValidationError, match="O sorteio já foi realizado em 12/06/2025"):
        services.draw_ties(actor=None, call=call, reason="x", on=RANKS)
    with pytest.raises(ValidationError, match="O sorteio já foi realizado"):
        services.record_seed(actor=None, call=call, seed="outra", published_in="DO", reason="x")
    assert Call.unscoped.get(pk=call.pk).draw_seed == "semente"


def test_the_same_seed_gives_the_same_order_another_may_not(tenders: Tenders) -> None:
    from lotacao.tenders.selection import draw_order

    ties = [[1, 2, 3, 4, 5], [7, 9]]
    assert draw_order("abc", ties) == draw_order("abc", ties)
    orders = {tuple(draw_order(seed, ties)[0]["order"]) for seed in ("a", "b", "c", "d", "e", "f")}
    assert len(orders) > 1


def test_award_before_the_appeal_window_ends_or_with_appeals_pending_is_refused(tenders: Tenders) -> None:
    j = tenders.jurisdiction("cabo", population=30000)
    call = tenders.open(tenders.call(j))
    application = tenders.apply(call)
    call = tenders.close_and_rank(call)
    with pytest.raises(
        ValidationError,
        match="Não é possível adjudicar: a classificação foi apurada e ainda não foi publicada",
    ):
        tenders.award(call)
    with pytest.raises(ValidationError, match="não pode começar antes da publicação"):
        services.publish_ranking(
            actor=None,
            call=call,
            appeals_from=RANKS - dt.timedelta(days=1),
            appeals_until=APPEALS_UNTIL,
            reason="x",
            on=RANKS,
        )
    services.publish_ranking(
        actor=None, call=call, appeals_from=APPEALS_FROM, appeals_until=APPEALS_UNTIL, reason="x", on=RANKS
    )
    with pytest.raises(ValidationError, match="O prazo de recurso começa em 16/06/2025"):
        services.open_appeals(actor=None, call=call, reason="x", on=RANKS)
    call = services.open_appeals(actor=None, call=call, reason="x", on=APPEALS_FROM)
    with pytest.raises(ValidationError, match="a adjudicação só depois desse dia"):
        tenders.award(call, on=APPEALS_UNTIL)
    with pytest.raises(ValidationError, match="Recurso fora do prazo"):
        services.file_appeal(
            actor=None,
            application=application,
            grounds="x",
            reason="x",
            on=APPEALS_UNTIL + dt.timedelta(days=1),
        )
    appeal = services.file_appeal(
        actor=None, application=application, grounds="x", reason="x", on=APPEALS_UNTIL
    )
    with pytest.raises(ValidationError, match=r"Há recursos sem julgamento \(1\)"):
        tenders.award(call)
    assert not Permit.unscoped.filter(status="active").exists()
    services.judge_appeal(
        actor=None, appeal=appeal, granted=False, decision="Sem razão", reason="x", on=APPEALS_UNTIL
    )
    with pytest.raises(ValidationError, match="já foi julgado"):
        services.judge_appeal(
            actor=None, appeal=appeal, granted=True, decision="x", reason="x", on=APPEALS_UNTIL
        )
    (permit,) = tenders.award(call)
    assert permit.status == "active"
    with pytest.raises(ValidationError, match="o edital já foi adjudicado"):
        services.cancel_call(actor=None, call=call, reason="x")


def test_an_appeal_granted_sends_the_ranking_back_and_a_winner_who_cannot_be_granted_is_named(
    tenders: Tenders, docs: Any
) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.open(tenders.call(j, tie_break_clause="Item 9"))
    first = tenders.apply(call)
    second = tenders.apply(call)
    call = tenders.close_and_rank(call)
    call = tenders.draw(call)
    call = tenders.publish_and_open_appeals(call)
    appeal = services.file_appeal(actor=None, application=second, grounds="x", reason="x", on=APPEALS_FROM)
    services.judge_appeal(
        actor=None, appeal=appeal, granted=True, decision="Provido", reason="x", on=APPEALS_FROM
    )
    assert TenderAppeal.unscoped.get(pk=appeal.pk).status == "granted"
    call = Call.unscoped.get(pk=call.pk)
    assert call.status == "closed" and call.appeals_until is None
    call = services.rank_call(actor=None, call=call, reason="de novo", on=APPEALS_FROM)
    assert call.draw_seed == "" and call.ties == [[1, 2]]
    call = tenders.draw(call, "segunda semente")
    call = tenders.publish_and_open_appeals(call)
    winner = TenderApplication.unscoped.get(call=call, position=1)
    docs.incomplete.add(winner.holder.person_id)
    with pytest.raises(
        ValidationError, match=rf"inscrição nº {winner.number} \(1º lugar\) não pôde receber a permissão"
    ):
        tenders.award(call)
    services.disqualify(
        actor=None, application=winner, reason="Certidão criminal não apresentada", on=APPEALS_FROM
    )
    (permit,) = tenders.award(call)
    other = first if winner.pk == second.pk else second
    assert permit.holder_id == other.holder_id


def test_the_state_table_refuses_every_action_outside_its_sources(tenders: Tenders) -> None:
    j = tenders.jurisdiction("recife")
    call = tenders.call(j)
    for transition in states.TRANSITIONS:
        if call.status in transition.sources:
            continue
        assert states.refusal(call, transition.name).startswith(f"Não é possível {transition.doing}:")
    services.cancel_call(actor=None, call=call, reason="erro no edital")
    call = Call.unscoped.get(pk=call.pk)
    assert call.status == "cancelled" and all(
        states.refusal(call, t.name).endswith("o edital foi cancelado.") for t in states.TRANSITIONS
    )
