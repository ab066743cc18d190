"""Effects of final decisions on the permit (sanctions/effects.py and followups.py): suspension and
its end (with or without the proof the law asks), revocation by the agency or by the Mayor's act,
agents, mandatory course, applied once."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from lotacao.audit.models import AuditEvent
from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.models import (
    CourseRequirement,
    Decision,
    Intervention,
    RevocationProcess,
    SuspensionFollowUp,
)
from lotacao.enforcement.sanctions import effects, followups
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.registry import services as registry
from tests.clock import today
from tests.enforcement.sanctions.effect_helpers import (
    COURSE,
    REVOCATION,
    SEQ,
    SUSPENSION,
    _decision,
    _gestor,
    _place,
    _status,
    on,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _without_world_rows(world: Any) -> None:
    """The shared world has one row of each effect model (for the URL walk): start without them."""
    SuspensionFollowUp.objects.all().delete()
    RevocationProcess.objects.all().delete()
    Intervention.objects.all().delete()


def test_recife_suspension_then_automatic_reinstatement(world: Any) -> None:
    place = _place(world, "recife")
    decision = effects.apply_final_decision(
        actor=_gestor(world), decision=_decision(place, SUSPENSION), on=on()
    )
    permit = place["permit"]
    assert _status(permit) == Permit.Status.SUSPENDED
    assert permit.suspended_until == on() + dt.timedelta(days=14)
    [effect] = decision.effects
    assert effect["type"] == "suspension" and effect["done"] is True
    assert "art. 33" in " ".join(effect["citations"])
    follow = SuspensionFollowUp.objects.get(notice=decision.notice)
    assert not follow.requires_proof and follow.status == SuspensionFollowUp.Status.RUNNING

    result = followups.end_suspensions(today=permit.suspended_until)  # last day: still suspended
    assert result.reinstated == 0 and _status(permit) == Permit.Status.SUSPENDED
    call_command("end_suspensions", "--data", (permit.suspended_until + dt.timedelta(days=1)).isoformat())
    assert _status(permit) == Permit.Status.ACTIVE and permit.suspended_until is None
    follow.refresh_from_db()
    assert follow.status == SuspensionFollowUp.Status.ENDED


def test_marica_proof_during_the_suspension_reinstates_at_its_end(world: Any) -> None:
    place = _place(world, "marica")
    decision = effects.apply_final_decision(actor=None, decision=_decision(place, SUSPENSION), on=on())
    follow = SuspensionFollowUp.objects.get(notice=decision.notice)
    assert follow.requires_proof and "art. 58, §§ 3º e 4º" in " ".join(follow.citations)
    followups.record_suspension_proof(
        actor=None,
        followup=follow,
        proved_on=on() + dt.timedelta(days=5),
        note="Vistoria aprovada",
        reason="ok",
        today=on() + dt.timedelta(days=5),
    )
    assert _status(place["permit"]) == Permit.Status.SUSPENDED  # the term is not over yet
    followups.end_suspensions(today=today())
    assert _status(place["permit"]) == Permit.Status.ACTIVE
    assert not RevocationProcess.objects.exists()


def test_marica_no_proof_opens_the_revocation_process_then_late_proof_reinstates(world: Any) -> None:
    place = _place(world, "marica")
    decision = effects.apply_final_decision(actor=None, decision=_decision(place, SUSPENSION), on=on())
    result = followups.end_suspensions(today=today())
    assert result.processes == 1 and result.awaiting_proof == 1
    permit = place["permit"]
    assert _status(permit) == Permit.Status.SUSPENDED
    follow = SuspensionFollowUp.objects.get(notice=decision.notice)
    assert follow.status == SuspensionFollowUp.Status.REVOCATION_OPENED
    process = RevocationProcess.objects.get(permit=permit)
    assert process.status == RevocationProcess.Status.OPEN and process.decided_by_label == "Presidente da EPT"
    assert "art. 58, §§ 3º e 4º" in " ".join(process.citations)
    kinds = {spec.kind for spec in followups.followup_items(today())}
    assert {followups.AWAITING_PROOF_KIND, followups.REVOCATION_KIND} <= kinds

    followups.end_suspensions(today=today())  # a second run opens nothing more
    assert RevocationProcess.objects.count() == 1

    followups.record_suspension_proof(
        actor=None, followup=follow, proved_on=today(), note="Correções comprovadas", reason="ok"
    )
    assert _status(permit) == Permit.Status.ACTIVE
    process.refresh_from_db()
    assert process.status == RevocationProcess.Status.OPEN  # the authority decides it


def test_pernambuco_stays_suspended_until_the_proof(world: Any) -> None:
    place = _place(world, "pernambuco")
    decision = effects.apply_final_decision(actor=None, decision=_decision(place, SUSPENSION), on=on())
    followups.end_suspensions(today=today())
    follow = SuspensionFollowUp.objects.get(notice=decision.notice)
    assert follow.status == SuspensionFollowUp.Status.AWAITING_PROOF
    assert _status(place["permit"]) == Permit.Status.SUSPENDED
    assert not RevocationProcess.objects.exists()
    followups.record_suspension_proof(
        actor=None, followup=follow, proved_on=today(), note="Sanado", reason="ok"
    )
    assert _status(place["permit"]) == Permit.Status.ACTIVE
    follow.refresh_from_db()
    assert follow.status == SuspensionFollowUp.Status.ENDED


def test_suspension_of_an_inactive_permit_is_recorded_as_not_applied(world: Any) -> None:
    place = _place(world, "recife")
    Permit.objects.filter(pk=place["permit"].pk).update(status=Permit.Status.REVOKED)
    decision = effects.apply_final_decision(actor=None, decision=_decision(place, SUSPENSION), on=on())
    [effect] = decision.effects
    assert effect["done"] is False and effect["note"].startswith("não aplicada: ")
    assert "cassada" in effect["note"]
    assert not SuspensionFollowUp.objects.exists()


def test_recife_revocation_revokes_with_the_five_year_ban(world: Any) -> None:
    place = _place(world, "recife")
    decision = effects.apply_final_decision(actor=None, decision=_decision(place, REVOCATION), on=on())
    permit = place["permit"]
    assert _status(permit) == Permit.Status.REVOKED
    ban = Ban.objects.get(permit=permit, cause=Ban.Cause.REVOCATION)
    assert ban.starts_on == on() and ban.ends_on == on().replace(year=on().year + 5)
    assert "art. 37" in ban.citation
    assert decision.effects[0]["done"] is True and "art. 37" in decision.effects[0]["note"]


def test_esteio_revocation_waits_for_the_mayors_act(world: Any) -> None:
    place = _place(world, "esteio")
    decision = effects.apply_final_decision(actor=None, decision=_decision(place, REVOCATION), on=on())
    permit = place["permit"]
    assert _status(permit) == Permit.Status.ACTIVE
    process = RevocationProcess.objects.get(permit=permit)
    assert process.decided_by_label == "Prefeito Municipal"
    assert "Anexo I, art. 9º, §§ 1º e 2º" in " ".join(process.citations)
    assert (
        decision.effects[0]["done"] is False
        and decision.effects[0]["ref"] == f"revocationprocess:{process.pk}"
    )

    followups.record_revocation_act(
        actor=_gestor(world, "esteio"),
        process=process,
        act="Decreto nº 123/2025",
        on=today(),
        reason="Ato publicado",
    )
    assert _status(permit) == Permit.Status.REVOKED and permit.ends_on == today()
    process.refresh_from_db()
    assert process.status == RevocationProcess.Status.REVOKED and process.act == "Decreto nº 123/2025"
    # Esteio's law sets no re-entry ban after revocation: none is invented.
    assert not Ban.objects.filter(permit=permit).exists()


def test_revocation_act_refusals_change_nothing(world: Any) -> None:
    place = _place(world, "esteio")
    effects.apply_final_decision(actor=None, decision=_decision(place, REVOCATION), on=on())
    process = RevocationProcess.objects.get()
    audits = AuditEvent.objects.count()
    for kwargs, message in (
        ({"act": " ", "on": today(), "reason": "x"}, "Informe o ato"),
        ({"act": "Decreto 1", "on": today(), "reason": ""}, "Informe o motivo"),
        ({"act": "Decreto 1", "on": on() - dt.timedelta(days=1), "reason": "x"}, "anterior à abertura"),
        ({"act": "Decreto 1", "on": today() + dt.timedelta(days=1), "reason": "x"}, "futura"),
    ):
        with pytest.raises(ValidationError, match=message):
            followups.record_revocation_act(actor=None, process=process, **kwargs)
    assert AuditEvent.objects.count() == audits and _status(place["permit"]) == Permit.Status.ACTIVE
    followups.dismiss_revocation_process(
        actor=None, process=process, on=today(), reason="Prefeito não cassou"
    )
    with pytest.raises(ValidationError, match="arquivado"):
        followups.record_revocation_act(actor=None, process=process, act="Decreto 1", on=today(), reason="x")
    with pytest.raises(ValidationError, match="motivo do arquivamento"):
        followups.dismiss_revocation_process(actor=None, process=process, on=today(), reason="")


def test_agent_revocation_revokes_the_registration_with_its_ban(world: Any) -> None:
    place = _place(world, "recife")
    person = world.objects["recife"]["registry.person"]
    agent = PermitAgent.objects.create(
        jurisdiction=place["j"],
        permit=place["permit"],
        person=person,
        role="auxiliary_driver",
        starts_on=on() - dt.timedelta(days=100),
    )
    decision = effects.apply_final_decision(
        actor=None,
        decision=_decision(place, REVOCATION, offender_kind="auxiliary_driver", agent=person),
        on=on(),
    )
    agent.refresh_from_db()
    assert agent.ends_on == on()
    assert _status(place["permit"]) == Permit.Status.ACTIVE
    assert Ban.objects.filter(person=person, cause=Ban.Cause.AGENT_REVOCATION).exists()
    assert decision.effects[0]["done"] is True


def test_an_agents_suspension_suspends_the_registration_not_the_permit(world: Any) -> None:
    place = _place(world, "recife")
    person = registry.create_person(
        actor=None,
        jurisdiction=place["j"],
        cpf=sample_cpf(300_000_000 + next(SEQ)),
        full_name="Cobrador Suspenso",
        birth_date=dt.date(1990, 1, 1),
        reason="teste",
    )
    agent = PermitAgent.objects.create(
        jurisdiction=place["j"],
        permit=place["permit"],
        person=person,
        role="fare_collector",
        starts_on=on() - dt.timedelta(days=100),
    )
    penalty = {"penalties": [{"type": "suspension", "days": 10}]}
    decision = effects.apply_final_decision(
        actor=None,
        decision=_decision(place, penalty, offender_kind="fare_collector", agent=person),
        on=on(),
    )
    agent.refresh_from_db()
    assert agent.suspended_until == on() + dt.timedelta(days=9) and agent.is_suspended(on())
    assert not agent.is_suspended(on() + dt.timedelta(days=10))
    assert _status(place["permit"]) == Permit.Status.ACTIVE
    assert decision.effects[0]["done"] is True and "suspenso" in decision.effects[0]["note"]
    # while suspended, the person cannot be registered as an agent again
    from lotacao.permits import services as permits

    with pytest.raises(ValidationError, match="suspenso até"):
        permits.add_agent(
            actor=None,
            permit=place["permit"],
            person=person,
            role="auxiliary_driver",
            reason="Novo vínculo",
            starts_on=on() + dt.timedelta(days=1),
        )
    # an agent without a current link: recorded as not applied, with why
    other = world.objects["esteio"]
    gone = effects.apply_final_decision(
        actor=None,
        decision=_decision(
            {"j": world.b, "holder": other["registry.holder"], "permit": other["permits.permit"]},
            penalty,
            offender_kind="fare_collector",
            agent=other["registry.person"],
        ),
        on=on(),
    )
    assert gone.effects[0]["done"] is False and "vínculo" in gone.effects[0]["note"]


def test_cabo_course_blocks_operation_and_marica_does_not(world: Any) -> None:
    cabo = _place(world, "cabo")
    effects.apply_final_decision(actor=None, decision=_decision(cabo, COURSE), on=on())
    course = CourseRequirement.objects.get(jurisdiction=cabo["j"])
    assert course.blocks_operation and course.citation.endswith("art. 28")
    assert course.holder == cabo["holder"] and course.person == cabo["holder"].person
    from lotacao.registry.models import Vehicle

    vehicle = Vehicle.objects.create(
        jurisdiction=cabo["j"],
        plate="CAB1A23",
        holder=cabo["holder"],
        manufacture_year=2020,
        seats=16,
        doors=4,
    )
    blocked = effects.public_vehicle_info(vehicle, on())
    assert blocked["authorized"] is False and "Curso obrigatório pendente" in blocked["reasons"][0]
    assert cabo["holder"].person.full_name not in " ".join(blocked["reasons"])  # no personal data
    marica = _place(world, "marica")
    effects.apply_final_decision(actor=None, decision=_decision(marica, COURSE), on=on())
    assert not CourseRequirement.objects.get(jurisdiction=marica["j"]).blocks_operation
    other = Vehicle.objects.create(
        jurisdiction=marica["j"],
        plate="MAR1A23",
        holder=marica["holder"],
        manufacture_year=2020,
        seats=16,
        doors=4,
    )
    assert effects.public_vehicle_info(other, on()) == {"reasons": []}
    followups.complete_course(
        actor=None, requirement=course, completed_on=today(), certificate="C-1", reason="ok"
    )
    assert effects.public_vehicle_info(vehicle, today()) == {"reasons": []}
    with pytest.raises(ValidationError, match="já foi concluído"):
        followups.complete_course(
            actor=None, requirement=course, completed_on=today(), certificate="C-1", reason="ok"
        )


def test_applying_twice_does_nothing_more(world: Any) -> None:
    place = _place(world, "recife")
    decision = _decision(
        place, {"penalties": [{"type": "fine", "amount": "100.00"}, *SUSPENSION["penalties"]]}
    )
    effects.apply_final_decision(actor=None, decision=decision, on=on())
    audits = AuditEvent.objects.count()
    again = effects.apply_final_decision(actor=None, decision=decision, on=on())
    assert len(again.effects) == 2 and SuspensionFollowUp.objects.count() == 1
    assert AuditEvent.objects.count() == audits
    assert AuditEvent.objects.filter(action="enforcement.decision_effects").count() == 1


def test_annulled_and_unfinal_decisions(world: Any) -> None:
    place = _place(world, "recife")
    annulled = effects.apply_final_decision(
        actor=None, decision=_decision(place, SUSPENSION, outcome="annulled"), on=on()
    )
    assert annulled.effects == [] and _status(place["permit"]) == Permit.Status.ACTIVE
    pending = _decision(place, SUSPENSION)
    Decision.objects.filter(pk=pending.pk).update(final=False)
    with pytest.raises(ValidationError, match="ainda não é definitiva"):
        effects.apply_final_decision(actor=None, decision=pending, on=on())
    assert _status(place["permit"]) == Permit.Status.ACTIVE


def test_proof_refusals(world: Any) -> None:
    recife = _place(world, "recife")
    effects.apply_final_decision(actor=None, decision=_decision(recife, SUSPENSION), on=on())
    with pytest.raises(ValidationError, match="não exige comprovação"):
        followups.record_suspension_proof(
            actor=None, followup=SuspensionFollowUp.objects.get(), proved_on=today(), note="x", reason="x"
        )
    place = _place(world, "pernambuco")
    decision = effects.apply_final_decision(actor=None, decision=_decision(place, SUSPENSION), on=on())
    follow = SuspensionFollowUp.objects.get(notice=decision.notice)
    for kwargs, message in (
        ({"proved_on": today(), "note": " ", "reason": "x"}, "Descreva a comprovação"),
        ({"proved_on": today(), "note": "x", "reason": ""}, "Informe o motivo"),
        ({"proved_on": on() - dt.timedelta(days=1), "note": "x", "reason": "x"}, "entre o início"),
        ({"proved_on": today() + dt.timedelta(days=1), "note": "x", "reason": "x"}, "entre o início"),
    ):
        with pytest.raises(ValidationError, match=message):
            followups.record_suspension_proof(actor=None, followup=follow, **kwargs)
    followups.record_suspension_proof(actor=None, followup=follow, proved_on=today(), note="x", reason="x")
    with pytest.raises(ValidationError, match="já foi registrada"):
        followups.record_suspension_proof(
            actor=None, followup=follow, proved_on=today(), note="x", reason="x"
        )
