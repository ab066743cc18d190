"""The monthly run, from the laws' texts: Recife's 4% management fee (art. 25, § 1º, I), Cabo's
RST (art. 3º: 4%, later 3%), Pernambuco's FUSP-F (NV × R$ 40,45, due on day 10, social exempt)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from lotacao.accounts.models import StaffMembership, User
from lotacao.audit.models import AuditEvent
from lotacao.billing.fares.services import set_fare
from lotacao.billing.ledger.models import Charge
from lotacao.billing.ledger.services import open_account
from lotacao.billing.runs import services as runs
from lotacao.billing.runs.declarations import declare_demand
from lotacao.billing.runs.models import BillingRun

JAN = dt.date(2027, 1, 1)
FEB = dt.date(2027, 2, 1)


def _fare_council(code: str, on: dt.date) -> int | None:
    from lotacao.councils.testing import resolution_if_gated

    found = resolution_if_gated(code, "fare.change", on)
    return found.pk if found is not None else None


def _recife_january(world: Any, passengers: int = 10_000) -> Any:
    holder = world.objects["recife"]["registry.holder"]
    line = world.objects["recife"]["registry.line"]
    set_fare(
        actor=None,
        line=line,
        valid_from=dt.date(2026, 12, 1),
        amount="4.00",
        act="Decreto nº 1/2026",
        resolution=_fare_council("recife", dt.date(2026, 12, 1)),
        reason="teste",
    )
    open_account(actor=None, holder=holder, on=dt.date(2026, 1, 1), reason="outorga")
    declare_demand(
        actor=None,
        holder=holder,
        line=line,
        month=JAN,
        full_passengers=passengers,
        source="permissionario",
        reason="declaração do mês",
        today=dt.date(2027, 2, 3),
    )
    return holder


def _json(*args: str) -> list[dict[str, Any]]:
    out = StringIO()
    call_command("run_billing", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_recife_without_the_money_base_the_run_refuses_naming_it(world: Any) -> None:
    _recife_january(world)
    plan = runs.preview("recife", FEB)
    assert plan.lines == []
    assert any(
        "Base em dinheiro da taxa de gerenciamento" in r and "art. 25, § 1º, I" in r for r in plan.refusals
    )
    with pytest.raises(CommandError, match="Base em dinheiro da taxa de gerenciamento"):
        _json("--jurisdiction", "recife", "--period", "2027-02")
    assert not Charge.objects.exists()


def test_recife_10000_passengers_at_4_reais_owe_1600(world: Any, agency: Any) -> None:
    holder = _recife_january(world)
    agency("recife", "fee.base.management", dt.date(2026, 1, 1), {"method": "passengers_x_fare"})
    plan = runs.preview("recife", FEB)
    assert any("Dia do mês em que vence a taxa de gerenciamento" in r for r in plan.refusals)
    agency("recife", "fee.due_day.management", dt.date(2026, 1, 1), 15)

    dry = _json("--jurisdiction", "recife", "--period", "2027-02", "--dry-run")
    assert [(c["holder"], c["amount"], c["due_on"]) for c in dry] == [(str(holder), "1600.00", "2027-02-15")]
    assert "art. 25, § 1º, I" in dry[0]["citation"] and dry[0]["kind"] == "management"
    assert not Charge.objects.exists()

    made = _json("--jurisdiction", "recife", "--period", "2027-02")
    assert made == dry
    charge = Charge.objects.get()
    assert charge.amount == Decimal("1600.00") and charge.base == Decimal("40000.00")
    assert charge.rate == Decimal("4") and charge.competence == FEB and charge.fund == "stm"
    assert "10.000 passageiros pagantes × R$\xa04,00" in charge.base_label
    assert AuditEvent.objects.filter(action="charge.issued", object_id=str(charge.pk)).exists()
    # running the month twice creates nothing new
    assert _json("--jurisdiction", "recife", "--period", "2027-02") == []
    assert _json("--jurisdiction", "recife", "--period", "2027-02", "--dry-run") == []
    assert Charge.objects.count() == 1


def test_a_line_without_a_fare_in_force_is_named(world: Any, agency: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    line = world.objects["recife"]["registry.line"]
    open_account(actor=None, holder=holder, on=dt.date(2026, 1, 1), reason="outorga")
    declare_demand(
        actor=None,
        holder=holder,
        line=line,
        month=JAN,
        full_passengers=5,
        source="atendimento",
        reason="balcão",
        today=FEB,
    )
    agency("recife", "fee.base.management", dt.date(2026, 1, 1), {"method": "passengers_x_fare"})
    agency("recife", "fee.due_day.management", dt.date(2026, 1, 1), 15)
    plan = runs.preview("recife", FEB)
    assert plan.lines == [] and any(f"linha {line.code} não tem tarifa" in r for r in plan.refusals)


def test_manager_flow_simulate_approve_execute_and_resume(world: Any, agency: Any) -> None:
    _recife_january(world)
    agency("recife", "fee.base.management", dt.date(2026, 1, 1), {"method": "passengers_x_fare"})
    agency("recife", "fee.due_day.management", dt.date(2026, 1, 1), 15)
    jurisdiction = world.a
    run = runs.simulate(
        actor=world.users["gestor.recife"], jurisdiction=jurisdiction, period=FEB, reason="simulação"
    )
    assert run.status == BillingRun.Status.PLANNED and len(run.plan) == 1
    with pytest.raises(ValidationError, match="aprovado"):
        runs.execute(actor=None, run=run, reason="sem aprovação")
    # another manager approves (who simulated may not: separation of duties, on by default)
    second = User.objects.create_user("gestora2.recife", password="senha-de-teste-123")
    StaffMembership.objects.create(user=second, jurisdiction=jurisdiction, role="gestor")
    run = runs.approve(actor=second, run=run, reason="conferido")
    # a crash after the charges were written but before the run was closed: resuming makes nothing twice
    BillingRun.objects.filter(pk=run.pk).update(status=BillingRun.Status.RUNNING)
    runs._create_batch(None, run, run.plan, "lote anterior à queda")
    run.refresh_from_db()
    made = runs.execute(actor=None, run=run, reason="retomada")
    run.refresh_from_db()
    assert made == [] and run.status == BillingRun.Status.DONE and run.created_count == 1
    assert Charge.objects.count() == 1


def test_a_refused_simulation_cannot_be_approved(world: Any) -> None:
    _recife_january(world)
    run = runs.simulate(actor=None, jurisdiction=world.a, period=FEB, reason="simulação")
    assert run.status == BillingRun.Status.REFUSED and run.refusals
    with pytest.raises(ValidationError, match="valores que faltam"):
        runs.approve(actor=None, run=run, reason="aprovar assim mesmo")


def _cabo(place: Any, new_holder: Any, agency: Any, month: dt.date) -> Any:
    cabo = place("cabo")
    holder = new_holder(cabo)
    from lotacao.registry import services as registry

    line = registry.create_line(actor=None, jurisdiction=cabo, code="C-01", name="Centro", reason="teste")
    open_account(actor=None, holder=holder, on=dt.date(2008, 1, 1), reason="inscrição")
    declare_demand(
        actor=None,
        holder=holder,
        line=line,
        month=month,
        full_passengers=1000,
        revenue="1000.00",
        source="permissionario",
        reason="declaração",
        today=dt.date(2027, 1, 1),
    )
    agency("cabo", "fee.base.rst", dt.date(2002, 7, 23), {"method": "declared_revenue"})
    agency("cabo", "fee.due_day.rst", dt.date(2002, 7, 23), 20)
    return holder


def test_cabo_unknown_change_date_names_the_missing_rate(place: Any, new_holder: Any, agency: Any) -> None:
    _cabo(place, new_holder, agency, dt.date(2010, 4, 1))
    plan = runs.preview("cabo", dt.date(2010, 5, 1))
    assert plan.lines == []
    assert any("Remuneração de Serviços Técnicos" in r and "data da mudança" in r for r in plan.refusals)


@pytest.mark.parametrize(
    ("month", "amount"), [(dt.date(2010, 4, 1), "40.00"), (dt.date(2010, 6, 1), "30.00")]
)
def test_cabo_rst_before_and_after_the_agencys_change_date(
    place: Any, new_holder: Any, agency: Any, month: dt.date, amount: str
) -> None:
    _cabo(place, new_holder, agency, month)
    # the agency states when the later wording (3%) took effect; the original 4% held until then
    agency("cabo", "fee.rst", dt.date(2008, 12, 11), {"rate": "4", "of": "demand_revenue"}, "Lei 2.472/2008")
    agency("cabo", "fee.rst", dt.date(2010, 6, 1), {"rate": "3", "of": "demand_revenue"}, "Lei nº X/2010")
    plan = runs.preview("cabo", month.replace(month=month.month + 1))
    assert [line["amount"] for line in plan.lines] == [amount], plan.refusals
    assert plan.lines[0]["fund"] == "rst"


def test_pernambuco_fusp_f_three_vehicles_due_on_the_10th_social_exempt(place: Any, new_holder: Any) -> None:
    pe = place("pernambuco")
    company = new_holder(pe, company=True, vehicles=3)
    social = new_holder(pe, company=True, vehicles=2)
    open_account(actor=None, holder=company, on=dt.date(2026, 1, 1), reason="CRC", modalities=["tourism"])
    open_account(actor=None, holder=social, on=dt.date(2026, 1, 1), reason="CRC", modalities=["social"])
    made = _json("--jurisdiction", "pernambuco", "--period", "2027-03")
    assert [(c["holder"], c["amount"], c["due_on"]) for c in made] == [(str(company), "121.35", "2027-03-10")]
    assert "Anexo I" in made[0]["citation"]
    assert Charge.objects.get().fund == "fusp"
    assert _json("--jurisdiction", "pernambuco", "--period", "2027-03") == []
    assert Charge.objects.filter(holder=social).count() == 0


def test_a_closed_account_is_not_billed(place: Any, new_holder: Any) -> None:
    from lotacao.billing.ledger.services import close_account

    pe = place("pernambuco")
    company = new_holder(pe, company=True, vehicles=1)
    open_account(actor=None, holder=company, on=dt.date(2026, 1, 1), reason="CRC")
    close_account(actor=None, holder=company, on=dt.date(2027, 2, 10), reason="CRC cancelado")
    assert runs.preview("pernambuco", dt.date(2027, 2, 1)).lines
    assert not runs.preview("pernambuco", dt.date(2027, 3, 1)).lines


def test_command_refuses_bad_input_in_portuguese(world: Any) -> None:
    with pytest.raises(CommandError, match="Competência inválida"):
        _json("--jurisdiction", "recife", "--period", "2027-13")
    with pytest.raises(CommandError, match="Jurisdição desconhecida"):
        _json("--jurisdiction", "atlantida", "--period", "2027-01")


def test_the_nightly_job_resumes_an_interrupted_run(place: Any, new_holder: Any) -> None:
    from django.utils import timezone

    pe = place("pernambuco")
    company = new_holder(pe, company=True, vehicles=1)
    open_account(actor=None, holder=company, on=dt.date(2026, 1, 1), reason="CRC")
    run = runs.simulate(actor=None, jurisdiction=pe, period=FEB, reason="simulação")
    run = runs.approve(actor=None, run=run, reason="ok")
    BillingRun.objects.filter(pk=run.pk).update(
        status=BillingRun.Status.RUNNING, started_at=timezone.now() - dt.timedelta(hours=3)
    )
    assert runs.resume_interrupted(FEB) == {"retomados": 1, "cobrancas": 1}
    assert runs.resume_interrupted(FEB) == {"retomados": 0, "cobrancas": 0}
    assert Charge.objects.get().holder == company


def test_missing_declarations_become_work_items(world: Any) -> None:
    from lotacao.billing import queue

    holder = world.objects["recife"]["registry.holder"]
    open_account(actor=None, holder=holder, on=dt.date(2026, 1, 1), reason="outorga")
    items = list(queue.items(dt.date(2027, 2, 5), 30))
    assert [(i.kind, i.key) for i in items] == [
        ("billing.declaration_missing", f"declaration:{holder.pk}:2027-01")
    ]
    assert str(holder) in items[0].title and "01/2027" in items[0].title


def test_each_charge_of_a_run_is_audited_with_its_own_row(world: Any, agency: Any) -> None:
    """The run writes charges and their audit records in bulk (COPY on PostgreSQL): each record
    names its charge's id and holds the charge as it was written; the simulation's record names the
    plan by its size and digest."""
    _recife_january(world)
    agency("recife", "fee.base.management", dt.date(2026, 1, 1), {"method": "passengers_x_fare"})
    agency("recife", "fee.due_day.management", dt.date(2026, 1, 1), 15)
    run = runs.simulate(actor=None, jurisdiction=world.a, period=FEB, reason="simulação")
    planned = AuditEvent.objects.get(action="billing_run.planned", object_id=str(run.pk))
    assert planned.after["plan"] == {"linhas": 1, "sha256": runs.plan_digest(run.plan)}
    assert planned.after["status"] == BillingRun.Status.PLANNED
    run = runs.approve(actor=None, run=run, reason="conferido")
    made = runs.execute(actor=None, run=run, reason="execução")
    (charge,) = made
    stored = Charge.objects.get()
    assert charge.pk == stored.pk and charge.key == stored.key
    event = AuditEvent.objects.get(action="charge.issued", object_id=str(stored.pk))
    assert event.after["amount"] == "1600.00" and event.after["id"] == stored.pk
    assert event.after["holder_id"] == stored.holder_id and event.object_repr == str(stored)[:200]
    assert event.at is not None and event.reason == "execução"


def test_the_plan_names_holders_as_the_registry_does(place: Any, new_holder: Any) -> None:
    from lotacao.billing.runs.planner import holder_names
    from lotacao.registry.models import Company

    cabo, pe = place("cabo"), place("pernambuco")  # Cabo's holders are people; Pernambuco's, companies
    person, plain, traded = new_holder(cabo), new_holder(pe, company=True), new_holder(pe, company=True)
    Company.unscoped.filter(pk=traded.company_id).update(trade_name="Viação Nome Fantasia")
    traded.refresh_from_db()
    traded.company.refresh_from_db()
    assert holder_names(cabo.code, {person.pk}) == {person.pk: str(person)}
    assert holder_names(pe.code) == {plain.pk: str(plain), traded.pk: str(traded)}
    assert str(traded) == "Viação Nome Fantasia" and str(person).startswith("Permissionário")
