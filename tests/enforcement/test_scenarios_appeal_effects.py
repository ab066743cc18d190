"""When a decision's effects begin, by the law's process parameters (`process.instances[].
suspensive`): Recife's appeal to the CRA has no suspensive effect (art. 43, parágrafo único), so the
CDTC's revocation, suspension and suspension of an agent's registration take effect when the CDTC's
decision is served, and are undone (permit restored, ban lifted, fine refunded, the holder told) or
confirmed when the CRA decides. Esteio's appeal to the CIP suspends (Anexo I, art. 22)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from lotacao.audit.models import AuditEvent
from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.due_process import decisions, settle
from lotacao.enforcement.models import Decision, Fine, InfractionNotice, RevocationProcess
from lotacao.enforcement.sanctions import fine_payment, fines
from lotacao.enforcement.sanctions.refunds import record_refund, refund_items
from lotacao.enforcement.sanctions.undo import UNDONE_KIND, undone_items
from lotacao.permits.eligibility import active_bans
from lotacao.permits.models import Ban, Permit, PermitAgent
from lotacao.registry import services as registry
from tests.enforcement.scenario_walk import TODAY, Walk

pytestmark = pytest.mark.django_db


def _revocation_rejected_by_the_cdtc(world: Any) -> tuple[Walk, InfractionNotice, Decision, Permit]:
    """Recife: a third Group 4 infraction within 12 months (art. 33, IV) — revocation with a
    5-year ban (art. 37) — whose defense the CDTC rejects."""
    o = world.objects["recife"]
    permit = o["permits.permit"]
    w = Walk(world, world.a, o["registry.holder"], "permit_holder", permit=permit)
    w.serve(w.draw("2025-01-06", "G4-a"), dt.date(2025, 1, 8))
    w.serve(w.draw("2025-02-03", "G4-b"), dt.date(2025, 2, 5))
    settle.settle_due_process(today=dt.date(2025, 4, 1))  # both lapse: final, no defense
    third = w.serve(w.draw("2025-05-05", "G4-c"), dt.date(2025, 5, 7))
    assert {p["type"] for p in third.penalty["penalties"]} == {"fine", "revocation"}
    rejected = w.judge(w.file(third, dt.date(2025, 5, 12)), dt.date(2025, 5, 20), "upheld")
    assert not rejected.final  # the CRA remains (art. 43)
    permit.refresh_from_db()
    assert permit.status == Permit.Status.ACTIVE  # nothing yet: the decision is not served
    return w, third, rejected, permit


def _served(decision: Decision, day: dt.date) -> Decision:
    decisions.record_decision_service(actor=None, decision=decision, served_on=day)
    decision.refresh_from_db()
    return decision


def test_recife_revocation_takes_effect_when_the_cdtc_decision_is_served_and_is_undone_on_appeal(
    world: Any,
) -> None:
    w, notice, rejected, permit = _revocation_rejected_by_the_cdtc(world)
    holder = w.holder
    rejected = _served(rejected, dt.date(2025, 5, 26))
    # the revocation and its ban take effect on the day the CDTC's decision is served
    permit.refresh_from_db()
    assert permit.status == Permit.Status.REVOKED and permit.ends_on == dt.date(2025, 5, 26)
    (ban,) = active_bans(person=holder.person, on=dt.date(2025, 6, 1))
    assert ban.starts_on == dt.date(2025, 5, 26) and ban.ends_on == dt.date(2030, 5, 26)
    (effect,) = [e for e in rejected.effects if e["type"] == "revocation"]
    assert effect["provisional"] and effect["since"] == "2025-05-26"
    assert any("art. 43, parágrafo único" in c for c in effect["citations"])
    # the fine falls due on the service of the decision (art. 36, § 2º) and is paid
    fine = fines.issue_fine(actor=None, notice=notice, reason="Lançamento", today=dt.date(2025, 5, 27))
    assert fine is not None and fine.due_on == dt.date(2025, 5, 26)
    fine_payment.record_fine_payment(
        actor=None,
        fine=fine,
        paid_on=dt.date(2025, 5, 28),
        payment_reference="DAM-9",
        reason="Pago",
        today=TODAY,
    )
    # the appeal to the CRA, in time, annuls: everything is undone
    appeal = w.file(notice, dt.date(2025, 6, 2))
    assert appeal.body.key == "cra" and not appeal.late
    annulled = w.judge(appeal, dt.date(2025, 6, 20), "annulled")
    notice.refresh_from_db()
    permit.refresh_from_db()
    assert annulled.final and notice.status == InfractionNotice.Status.ANNULLED
    assert permit.status == Permit.Status.ACTIVE and permit.ends_on is None
    assert not active_bans(person=holder.person, on=dt.date(2025, 6, 21))
    assert Ban.unscoped.get(pk=ban.pk).lifted_on == dt.date(2025, 6, 20)
    annulled.refresh_from_db()
    assert annulled.effects_undone
    (undone,) = [e for e in annulled.effects if e["type"] == "revocation"]
    assert (
        undone["undone"] and "restabelecida" in undone["note"] and "impedimento levantado" in undone["note"]
    )
    assert {"permit.restored", "ban.lifted"} <= set(AuditEvent.objects.values_list("action", flat=True))
    # the holder is told: a work item until the CRA's decision is served; the fine is refunded
    assert [i.kind for i in undone_items(TODAY) if i.key == f"decision:{annulled.pk}"] == [UNDONE_KIND]
    (refund,) = [i for i in refund_items(TODAY) if i.key == f"fine:{fine.pk}"]
    assert "400,00" in refund.title
    record_refund(
        actor=None, fine=fine, refunded_on=dt.date(2025, 7, 1), reference="OB-7", reason="Restituição"
    )
    fine.refresh_from_db()
    assert fine.status == Fine.Status.REFUNDED and fine.refunded_amount == fine.paid_amount
    _served(annulled, dt.date(2025, 6, 25))
    assert not [i for i in undone_items(TODAY) if i.key == f"decision:{annulled.pk}"]


def test_recife_revocation_upheld_by_the_cra_stays_from_the_cdtc_service(world: Any) -> None:
    w, notice, rejected, permit = _revocation_rejected_by_the_cdtc(world)
    _served(rejected, dt.date(2025, 5, 26))
    upheld = w.judge(w.file(notice, dt.date(2025, 6, 2)), dt.date(2025, 6, 20), "upheld")
    assert upheld.final
    permit.refresh_from_db()
    assert permit.status == Permit.Status.REVOKED and permit.ends_on == dt.date(2025, 5, 26)
    assert Ban.unscoped.filter(permit=permit).count() == 1  # applied once, from the CDTC's service
    upheld.refresh_from_db()
    assert not upheld.effects_undone
    (kept,) = [e for e in upheld.effects if e["type"] == "revocation"]
    assert "desde 26/05/2025" in kept["note"]
    assert AuditEvent.objects.filter(action="permit.revoked").count() == 1


def test_recife_revocation_not_appealed_becomes_final_as_it_stands(world: Any) -> None:
    _w, notice, rejected, permit = _revocation_rejected_by_the_cdtc(world)
    _served(rejected, dt.date(2025, 5, 26))
    settle.settle_due_process(today=dt.date(2025, 6, 30))  # 15 days for the CRA passed unused
    rejected.refresh_from_db()
    notice.refresh_from_db()
    assert rejected.final and notice.status == InfractionNotice.Status.DECIDED_FINAL
    assert not any(e.get("provisional") for e in rejected.effects)
    assert {e["type"] for e in rejected.effects} == {"revocation", "fine"}
    assert Ban.unscoped.filter(permit=permit).count() == 1


def test_recife_agent_suspension_starts_on_service_and_is_lifted_when_the_cra_reduces_it(world: Any) -> None:
    o = world.objects["recife"]
    permit = o["permits.permit"]
    person = registry.create_person(
        actor=None,
        jurisdiction=world.a,
        cpf=sample_cpf(330_000_001),
        full_name="Condutor Auxiliar",
        birth_date=dt.date(1985, 1, 1),
        reason="teste",
    )
    agent = PermitAgent.objects.create(
        jurisdiction=world.a,
        permit=permit,
        person=person,
        role="auxiliary_driver",
        starts_on=dt.date(2024, 1, 1),
    )
    w = Walk(world, world.a, o["registry.holder"], "auxiliary_driver", permit=permit, agent=person)
    w.serve(w.draw("2025-02-03", "G3-a"), dt.date(2025, 2, 5))
    settle.settle_due_process(today=dt.date(2025, 4, 1))
    second = w.serve(w.draw("2025-05-05", "G3-b"), dt.date(2025, 5, 7))
    assert {"type": "suspension", "days": 30} in second.penalty["penalties"]  # art. 34, III
    rejected = w.judge(w.file(second, dt.date(2025, 5, 12)), dt.date(2025, 5, 20), "upheld")
    _served(rejected, dt.date(2025, 5, 26))
    agent.refresh_from_db()
    assert agent.suspended_until == dt.date(2025, 6, 24)  # 30 days from the service
    permit.refresh_from_db()
    assert permit.status == Permit.Status.ACTIVE  # the agent's registration, not the permit
    appeal = w.file(second, dt.date(2025, 6, 2))
    appeal.refresh_from_db()
    changed = decisions.decide(
        actor=None,
        filing=appeal,
        session=w.session(appeal.body, dt.date(2025, 6, 10)),
        outcome="changed",
        penalty={"penalties": [{"type": "fine", "amount": "150.00"}]},
        reasons="Reincidência não comprovada: só a multa.",
        decided_on=dt.date(2025, 6, 10),
    )
    agent.refresh_from_db()
    changed.refresh_from_db()
    assert agent.suspended_until is None and changed.effects_undone
    assert any("desfeita" in e["note"] for e in changed.effects if e["type"] == "suspension")


def test_esteio_appeal_suspends_the_revocation_until_the_cip_decides(world: Any) -> None:
    o = world.objects["esteio"]
    permit = o["permits.permit"]
    w = Walk(world, world.b, o["registry.holder"], "permit_holder", permit=permit)
    notice = w.serve(w.draw("2025-04-07", "V-01"), dt.date(2025, 4, 9))
    assert any(p["type"] == "revocation" for p in notice.penalty["penalties"])  # Anexo I, art. 9º
    appeal = w.file(notice, dt.date(2025, 4, 15))
    settle.settle_due_process(today=dt.date(2025, 5, 2))
    permit.refresh_from_db()
    assert permit.status == Permit.Status.ACTIVE  # the appeal suspends (Anexo I, art. 22)
    assert not RevocationProcess.unscoped.filter(notice=notice).exists()
    decision = w.judge(appeal, dt.date(2025, 5, 5), "", votes=["uphold", "uphold"])
    assert decision.final and not any(e.get("provisional") for e in decision.effects)
    # final: the Mayor's revocation process opens (Anexo I, art. 9º, §§ 1º–2º)
    assert RevocationProcess.unscoped.filter(notice=notice, status="open").exists()
