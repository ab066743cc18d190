"""Each member's vote on an agenda item (due_process/votes.py): on the merits with its reasons,
abstention, impediment or suspicion with its reason; the result and the quorum computed from the
votes; a tie broken only where the law gives the president the casting vote (Esteio Anexo I
art. 25, § 1º), refused elsewhere (Recife art. 39, § 2º: the vote is the Regimento Interno's) and
with the president impeded; no decision before every member present voted; the minutes list each
vote, the dissents and the votes cast after Recife's judging deadline (art. 42)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.audit.models import AuditEvent
from lotacao.enforcement.due_process import application, decisions, filings, judging, minutes, votes
from lotacao.enforcement.models import Decision, Filing, Vote
from tests.enforcement.conftest import make_jurisdiction
from tests.enforcement.due_process.process_helpers import _members, _moment, _notice

pytestmark = pytest.mark.django_db

HELD = dt.date(2025, 4, 1)


def _esteio(world: Any, present: int = 5) -> dict[str, Any]:
    notice = _notice(
        world.b,
        served=dt.date(2025, 3, 10),
        day="2025-03-03",
        penalty={"penalties": [{"type": "fine", "units": "50", "unit": "UFRM"}]},
    )
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 3, 20)),
    )
    members = _members(filing.body, ["Presidente", "Ana", "Bia", "Caio", "Davi"], dt.date(2025, 1, 1))
    session = judging.schedule_session(actor=None, body=filing.body, held_on=HELD, reason="Convocação")
    judging.open_session(actor=None, session=session, present=members[:present], reason="Abertura")
    (item,) = judging.build_agenda(actor=None, session=session)
    return {"filing": filing, "members": members, "session": session, "item": item}


def _vote(item: Any, member: Any, choice: str, reasons: str = "Razões do voto.") -> Vote:
    return votes.cast_vote(actor=None, item=item, member=member, choice=choice, reasons=reasons)


def _decide(c: dict[str, Any], **over: Any) -> Decision:
    kwargs = {"actor": None, "filing": c["filing"], "session": c["session"], "reasons": "Fundamentos."}
    return decisions.decide(**{**kwargs, "decided_on": c["session"].held_on, **over})


def test_esteio_majority_with_a_dissent_and_its_reasons_in_the_minutes(world: Any) -> None:
    c = _esteio(world)
    president, ana, bia, caio, davi = c["members"]
    _vote(c["item"], ana, "uphold", "O auto descreve a falta.")
    _vote(c["item"], bia, "uphold", "A defesa não traz prova.")
    _vote(c["item"], caio, "annul", "A foto prova o selo afixado.")
    with pytest.raises(ValidationError, match="Falta o voto de Davi"):
        _decide(c)
    assert not Decision.objects.filter(filing=c["filing"]).exists()
    _vote(c["item"], davi, "abstain", "")
    result = votes.result(c["item"])
    assert result.ready and result.counts == {"uphold": 2, "annul": 1} and result.abstained == [davi]
    decision = _decide(c, outcome="annulled")  # the proclaimed outcome yields to the votes
    assert decision.outcome == Decision.Outcome.UPHELD and not decision.votes["tie_break"]
    text = minutes.generate(actor=None, session=c["session"]).minutes
    assert (
        "Voto de Caio (Membro, voto vencido): Acolher (anular o auto) — A foto prova o selo afixado." in text
    )
    assert "Voto de Ana (Membro): Manter a penalidade — O auto descreve a falta." in text
    assert "Voto de Davi (Membro): Abstenção" in text
    assert "Resultado: Penalidade mantida (Manter a penalidade: 2; Acolher (anular o auto): 1" in text
    with pytest.raises(ValidationError, match="já foi julgado"):
        _vote(c["item"], ana, "annul")
    assert AuditEvent.objects.filter(action="enforcement.vote_cast").count() == 4
    del president


def test_esteio_tie_is_broken_by_the_president_only(world: Any) -> None:
    c = _esteio(world)
    president, ana, bia, caio, davi = c["members"]
    with pytest.raises(ValidationError, match=r"só vota para desempatar .*faltam os votos de Ana"):
        _vote(c["item"], president, "annul")
    _vote(c["item"], ana, "uphold")
    _vote(c["item"], bia, "annul")
    _vote(c["item"], caio, "uphold")
    _vote(c["item"], davi, "uphold")
    with pytest.raises(ValidationError, match="não houve empate"):
        _vote(c["item"], president, "annul")
    _vote(c["item"], davi, "annul", "Mudei de entendimento.")  # changed before the decision
    assert AuditEvent.objects.filter(action="enforcement.vote_changed").count() == 1
    with pytest.raises(ValidationError, match="Empate: o presidente vota para desempatar"):
        _decide(c)
    vote = _vote(c["item"], president, "annul", "Acompanho a defesa.")
    assert vote.tie_break
    decision = _decide(c)
    assert decision.outcome == Decision.Outcome.ANNULLED and decision.votes["tie_break"]
    assert decision.votes["counts"] == {"uphold": 2, "annul": 3}
    text = minutes.generate(actor=None, session=c["session"]).minutes
    assert "Voto de Presidente (Presidente, desempate): Acolher (anular o auto) — Acompanho a defesa." in text


def test_esteio_tie_with_the_president_impeded_is_refused(world: Any) -> None:
    c = _esteio(world)
    president, ana, bia, caio, davi = c["members"]
    with pytest.raises(ValidationError, match="Informe o motivo do impedimento de Presidente"):
        _vote(c["item"], president, "impeded", "")
    _vote(c["item"], president, "impeded", "É parente do permissionário.")
    for member, choice in [(ana, "uphold"), (bia, "annul"), (caio, "uphold"), (davi, "annul")]:
        _vote(c["item"], member, choice)
    with pytest.raises(
        ValidationError, match="Empate com o presidente impedido: só o presidente vota para desempatar"
    ):
        _decide(c)
    c["filing"].refresh_from_db()
    assert c["filing"].status == Filing.Status.PENDING
    text = minutes.generate(actor=None, session=c["session"]).minutes
    assert "Voto de Presidente (Presidente): Impedimento declarado — É parente do permissionário." in text
    assert "Não julgado nesta sessão (permanece em pauta): Empate com o presidente impedido" in text


def test_esteio_impediments_can_take_the_item_below_quorum(world: Any) -> None:
    c = _esteio(world, present=3)
    president, ana, bia, _caio, _davi = c["members"]
    _vote(c["item"], ana, "suspect", "Amizade íntima com o permissionário.")
    _vote(c["item"], bia, "uphold")
    with pytest.raises(
        ValidationError, match="Sem quórum para este processo: 2 membros presentes sem impedimento"
    ):
        _decide(c)
    with pytest.raises(ValidationError, match="Sem quórum"):
        _vote(c["item"], president, "uphold")


def test_esteio_refuses_votes_of_non_members_and_absent_members(world: Any) -> None:
    c = _esteio(world, present=4)
    _president, ana, _bia, _caio, davi = c["members"]
    recife = filings.file_defense(
        actor=None,
        notice=_notice(world.a, served=dt.date(2025, 3, 10), day="2025-03-03"),
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 3, 20)),
    )
    (outsider,) = _members(recife.body, ["Estranho"], dt.date(2025, 1, 1))
    with pytest.raises(ValidationError, match="Estranho não é membro do Comissão de Julgamento"):
        _vote(c["item"], outsider, "uphold")
    with pytest.raises(ValidationError, match="Davi não está presente nesta sessão"):
        _vote(c["item"], davi, "uphold")
    with pytest.raises(ValidationError, match="Registre as razões do voto de Ana"):
        _vote(c["item"], ana, "uphold", "  ")
    with pytest.raises(ValidationError, match="Voto desconhecido"):
        _vote(c["item"], ana, "talvez")
    assert not Vote.objects.exists()


def _recife(world: Any, filed: dt.date, held: dt.date) -> dict[str, Any]:
    notice = _notice(world.a, served=dt.date(2025, 5, 9), day="2025-05-05")
    filing = filings.file_defense(
        actor=None, notice=notice, text="R", channel="counter", reason="x", filed_at=_moment(filed)
    )
    members = _members(filing.body, ["Ana", "Bruno", "Carla", "Dora"], dt.date(2025, 1, 1))
    session = judging.schedule_session(actor=None, body=filing.body, held_on=held, reason="Convocação")
    judging.open_session(actor=None, session=session, present=members, reason="Abertura")
    (item,) = judging.build_agenda(actor=None, session=session)
    return {"filing": filing, "members": members, "session": session, "item": item}


def test_recife_cdtc_tie_has_no_casting_vote_and_a_majority_decides(world: Any) -> None:
    c = _recife(world, dt.date(2025, 6, 2), dt.date(2025, 6, 20))
    ana, bruno, carla, dora = c["members"]
    for member, choice in [(ana, "uphold"), (bruno, "annul"), (carla, "uphold"), (dora, "annul")]:
        _vote(c["item"], member, choice)
    with pytest.raises(ValidationError, match=r"Empate: a lei não dá voto de desempate .*art. 39"):
        _decide(c, outcome="upheld")
    _vote(c["item"], dora, "impeded", "Atuou no processo como fiscal.")
    decision = _decide(c, outcome="annulled")
    assert decision.outcome == Decision.Outcome.UPHELD
    assert decision.votes["counts"] == {"uphold": 2, "annul": 1}
    assert not Vote.objects.filter(late=True).exists()


def test_recife_cdtc_without_votes_still_records_the_proclaimed_outcome(world: Any) -> None:
    c = _recife(world, dt.date(2025, 6, 2), dt.date(2025, 6, 20))
    assert _decide(c, outcome="upheld").outcome == Decision.Outcome.UPHELD


def test_recife_votes_after_the_judging_deadline_are_marked_late(world: Any) -> None:
    c = _recife(world, dt.date(2025, 6, 2), dt.date(2025, 7, 10))
    ana, bruno, carla, dora = c["members"]
    for member, choice in [(ana, "uphold"), (bruno, "uphold"), (carla, "annul"), (dora, "abstain")]:
        _vote(c["item"], member, choice, "" if choice == "abstain" else "Razões.")
    decision = _decide(c)
    assert {m.name for m in votes.late_voters(decision)} == {"Ana", "Bruno", "Carla", "Dora"}
    text = minutes.generate(actor=None, session=c["session"]).minutes
    assert "Voto de Carla (Membro, voto vencido, votou depois do prazo de julgamento, 02/07/2025" in text


def test_the_session_page_takes_each_members_vote_and_shows_the_result(world: Any, client: Any) -> None:
    c = _esteio(world, present=4)
    president, ana, bia, caio, davi = c["members"]
    client.force_login(world.users["comissao.esteio"])
    url = c["session"].get_absolute_url()
    page = client.get(url).content.decode()
    assert f'id="ballot-{c["item"].pk}-{ana.pk}"' in page and "Impedimento declarado" in page
    assert "Presidente (Presidente, só em empate)" in page
    item = c["item"].pk

    def vote(member: Any, choice: str, reasons: str = "Razões.") -> Any:
        data = {
            "action": "vote",
            "item": item,
            "member": member.pk,
            "choice": choice,
            "vote_reasons": reasons,
        }
        return client.post(url, data)

    refused = vote(davi, "uphold")
    assert refused.status_code == 422 and "Davi não está presente nesta sessão" in refused.content.decode()
    refused = vote(ana, "uphold", "")
    assert refused.status_code == 422 and "Registre as razões do voto de Ana" in refused.content.decode()
    assert vote(ana, "uphold").status_code == 302
    assert vote(bia, "annul").status_code == 302
    page = client.get(url).content.decode()
    assert "Resultado pelos votos:" in page and "Falta o voto de Caio" in page
    judged = client.post(url, {"action": "judge", "item": item, "reasons": "R"})
    assert judged.status_code == 422 and "Falta o voto de Caio" in judged.content.decode()
    assert vote(caio, "uphold").status_code == 302
    page = client.get(url).content.decode()
    assert (
        "Resultado pelos votos: Manter a penalidade (Manter a penalidade: 2; Acolher (anular o auto): 1)"
        in page
    )
    judged = client.post(url, {"action": "judge", "item": item, "reasons": "Infração comprovada."})
    assert judged.status_code == 302
    decision = Decision.objects.get(filing=c["filing"])
    assert decision.outcome == Decision.Outcome.UPHELD
    shown = client.get(decision.get_absolute_url()).content.decode()
    assert "Votos dos membros" in shown and "Bia (Membro, voto vencido)" in shown
    pdf_html = minutes.pdf_html(c["session"])
    assert "Bia (Membro, voto vencido)" in pdf_html
    del president


def test_votes_and_the_result_through_the_api(world: Any, client: Any) -> None:
    c = _esteio(world, present=3)
    president, ana, bia, _caio, davi = c["members"]
    item = c["item"].pk
    url = f"/api/due-process/agenda/{item}/votes"

    def post(member: Any, vote: str, reasons: str = "Razões.") -> Any:
        body = {"member_id": member.pk, "vote": vote, "reasons": reasons}
        return client.post(url, body, content_type="application/json")

    client.force_login(world.users["comissao.esteio"])
    refused = post(davi, "uphold")
    assert refused.status_code == 422 and "Davi não está presente" in refused.json()["errors"][0]
    assert post(ana, "uphold").status_code == 201
    made = post(bia, "annul", "A prova favorece a defesa.")
    assert made.status_code == 201 and made.json()["vote_label"] == "Acolher (anular o auto)"
    result = client.get(f"/api/due-process/agenda/{item}/result").json()
    assert not result["ready"] and "o presidente vota para desempatar" in result["refusal"]
    assert result["missing"] == ["Presidente"] and result["counts"] == {"uphold": 1, "annul": 1}
    assert post(president, "uphold", "Desempato pela manutenção.").json()["tie_break"]
    result = client.get(f"/api/due-process/agenda/{item}/result").json()
    assert result["ready"] and result["outcome"] == "uphold" and result["tie_break"]
    judged = client.post(
        f"/api/due-process/filings/{c['filing'].pk}/decision",
        {"reasons": "Mantida.", "decided_on": HELD.isoformat(), "session_id": c["session"].pk},
        content_type="application/json",
    )
    assert judged.status_code == 201 and judged.json()["outcome"] == "upheld"
    client.force_login(world.users["gestor.recife"])
    assert client.get(f"/api/due-process/agenda/{item}/result").status_code == 404  # another agency's


def _cabo_council(four: bool = True) -> tuple[Any, Any, list[Any]]:
    j = make_jurisdiction("cabo")
    today = timezone.localdate()
    notice = _notice(j, served=today - dt.timedelta(days=3), day=(today - dt.timedelta(days=5)).isoformat())
    council = judging.body_for(j.code, "council", today)
    names = ["Presidente", "Prefeitura", "Câmara", "Moradores"] if four else ["Presidente", "Prefeitura"]
    members = _members(council, names, today - dt.timedelta(days=30))
    session = judging.schedule_session(actor=None, body=council, held_on=today, reason="Convocação")
    judging.open_session(actor=None, session=session, present=members, reason="Abertura")
    return notice, session, members


def test_cabo_council_applies_the_penalty_by_its_members_votes(world: Any) -> None:
    notice, session, (pres, pref, camara, moradores) = _cabo_council()
    kwargs = {
        "actor": None,
        "notice": notice,
        "outcome": "annulled",
        "reasons": "Infração comprovada.",
        "decided_on": session.held_on,
        "session": session,
    }
    why = {m: f"Razões de {m.name}." for m in (pres, pref, camara, moradores)}
    with pytest.raises(ValidationError, match="Falta o voto de Moradores"):
        application.apply_penalty(
            **kwargs, votes={pres: "uphold", pref: "uphold", camara: "annul"}, vote_reasons=why
        )
    with pytest.raises(ValidationError, match="Registre as razões do voto de Câmara"):
        application.apply_penalty(
            **kwargs, votes={pres: "uphold", camara: "annul"}, vote_reasons={pres: "a", camara: " "}
        )
    tie = {pres: "uphold", pref: "uphold", camara: "annul", moradores: "annul"}
    with pytest.raises(ValidationError, match="Empate: a lei não dá voto de desempate"):
        application.apply_penalty(**kwargs, votes=tie, vote_reasons=why)
    assert not Decision.objects.filter(notice=notice).exists()
    decision = application.apply_penalty(
        **kwargs, votes={**tie, moradores: "impeded"}, vote_reasons={**why, moradores: "Vizinho do autuado."}
    )
    assert decision.outcome == Decision.Outcome.UPHELD  # the votes', not the proclaimed one
    assert decision.votes["counts"] == {"uphold": 2, "annul": 1}
    text = minutes.generate(actor=None, session=session).minutes
    assert "Voto de Câmara (Membro, voto vencido): Acolher (anular o auto) — Razões de Câmara." in text
    assert "Voto de Moradores (Membro): Impedimento declarado — Vizinho do autuado." in text


def test_cabo_council_without_votes_records_the_proclaimed_outcome(world: Any) -> None:
    notice, session, _ = _cabo_council(four=False)
    decision = application.apply_penalty(
        actor=None, notice=notice, outcome="upheld", reasons="R.", decided_on=session.held_on, session=session
    )
    assert decision.outcome == Decision.Outcome.UPHELD and decision.votes == {}


def test_cabo_council_votes_on_the_application_screen(world: Any, client: Any) -> None:
    from tests.enforcement.due_process.test_application import _staff

    notice, session, (pres, pref, camara, moradores) = _cabo_council()
    client.force_login(_staff(notice.jurisdiction, "comissao"))
    url = f"/fiscalizacao/autos/{notice.pk}/aplicacao/"
    page = client.get(url).content.decode()
    assert f'name="vote_{session.pk}_{pref.pk}"' in page and "Suspeição declarada" in page
    base = {
        "outcome": "upheld",
        "session": session.pk,
        "reasons": "Infração comprovada.",
        "decided_on": session.held_on.strftime("%d/%m/%Y"),
    }
    ballot = {
        f"vote_{session.pk}_{pres.pk}": "uphold",
        f"reasons_{session.pk}_{pres.pk}": "Prova suficiente.",
        f"vote_{session.pk}_{pref.pk}": "annul",
        f"reasons_{session.pk}_{pref.pk}": "Dúvida sobre o horário.",
        f"vote_{session.pk}_{camara.pk}": "uphold",
        f"reasons_{session.pk}_{camara.pk}": "Auto regular.",
    }
    refused = client.post(url, {**base, **ballot})
    assert refused.status_code == 422 and "Falta o voto de Moradores" in refused.content.decode()
    done = client.post(url, {**base, **ballot, f"vote_{session.pk}_{moradores.pk}": "abstain"})
    assert done.status_code == 302, done.content.decode()[-800:]
    decision = Decision.objects.get(notice=notice)
    assert decision.votes["counts"] == {"uphold": 2, "annul": 1}
    assert [m["choice"] for m in decision.votes["members"] if m["name"] == "Moradores"] == ["abstain"]


def test_esteio_a_late_appeal_is_not_voted_on_the_merits(world: Any) -> None:
    notice = _notice(world.b, served=dt.date(2025, 3, 10), day="2025-03-03")
    filing = filings.file_defense(
        actor=None,
        notice=notice,
        text="R",
        channel="counter",
        reason="x",
        filed_at=_moment(dt.date(2025, 4, 10)),
    )
    assert filing.late
    members = _members(filing.body, ["Presidente", "Ana", "Bia"], dt.date(2025, 1, 1))
    session = judging.schedule_session(actor=None, body=filing.body, held_on=dt.date(2025, 4, 20), reason="c")
    judging.open_session(actor=None, session=session, present=members, reason="Abertura")
    (item,) = judging.build_agenda(actor=None, session=session)
    with pytest.raises(ValidationError, match=r"fora do prazo .*não se vota o mérito"):
        _vote(item, members[1], "annul")
    c = {"filing": filing, "session": session}
    assert _decide(c, outcome="not_known").outcome == Decision.Outcome.NOT_KNOWN
