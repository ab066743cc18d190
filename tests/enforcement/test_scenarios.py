"""One scenario per law, from drawing up to the final decision, through the services the screens
use: the engine's penalty from the offender's final history (a repeat offence that escalates
where the law defines recidivism), notification, the fine, a late defense that is not known, an
appeal or defense that annuls (and so never counts later), and what an unpaid fine does."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.billing.selectors import clearance
from lotacao.core.agency_values import set_agency_value
from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.due_process import decisions, filings, judging, settle
from lotacao.enforcement.models import BodyMember, Decision, Fine, InfractionNotice, Session
from lotacao.enforcement.notices import penalty, services
from lotacao.enforcement.notices.notification import record_notification
from lotacao.enforcement.sanctions import fine_payment, fines, measures
from lotacao.registry import services as registry
from lotacao.registry.models import Holder, Line
from tests.enforcement.conftest import at, make_jurisdiction

pytestmark = pytest.mark.django_db
TODAY = dt.date(2025, 12, 1)
SEQ = itertools.count(1)


class Walk:
    """One offender in one jurisdiction, walked through the due process."""

    def __init__(self, world: Any, j: Any, holder: Any, offender: str, **links: Any) -> None:
        self.world, self.j, self.holder, self.offender, self.links = world, j, holder, offender, links
        self.clerk = world.users.get(f"atendente.{j.code}")

    def draw(self, day: str, code: str, group: str = "") -> InfractionNotice:
        return services.draw_up_notice(
            actor=None,
            jurisdiction=self.j,
            drawn_up_at=at(day),
            infraction_code=code,
            infraction_group=group,
            offender_kind=self.offender,
            holder=self.holder,
            place="Terminal Central",
            description="Constatado em fiscalização de rotina",
            inspector=self.world.users["fiscal.recife"],
            **self.links,
        )

    def serve(self, notice: InfractionNotice, day: dt.date) -> InfractionNotice:
        record_notification(actor=None, notice=notice, method="hand", received_on=day, today=TODAY)
        notice.refresh_from_db()
        return notice

    def file(self, notice: InfractionNotice, day: dt.date) -> Any:
        return filings.file_defense(
            actor=None,
            notice=notice,
            text="O fato não ocorreu como descrito.",
            channel="counter",
            reason="Protocolo",
            filed_at=at(day.isoformat(), 11),
        )

    def session(self, body: Any, day: dt.date) -> Session:
        members = list(body.members.all())
        if not members:
            for i in range(5 if body.key == "cip" else 3):
                members.append(
                    judging.add_member(
                        actor=None,
                        body=body,
                        name=f"Membro {i}",
                        role=BodyMember.Role.PRESIDENT if i == 0 else BodyMember.Role.MEMBER,
                        starts_on=dt.date(day.year, 1, 1),
                        ends_on=dt.date(day.year, 12, 31),
                        reason="Nomeação",
                    )
                )
        session = judging.schedule_session(actor=None, body=body, held_on=day, reason="Convocação")
        judging.open_session(actor=None, session=session, present=members[:3], reason="Abertura")
        return session

    def judge(self, filing: Any, day: dt.date, outcome: str, votes: list[str] | None = None) -> Decision:
        filing.refresh_from_db()
        session = self.session(filing.body, day) if filing.body.collegiate else None
        by_vote = None
        if votes is not None and session is not None:
            present = [m for m in session.present.all() if m.role != BodyMember.Role.PRESIDENT]
            by_vote = dict(zip(present, votes, strict=False))
        return decisions.decide(
            actor=None,
            filing=filing,
            session=session,
            outcome=None if by_vote else outcome,
            votes=by_vote,
            reasons="Fundamentação da decisão.",
            decided_on=day,
        )


def _final(notice: InfractionNotice) -> bool:
    notice.refresh_from_db()
    return notice.status == InfractionNotice.Status.DECIDED_FINAL


def _person_holder(j: Any) -> Holder:
    person = registry.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(310_000_000 + next(SEQ)),
        full_name=f"Titular de {j.name}",
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    return Holder.objects.create(jurisdiction=j, person=person)


# -------------------------------------------------------------------------------------- Recife


def test_recife_scenario(world: Any) -> None:
    o = world.objects["recife"]
    w = Walk(world, world.a, o["registry.holder"], "permit_holder", permit=o["permits.permit"])
    # 1. Group 2, no defense: final when the defense deadline passes; the fine falls due then.
    first = w.serve(w.draw("2025-02-03", "G2-a"), dt.date(2025, 2, 5))
    assert first.penalty["penalties"] == [{"type": "fine", "amount": "100.00"}]  # Vm = 2 × R$ 50 (art. 36)
    fine = fines.issue_fine(actor=None, notice=first, reason="Lançamento", today=dt.date(2025, 2, 6))
    # day 1 is the first business day after receipt (06/02), so the 30th day is 07/03: the
    # defense deadline (art. 41 § 1º) and the fine's due date (art. 36 § 2º)
    assert fine is not None and fine.due_on == dt.date(2025, 3, 7)
    settle.settle_due_process(today=dt.date(2025, 3, 8))
    assert _final(first)
    # unpaid and undefended: it blocks the holder's procedures (art. 36 § 3º)
    blocked = clearance(holder=w.holder, on=dt.date(2025, 3, 20), procedure="document")
    assert not blocked.clear and "100,00" in " ".join(blocked.reasons)
    # 2. Same group within 6 months of a final one: recidivism doubles the fine (art. 33).
    second = w.serve(w.draw("2025-04-07", "G2-b"), dt.date(2025, 4, 9))
    assert second.engine_result["repeat"] == 1
    assert second.penalty["penalties"] == [{"type": "fine", "amount": "200.00"}]
    # a defense filed after the deadline is recorded, flagged, and can only be declared late
    late = w.file(second, dt.date(2025, 5, 30))
    assert late.late and late.due_on is not None and "art. 41" in late.due_explanation
    with pytest.raises(ValidationError, match="intempestividade"):
        w.judge(late, dt.date(2025, 6, 5), "annulled")
    not_known = w.judge(late, dt.date(2025, 6, 5), "not_known")
    assert not not_known.final  # the CRA remains (art. 43)
    decisions.record_decision_service(actor=None, decision=not_known, served_on=dt.date(2025, 6, 10))
    settle.settle_due_process(today=dt.date(2025, 6, 26))
    assert _final(second)
    # 3. Defense rejected by the CDTC, appeal to the CRA annuls: the notice never counts.
    third = w.serve(w.draw("2025-07-01", "G2-c"), dt.date(2025, 7, 2))
    defense = w.file(third, dt.date(2025, 7, 10))
    rejected = w.judge(defense, dt.date(2025, 7, 25), "upheld")
    assert rejected.notify_due == dt.date(2025, 8, 11)  # 15 days (art. 42, par. único), 09/08 a Saturday
    decisions.record_decision_service(actor=None, decision=rejected, served_on=dt.date(2025, 7, 30))
    appeal = w.file(third, dt.date(2025, 8, 5))
    assert appeal.instance == "appeal" and appeal.body.key == "cra" and not appeal.late
    annulled = w.judge(appeal, dt.date(2025, 8, 20), "annulled")
    third.refresh_from_db()
    assert annulled.final and third.status == InfractionNotice.Status.ANNULLED
    fourth = w.draw("2025-09-01", "G2-d")
    statuses = {h["code"]: h["status"] for h in penalty.offender_history(fourth)}
    assert statuses == {"G2-a": "final", "G2-b": "final", "G2-c": "annulled"}
    # within the 6 months before 01/09 (art. 33): G2-b counts, G2-c (annulled) does not; G2-a is older
    assert fourth.engine_result["repeat"] == 1


# -------------------------------------------------------------------------------------- Esteio


def test_esteio_scenario(world: Any) -> None:
    o = world.objects["esteio"]
    w = Walk(world, world.b, o["registry.holder"], "permit_holder", permit=o["permits.permit"])
    set_agency_value(
        actor=None,
        jurisdiction=world.b,
        parameter="fiscal_unit.UFRM",
        valid_from=dt.date(2025, 1, 1),
        value="4.2000",
        cite="Decreto municipal (teste)",
        reason="teste",
    )
    # 1. Appeal to the CIP in time, refused by majority: final at once (single instance).
    first = w.serve(w.draw("2025-02-03", "II-06"), dt.date(2025, 2, 5))
    fine = fines.issue_fine(
        actor=None, notice=first, reason="Lançamento", due_on=dt.date(2025, 3, 31), today=dt.date(2025, 2, 6)
    )
    assert fine is not None and fine.unit == "UFRM" and fine.units == Decimal("50")
    appeal = w.file(first, dt.date(2025, 2, 20))
    assert appeal.due_on == dt.date(2025, 2, 26) and not appeal.late  # 15 business days (art. 20)
    decision = w.judge(appeal, dt.date(2025, 3, 10), "", votes=["uphold", "uphold"])
    assert decision.outcome == Decision.Outcome.UPHELD and decision.final and _final(first)
    # 2. Same code within its period: the group rises (Anexo I, art. 4) — fine and suspension.
    second = w.serve(w.draw("2025-04-07", "II-06"), dt.date(2025, 4, 9))
    assert second.engine_result["repeat"] == 1 and second.engine_result["group"] == "III"
    # a late appeal is declared late by the CIP (art. 21)
    late = w.file(second, dt.date(2025, 6, 2))
    assert late.late
    declared = w.judge(late, dt.date(2025, 6, 10), "not_known")
    assert declared.final and _final(second)
    # 3. An appeal the CIP grants annuls the notice: it never counts.
    third = w.serve(w.draw("2025-07-01", "II-07"), dt.date(2025, 7, 2))
    granted = w.judge(
        w.file(third, dt.date(2025, 7, 8)), dt.date(2025, 7, 20), "", votes=["annul", "annul", "uphold"]
    )
    assert granted.outcome == Decision.Outcome.ANNULLED
    later = w.draw("2025-08-01", "II-07")
    assert later.engine_result["repeat"] == 0
    # 4. The refused appeal's fine, unpaid past its due date: the SMOVT may offset it from the
    # next business day (Anexo I, art. 26, I) — pointed out to a manager, never done alone.
    items = [
        i for i in fine_payment.nonpayment_items(dt.date(2025, 4, 15)) if i.kind == fine_payment.OFFSET_KIND
    ]
    assert any(first.number in i.title for i in items)
    # paying converts the UFRM at the value in force on the payment date (art. 19, par. único)
    fine.refresh_from_db()
    if fine.status == Fine.Status.OPEN:
        paid = fine_payment.record_fine_payment(
            actor=None,
            fine=fine,
            paid_on=dt.date(2025, 4, 16),
            payment_reference="DAM-1",
            reason="Pagamento",
            today=TODAY,
        )
        assert paid.paid_amount == Decimal("210.00") and paid.unit_value == Decimal("4.2000")


# -------------------------------------------------------------------------------------- Maricá


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
    # an appeal against a fine only after paying it (art. 70, par. único)
    with pytest.raises(ValidationError, match=r"art\. 70, parágrafo único"):
        w.file(second, dt.date(2025, 4, 11))
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
    appeal = w.file(second, dt.date(2025, 4, 14))
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


# --------------------------------------------------------------------------------- Pernambuco


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


# --------------------------------------------------------------------------------------- Cabo


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
    # 1. No appeal within 10 days of the application: final (section XIV).
    settle.settle_due_process(today=dt.date(2009, 2, 17))
    assert _final(first)
    # 2. An appeal to the Council in time that annuls.
    second = w.serve(w.draw("2009-03-02", "reg-2", "grave"), dt.date(2009, 3, 4))
    appeal = w.file(second, dt.date(2009, 3, 10))
    assert appeal.body.key == "council" and not appeal.late
    assert w.judge(appeal, dt.date(2009, 3, 20), "annulled").final
    # 3. A late appeal is recorded, flagged and declared late.
    third = w.serve(w.draw("2009-04-01", "reg-3", "grave"), dt.date(2009, 4, 2))
    late = w.file(third, dt.date(2009, 4, 20))
    assert late.late
    assert w.judge(late, dt.date(2009, 4, 25), "not_known").final and _final(third)
    fourth = w.draw("2009-05-04", "reg-4", "grave")
    assert {h["status"] for h in penalty.offender_history(fourth)} == {"final", "annulled"}
