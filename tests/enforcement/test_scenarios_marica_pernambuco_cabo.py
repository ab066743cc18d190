"""One scenario per law, Maricá, Pernambuco and Cabo, from drawing up to the final decision:
repeat offences where the law defines recidivism, notification, the fine, appeals, annulment."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.enforcement.due_process import application, decisions, judging, settle
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.models import InfractionNotice
from lotacao.enforcement.notices import penalty
from lotacao.enforcement.sanctions import fine_payment, fines, measures
from lotacao.registry import services as registry
from lotacao.registry.models import Holder, Line
from lotacao.web.agency_values import set_agency_value
from tests.enforcement.conftest import at, make_jurisdiction
from tests.enforcement.scenario_walk import (
    TODAY,
    Walk,
    _final,
    _person_holder,
)

pytestmark = pytest.mark.django_db


def test_marica_scenario(world: Any) -> None:
    j = make_jurisdiction("marica")
    holder = _person_holder(j)
    line = Line.objects.create(jurisdiction=j, code="M1", name="Centro")
    w = Walk(world, j, holder, "permit_holder", plate="ABC1D23", line=line)
    set_agency_value(
        actor=None,
        jurisdiction=j,
        parameter="fiscal_unit.UFIMA",
        valid_from=dt.date(2025, 1, 1),
        value="120.00",
        cite="Decreto municipal (teste)",
        reason="teste",
    )
    # 1. Group B, 2 UFIMA; not appealed: final after 5 business days (art. 70).
    first = w.serve(w.draw("2025-02-03", "art42-V", "B"), dt.date(2025, 2, 5))
    assert first.penalty["penalties"] == [{"type": "fine", "units": "2", "unit": "UFIMA"}]
    fine = fines.issue_fine(
        actor=None, notice=first, reason="Lançamento", due_on=dt.date(2025, 3, 5), today=dt.date(2025, 2, 6)
    )
    assert fine is not None
    settle.settle_due_process(today=dt.date(2025, 2, 13))
    assert _final(first)
    # 2. The same violation within 365 days escalates (art. 48 §§ 2º–3º).
    second = w.serve(w.draw("2025-04-07", "art42-V", "B"), dt.date(2025, 4, 9))
    assert second.engine_result["repeat"] == 1
    assert second.penalty["penalties"] == [{"type": "fine", "units": "4", "unit": "UFIMA"}]
    # an appeal filed before paying the fine waits for the payment (art. 70, par. único, as the
    # pack reads it with art. 75): judged once paid within the 30 days
    appeal = w.file(second, dt.date(2025, 4, 11))
    assert "deserção" in appeal.due_explanation
    second_fine = fines.issue_fine(
        actor=None, notice=second, reason="Lançamento", due_on=dt.date(2025, 5, 9), today=dt.date(2025, 4, 10)
    )
    assert second_fine is not None
    fine_payment.record_fine_payment(
        actor=None,
        fine=second_fine,
        paid_on=dt.date(2025, 4, 11),
        payment_reference="DAM-2",
        reason="Pago",
        today=TODAY,
    )
    assert appeal.body.key == "transport_head" and not appeal.body.collegiate
    annulled = w.judge(appeal, dt.date(2025, 4, 25), "annulled")
    assert annulled.final
    third = w.draw("2025-06-02", "art42-V", "B")
    assert third.engine_result["repeat"] == 1  # only the first, final one counts
    # 3. A late appeal is not known (art. 75).
    third = w.serve(third, dt.date(2025, 6, 4))
    third_fine = fines.issue_fine(
        actor=None, notice=third, reason="Lançamento", due_on=dt.date(2025, 7, 4), today=dt.date(2025, 6, 5)
    )
    assert third_fine is not None
    fine_payment.record_fine_payment(
        actor=None,
        fine=third_fine,
        paid_on=dt.date(2025, 6, 5),
        payment_reference="DAM-3",
        reason="Pago",
        today=TODAY,
    )
    late = w.file(third, dt.date(2025, 6, 20))
    assert late.late
    assert w.judge(late, dt.date(2025, 6, 25), "not_known").final and _final(third)
    # 4. The first fine unpaid: a seized vehicle is released only with dues paid (art. 56).
    seizure = measures.apply_measure(
        actor=None,
        notice=first,
        kind="vehicle_seizure",
        applied_at=at("2025-02-03", 12),
        detail="Pátio municipal",
        reason="Apreensão: veículo em operação com o certificado de vistoria vencido (art. 55, V).",
    )
    with pytest.raises(ValidationError):
        measures.meet_condition(
            actor=None,
            measure=seizure,
            condition_id="dues_paid",
            met_on=dt.date(2025, 3, 20),
            note="",
            reason="x",
        )


def test_pernambuco_scenario(world: Any) -> None:
    j = make_jurisdiction("pernambuco")
    company = registry.create_company(
        actor=None, jurisdiction=j, cnpj="11222333000181", legal_name="Fretamentos Teste Ltda", reason="teste"
    )
    holder = Holder.objects.create(jurisdiction=j, company=company)
    w = Walk(world, j, holder, "company", plate="PEX1A23")
    # 1. A grave infraction, R$ 900 (art. 28, III); defense in time, rejected by EPTI's president.
    first = w.serve(w.draw("2025-02-03", "III-e"), dt.date(2025, 2, 5))
    assert first.penalty["penalties"] == [{"type": "fine", "amount": "900.00"}]
    fine = fines.issue_fine(actor=None, notice=first, reason="Lançamento", today=dt.date(2025, 2, 6))
    assert fine is not None and fine.due_on is None  # due only after the final decision (art. 25 § 4º)
    defense = w.file(first, dt.date(2025, 2, 15))
    assert defense.due_on == dt.date(2025, 2, 20) and defense.body.key == "epti_president"
    decision = w.judge(defense, dt.date(2025, 3, 10), "upheld")
    assert decision.final and decision.notify_due == dt.date(2025, 5, 9)  # 60 days (art. 25 § 3º)
    fine.refresh_from_db()
    assert fine.due_on == dt.date(2025, 3, 25)  # 15 days from the final decision (art. 25 § 4º)
    # 2. Recidivism: the law sets no window, so nothing escalates and the gap is named.
    second = w.serve(w.draw("2025-04-07", "III-e"), dt.date(2025, 4, 9))
    assert "penalty.recidivism_window" in second.missing_parameters
    assert second.penalty["penalties"] == [{"type": "fine", "amount": "900.00"}]
    # a late defense cannot be judged on its merits
    late = w.file(second, dt.date(2025, 5, 5))
    assert late.late
    with pytest.raises(ValidationError, match="intempestividade"):
        w.judge(late, dt.date(2025, 5, 10), "annulled")
    assert w.judge(late, dt.date(2025, 5, 10), "not_known").final and _final(second)
    # 3. A defense that annuls: it never counts as history.
    third = w.serve(w.draw("2025-06-02", "IV-i"), dt.date(2025, 6, 4))
    w.judge(w.file(third, dt.date(2025, 6, 10)), dt.date(2025, 6, 20), "annulled")
    fourth = w.draw("2025-07-01", "IV-i")
    assert [h["status"] for h in penalty.offender_history(fourth) if h["code"] == "IV-i"] == ["annulled"]
    # 4. The unpaid fine keeps a seized vehicle in the depot (art. 29-A, par. único).
    seizure = measures.apply_measure(
        actor=None,
        notice=first,
        kind="vehicle_seizure",
        applied_at=at("2025-02-03", 12),
        detail="Depósito",
        reason="Apreensão: veículo em operação com o certificado de vistoria vencido (art. 55, V).",
    )
    with pytest.raises(ValidationError):
        measures.meet_condition(
            actor=None,
            measure=seizure,
            condition_id="dues_paid",
            met_on=dt.date(2025, 4, 1),
            note="",
            reason="x",
        )
    fine_payment.record_fine_payment(
        actor=None,
        fine=fine,
        paid_on=dt.date(2025, 4, 2),
        payment_reference="GR-1",
        reason="Pago",
        today=TODAY,
    )
    measures.meet_condition(
        actor=None, measure=seizure, condition_id="dues_paid", met_on=dt.date(2025, 4, 3), note="", reason="x"
    )


def _applied(w: Walk, notice: Any, day: dt.date, outcome: str = "upheld") -> Any:
    """Cabo's Council applies the penalty in a session (art. 29)."""
    body = judging.body_for(w.j.code, "council", day)
    return application.apply_penalty(
        actor=None,
        notice=notice,
        outcome=outcome,
        reasons="Infração comprovada pelo auto.",
        decided_on=day,
        session=w.session(body, day),
    )


