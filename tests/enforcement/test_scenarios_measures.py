"""Measures as the engine's result gives them, per law: what releases each (`release_conditions`),
what it turns into (`measure_escalations`), the body's choice between alternatives (`choice`), the
charges besides the penalty and the fine base with its act — and Maricá's appeal routes for
retention (art. 70) and seizure (art. 71)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.enforcement.due_process import decisions, judging, settle
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import Measure, RevocationProcess
from lotacao.enforcement.sanctions import fine_payment, fines, measure_steps, measures
from lotacao.permits.models import Permit
from lotacao.registry.models import Line
from lotacao.web.agency_values import set_agency_value
from tests.enforcement.conftest import at, make_jurisdiction
from tests.enforcement.scenario_walk import TODAY, Walk, _person_holder

pytestmark = pytest.mark.django_db


def _value(j: Any, parameter: str, value: Any, since: str = "2025-01-01") -> None:
    set_agency_value(
        actor=None,
        jurisdiction=j,
        parameter=parameter,
        valid_from=dt.date.fromisoformat(since),
        value=value,
        cite="Decreto municipal (teste)",
        reason="teste",
    )


def _measure(notice: Any, kind: str, moment: str) -> Measure:
    return measures.apply_measure(
        actor=None,
        notice=notice,
        kind=kind,
        applied_at=at(moment, 12),
        detail="Pátio",
        reason="Na fiscalização",
    )


def _meet(measure: Measure, condition: str, day: dt.date, note: str = "") -> Measure:
    return measures.meet_condition(
        actor=None, measure=measure, condition_id=condition, met_on=day, note=note, reason="Condição"
    )


def test_cabo_retained_vehicle_is_released_only_once_its_own_fine_is_paid(world: Any) -> None:
    """Cabo (art. 23, parágrafo único): the 500 UFIR fine is paid "para a liberação" of the vehicle."""
    j = make_jurisdiction("cabo")
    w = Walk(world, j, None, "unlicensed", plate="CLA1N23", offender_name="Sem Credenciamento")
    notice = w.draw("2025-06-02", "")
    assert notice.penalty["penalties"] == [{"type": "fine", "units": "500", "unit": "UFIR"}]
    retention = _measure(notice, "vehicle_retention", "2025-06-02")
    assert [c["id"] for c in retention.conditions] == ["fine_paid"]
    assert retention.conditions[0]["cite"] == "art. 23, parágrafo único"
    with pytest.raises(ValidationError, match="ainda não foi lançada"):
        _meet(retention, "fine_paid", dt.date(2025, 6, 2), note="Comprovante apresentado")
    fine = fines.issue_fine(
        actor=None, notice=notice, reason="Lançamento", due_on=dt.date(2025, 7, 2), today=dt.date(2025, 6, 2)
    )
    assert fine is not None
    with pytest.raises(ValidationError, match="ainda não foi paga"):  # the clerk's word is not enough
        _meet(retention, "fine_paid", dt.date(2025, 6, 3), note="Comprovante apresentado")
    _value(j, "fiscal_unit.UFIR", "1.0641")
    fine_payment.record_fine_payment(
        actor=None,
        fine=fine,
        paid_on=dt.date(2025, 6, 3),
        payment_reference="DAM-1",
        reason="Pago",
        today=TODAY,
    )
    met = _meet(retention, "fine_paid", dt.date(2025, 6, 3))  # before the due date: it releases
    assert "Verificado pelo sistema" in met.conditions[0]["note"]
    released = measures.release_measure(
        actor=None, measure=met, released_on=dt.date(2025, 6, 3), note="", reason="Liberação"
    )
    assert released.status == Measure.Status.RELEASED


def _marica(world: Any) -> tuple[Any, Walk, Permit]:
    j = make_jurisdiction("marica")
    holder = _person_holder(j)
    line = Line.objects.create(jurisdiction=j, code="M9", name="Centro")
    permit = Permit.objects.create(
        jurisdiction=j,
        number="MAR-9",
        holder=holder,
        line=line,
        status=Permit.Status.ACTIVE,
        applied_on=dt.date(2024, 1, 1),
        granted_on=dt.date(2024, 1, 1),
        valid_until=TODAY + dt.timedelta(days=365),
        term_citation="teste",
    )
    _value(j, "fiscal_unit.UFIMA", "120.00")
    return j, Walk(world, j, holder, "permit_holder", plate="MAR1C23", line=line, permit=permit), permit


def test_marica_over_age_seizure_is_released_on_the_signed_commitment_and_breaking_it_opens_revocation(
    world: Any,
) -> None:
    """Maricá art. 55, I and § 1º, and art. 56: the over-age vehicle is not fixed, it is retired."""
    _j, w, permit = _marica(world)
    notice = w.serve(w.draw("2025-06-02", "art42-XV-d", "C"), dt.date(2025, 6, 3))
    seizure = _measure(notice, "vehicle_seizure", "2025-06-02")
    assert [c["id"] for c in seizure.conditions] == ["retirement_commitment", "dues_paid"]
    with pytest.raises(ValidationError, match="Informe o que comprova"):
        _meet(seizure, "retirement_commitment", dt.date(2025, 6, 4))
    seizure = _meet(seizure, "retirement_commitment", dt.date(2025, 6, 4), note="Termo nº 12/2025, assinado")
    seizure = _meet(seizure, "dues_paid", dt.date(2025, 6, 4))
    seizure = measures.release_measure(
        actor=None, measure=seizure, released_on=dt.date(2025, 6, 4), note="", reason="Liberação"
    )
    with pytest.raises(ValidationError, match="prova do descumprimento"):
        measure_steps.record_commitment_breach(
            actor=None, measure=seizure, found_on=dt.date(2025, 7, 1), proof="", reason="x"
        )
    process = measure_steps.record_commitment_breach(
        actor=None,
        measure=seizure,
        found_on=dt.date(2025, 7, 1),
        proof="Veículo flagrado em operação (auto AI-2025-000099)",
        reason="Termo descumprido",
    )
    assert process.permit == permit and process.status == RevocationProcess.Status.OPEN
    assert "art. 55, § 1º" in " ".join(process.citations)
    assert "termo de compromisso" in process.cause


def test_marica_retention_turns_into_seizure_and_the_appeal_goes_to_the_ept_president(world: Any) -> None:
    """Maricá art. 54, parágrafo único (conversion); art. 70 (retention: 5 business days, the
    transport head) and art. 71 (seizure: 10 business days, the EPT's president)."""
    _j, w, _permit = _marica(world)
    notice = w.serve(w.draw("2025-06-02", "art42-XIX-a", "C"), dt.date(2025, 6, 3))
    retention = _measure(notice, "vehicle_retention", "2025-06-02")
    assert [c["id"] for c in retention.conditions] == ["fault_fixed", "authorization"]
    notice.refresh_from_db()
    before = current_stage(notice, dt.date(2025, 6, 4))
    assert before.due == dt.date(2025, 6, 10)  # 5 business days from 03/06 (art. 70)
    seizure = measure_steps.convert_measure(
        actor=None,
        measure=retention,
        converted_at=at("2025-06-02", 14),
        detail="Pátio da EPT",
        reason="O condutor não pôde ser substituído no local",
    )
    retention.refresh_from_db()
    assert retention.status == Measure.Status.CONVERTED and retention.converted_to == seizure
    assert "art. 54, parágrafo único" in retention.release_note
    assert seizure.kind == "vehicle_seizure" and seizure.status == Measure.Status.IN_FORCE
    assert {c["id"] for c in seizure.conditions} == {
        "fault_fixed",
        "inspection_passed",
        "authorization",
        "dues_paid",
    }
    with pytest.raises(ValidationError, match="convertida"):
        measures.release_measure(
            actor=None, measure=retention, released_on=dt.date(2025, 6, 3), note="x", reason="x"
        )
    after = current_stage(notice, dt.date(2025, 6, 4))
    assert after.due == dt.date(2025, 6, 17)  # 10 business days (art. 71)
    fine = fines.issue_fine(
        actor=None, notice=notice, reason="Lançamento", due_on=dt.date(2025, 7, 3), today=dt.date(2025, 6, 4)
    )
    assert fine is not None
    fine_payment.record_fine_payment(
        actor=None,
        fine=fine,
        paid_on=dt.date(2025, 6, 4),
        payment_reference="DAM-5",
        reason="Pago",
        today=TODAY,
    )
    appeal = w.file(notice, dt.date(2025, 6, 12))
    assert appeal.body.key == "ept_president" and not appeal.late and appeal.due_on == dt.date(2025, 6, 17)


def test_esteio_iv_02_the_cip_chooses_one_measure_and_a_suspension_needs_its_days(
    world: Any, client: Any
) -> None:
    """Esteio, Anexo II, IV-02: "desconto do valor devido ou suspensão da permissão" — one, not
    both; the row gives no days for the suspension (a value the agency supplies)."""
    o = world.objects["esteio"]
    permit = o["permits.permit"]
    w = Walk(world, world.b, o["registry.holder"], "permit_holder", permit=permit)
    notice = w.serve(w.draw("2025-06-02", "IV-02"), dt.date(2025, 6, 3))
    kinds = [m["type"] for m in notice.penalty["measures"]]
    assert kinds == ["credit_offset", "permit_suspension"]
    appeal = w.file(notice, dt.date(2025, 6, 10))
    session = w.session(appeal.body, dt.date(2025, 6, 20))
    present = [m for m in session.present.all() if m.role != "president"]
    votes = dict(zip(present, ["uphold", "uphold"], strict=False))

    def judge(choice: str | None) -> Any:
        return decisions.decide(
            actor=None,
            filing=appeal,
            session=session,
            votes=votes,
            reasons="Valores devidos não pagos.",
            decided_on=dt.date(2025, 6, 20),
            measure_choice=choice,
        )

    judging.build_agenda(actor=None, session=session)
    client.force_login(world.users["comissao.esteio"])
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Medida escolhida (a lei oferece uma ou outra)" in page
    assert "Desconto do valor devido de créditos do infrator" in page and "credit_offset</option>" not in page
    with pytest.raises(ValidationError, match="escolher uma só medida"):
        judge(None)
    with pytest.raises(ValidationError, match="Prazo da suspensão da permissão onde a linha do Anexo II"):
        judge("permit_suspension")
    _value(world.b, "measure.suspension_days", {"IV-02": 15})
    decision = judge("permit_suspension")
    assert decision.final
    assert decision.penalty["measures"] == [{"type": "permit_suspension", "days": 15, "chosen": True}]
    permit.refresh_from_db()
    assert permit.status == Permit.Status.SUSPENDED
    assert permit.suspended_until == dt.date(2025, 7, 4)  # 15 days from the final decision


def test_the_notice_shows_the_fine_base_with_its_act_and_the_charges(world: Any, client: Any) -> None:
    """Recife (art. 36, § 1º): the base used and the act that corrected it; Esteio (art. 18, c and
    parágrafo único): the removal and storage costs, and on recidivism a fine of equal value."""
    _value(world.a, "penalty.base_fine_readjustment", "8")
    o = world.objects["recife"]
    recife = Walk(world, world.a, o["registry.holder"], "permit_holder", permit=o["permits.permit"]).draw(
        "2025-06-02", "G2-a"
    )
    assert recife.penalty["penalties"] == [{"type": "fine", "amount": "108.00"}]
    client.force_login(world.users["atendente.recife"])
    page = client.get(f"/fiscalizacao/autos/{recife.pk}/").content.decode()
    assert "Valor base da multa (Vb): R$\xa054,00, desde 01/01/2025 — Decreto municipal (teste)" in page
    esteio = Walk(world, world.b, None, "unlicensed", plate="CLA2N34", offender_name="Sem Permissão")
    esteio.serve(esteio.draw("2025-02-03", ""), dt.date(2025, 2, 4))
    settle.settle_due_process(today=dt.date(2025, 3, 31))
    again = esteio.draw("2025-06-02", "")
    client.force_login(world.users["atendente.esteio"])
    page = client.get(f"/fiscalizacao/autos/{again.pk}/").content.decode()
    assert "Ressarcimento das despesas de remoção e estadia do veículo" in page
    assert "Multa de valor igual às despesas de remoção e estadia (reincidência)" in page
    assert "removal_and_storage_costs" not in page