def test_cabo_scenario(world: Any) -> None:
    j = make_jurisdiction("cabo")
    holder = _person_holder(j)
    w = Walk(world, j, holder, "permit_holder", plate="CAB1O23")
    # The law left fine values and recidivism to a regulation that is not in the text: the
    # notice says so, and no fine is issued (no value is invented).
    first = w.serve(w.draw("2009-02-02", "reg-1", "grave"), dt.date(2009, 2, 4))
    assert first.penalty["penalties"][0]["amount"] is None
    assert "penalty.fine.grave" in first.missing_parameters
    with pytest.raises(ValidationError):
        fines.issue_fine(
            actor=None,
            notice=first,
            reason="Lançamento",
            due_on=dt.date(2009, 3, 1),
            today=dt.date(2009, 2, 5),
        )
    # 1. The Council applies the penalty (art. 29): the notice served is only the proposal.
    # Nothing lapses while it waits, and there is nothing to appeal from yet.
    settle.settle_due_process(today=dt.date(2009, 2, 17))
    first.refresh_from_db()
    assert first.status == InfractionNotice.Status.NOTIFIED
    stage = current_stage(first, dt.date(2009, 2, 17))
    assert stage.ex_officio and "Aplicação da penalidade pelo Conselho" in stage.blocked
    with pytest.raises(ValidationError, match="ainda não registrada"):
        w.file(first, dt.date(2009, 2, 17))
    assert any(i.key == f"notice:{first.pk}" for i in application.pending_items(dt.date(2009, 2, 17)))
    applied = _applied(w, first, dt.date(2009, 2, 18))
    assert applied.body.key == "council" and not applied.final
    # the 10 days run from the notification of the application, not from the notice's service
    decisions.record_decision_service(actor=None, decision=applied, served_on=dt.date(2009, 2, 20))
    stage = current_stage(first, dt.date(2009, 2, 25))
    assert stage.instance is not None and stage.instance["id"] == "appeal"
    assert stage.start == dt.date(2009, 2, 20) and stage.due == dt.date(2009, 3, 2)
    settle.settle_due_process(today=dt.date(2009, 3, 2))
    assert not _final(first)
    settle.settle_due_process(today=dt.date(2009, 3, 3))
    assert _final(first)
    # 2. An appeal in time goes to the Mayor, who annuls.
    second = w.serve(w.draw("2009-03-02", "reg-2", "grave"), dt.date(2009, 3, 4))
    decided = _applied(w, second, dt.date(2009, 3, 10))
    decisions.record_decision_service(actor=None, decision=decided, served_on=dt.date(2009, 3, 12))
    appeal = w.file(second, dt.date(2009, 3, 20))
    assert appeal.body.key == "mayor" and not appeal.body.collegiate and not appeal.late
    assert appeal.due_on == dt.date(2009, 3, 23)  # 22/03 a Sunday: the next business day
    assert w.judge(appeal, dt.date(2009, 3, 25), "annulled").final
    # 3. A late appeal is recorded, flagged and declared late.
    third = w.serve(w.draw("2009-04-01", "reg-3", "grave"), dt.date(2009, 4, 2))
    decisions.record_decision_service(
        actor=None, decision=_applied(w, third, dt.date(2009, 4, 3)), served_on=dt.date(2009, 4, 6)
    )
    late = w.file(third, dt.date(2009, 4, 20))
    assert late.late
    assert w.judge(late, dt.date(2009, 4, 25), "not_known").final and _final(third)
    # 4. The Council may also not apply it: the notice is annulled and never counts.
    fourth = w.serve(w.draw("2009-05-04", "reg-4", "grave"), dt.date(2009, 5, 5))
    assert _applied(w, fourth, dt.date(2009, 5, 6), outcome="annulled").final
    fifth = w.draw("2009-06-01", "reg-5", "grave")
    assert {h["status"] for h in penalty.offender_history(fifth)} == {"final", "annulled"}
