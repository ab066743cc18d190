"""Fares, readjustments and fare studies, from the texts: Recife's readjustment moves the fine base
Vb and the fixed fees from its date (art. 25, § 3º; art. 36, § 1º); Maricá's 2% management cost
(art. 33, III); Esteio's revision only at the operators' request (art. 34, p.ú.)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.billing.fares import services, studies
from lotacao.billing.fares.models import FareAct
from lotacao.billing.ledger.services import issue_fee
from lotacao.core import law
from lotacao.core.models import AgencyValue
from lotacao.councils.testing import resolution_for

DAY = dt.date(2027, 1, 1)


def _vb(on: dt.date) -> str:
    result = law.evaluate_case(
        {
            "jurisdiction": "recife",
            "kind": "penalty",
            "date": on.isoformat(),
            "offender": "permit_holder",
            "infraction": {"code": "G2-a"},
            "history": [],
        }
    )
    return str(result["penalties"][0]["amount"])


def test_recife_readjustment_moves_vb_and_the_reregistration_fee_from_its_date(world: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    row = services.record_readjustment(
        actor=world.users["gestor.recife"],
        jurisdiction=world.a,
        valid_from=DAY,
        percent="8",
        act="Decreto nº 100/2026 (reajuste tarifário)",
        resolution=resolution_for("recife", "fare.change", DAY).pk,
        reason="reajuste",
    )
    # the percentage is the engine's: Vb = R$ 50,00 corrected by every readjustment up to the date
    assert law.value("recife", "penalty.base_fine_readjustment", DAY) == "8"
    # a Group 2 notice: Vm = 2 × Vb (art. 36), with Vb of the notice's date
    assert _vb(DAY) == "108.00" and _vb(DAY - dt.timedelta(days=1)) == "100.00"
    fee = issue_fee(actor=None, holder=holder, fee="reregistration_holder", on=DAY, reason="recadastramento")
    before = issue_fee(
        actor=None,
        holder=holder,
        fee="reregistration_holder",
        on=DAY - dt.timedelta(days=1),
        reason="véspera",
    )
    assert fee.amount == Decimal("54.00") and before.amount == Decimal("50.00")
    assert "Decreto nº 100/2026" in fee.citation
    names = {a["parameter"] for a in row.applied}
    assert {"penalty.base_fine_readjustment", "fee.reregistration_holder", "fee.advertising"} <= names
    assert "fee.management" not in names  # a rate has no nominal value to correct
    assert AgencyValue.objects.filter(jurisdiction=world.a, valid_from=DAY).count() == len(names)


def test_readjustments_compound_and_need_the_cmtt_opinion(world: Any) -> None:
    with pytest.raises(ValidationError, match="depende da aprovação do CMTT/Recife"):
        services.record_readjustment(
            actor=None, jurisdiction=world.a, valid_from=DAY, percent="8", act="Decreto", reason="x"
        )
    assert not AgencyValue.objects.filter(parameter="penalty.base_fine_readjustment").exists()
    for day, pct in ((DAY, "8"), (dt.date(2028, 1, 1), "10")):
        services.record_readjustment(
            actor=None,
            jurisdiction=world.a,
            valid_from=day,
            percent=pct,
            act="Decreto",
            resolution=resolution_for("recife", "fare.change", day).pk,
            reason="x",
        )
    # 50,00 × 1,08 = 54,00; 54,00 × 1,10 = 59,40 — a Group 2 fine is twice that
    assert _vb(dt.date(2028, 1, 1)) == "118.80" and _vb(DAY) == "108.00"


def test_a_law_without_readjusted_values_records_only_the_percentage(world: Any) -> None:
    row = services.record_readjustment(
        actor=None,
        jurisdiction=world.b,
        valid_from=DAY,
        percent="5",
        act="Decreto",
        resolution=resolution_for("esteio", "fare.change", DAY).pk,
        reason="x",
    )
    assert row.applied == [] and not AgencyValue.objects.filter(jurisdiction=world.b, valid_from=DAY).exists()


def test_fare_in_force_on_the_infraction_date_and_refusals(world: Any) -> None:
    line = world.objects["esteio"]["registry.line"]
    opinion = resolution_for("esteio", "fare.change", DAY).pk
    with pytest.raises(ValidationError, match="depende da oitiva do CMTT"):
        services.set_fare(actor=None, line=line, valid_from=DAY, amount="5.00", act="Decreto 1", reason="x")
    with pytest.raises(ValidationError, match="Cite o ato"):
        services.set_fare(
            actor=None, line=line, valid_from=DAY, amount="5.00", act=" ", reason="x", resolution=opinion
        )
    services.set_fare(
        actor=None,
        line=line,
        valid_from=DAY,
        amount="5.00",
        act="Decreto 1",
        reason="x",
        resolution=opinion,
    )
    services.set_fare(
        actor=None,
        line=line,
        valid_from=dt.date(2027, 6, 1),
        amount="5.50",
        act="Decreto 2",
        reason="x",
        resolution=opinion,
    )
    assert services.fare_on(line, dt.date(2027, 5, 31)).amount == Decimal("5.00")  # type: ignore[union-attr]
    assert services.fare_on(line, dt.date(2027, 6, 1)).amount == Decimal("5.50")  # type: ignore[union-attr]
    assert services.fare_on(line, dt.date(2026, 12, 31)) is None
    with pytest.raises(ValidationError, match="já tem tarifa"):
        services.set_fare(
            actor=None, line=line, valid_from=DAY, amount="6", act="D", reason="x", resolution=opinion
        )
    assert FareAct.objects.filter(line=line).count() == 2


def _sheet(**extra: Any) -> dict[str, Any]:
    # 1 vehicle × 10,000 km × R$ 1,00/km of fuel = 10,000 variable; 20,000 administration = fixed
    sheet = {
        "fleet": 1,
        "km_per_vehicle": 10000,
        "equivalent_passengers": 12000,
        "fuel_price": "5.00",
        "fuel_consumption": "0.2",
        "administration": "20000",
    }
    return {**sheet, **extra}


def test_marica_sheet_management_cost_total_and_fare(world: Any, place: Any) -> None:
    marica = place("marica")
    study = studies.create_study(
        actor=None, jurisdiction=marica, title="Planilha 2027", inputs=_sheet(), reason="estudo", on=DAY
    )
    out = study.outputs
    assert (out["variable_month"], out["fixed_month"]) == ("10000.00", "20000.00")
    assert (out["management_month"], out["total_month"], out["fare"]) == ("600.00", "30600.00", "2.55")
    assert any("art. 33, III" in c for c in out["citations"])
    study = studies.freeze_study(actor=None, study=study, reason="concluído")
    with pytest.raises(ValidationError, match="já foi concluído"):
        studies.freeze_study(actor=None, study=study, reason="de novo")
    line = __import__("lotacao.registry.services", fromlist=["x"]).create_line(
        actor=None, jurisdiction=marica, code="M-10", name="Centro", reason="t"
    )
    act = services.set_fare(
        actor=None,
        line=line,
        valid_from=DAY,
        amount=out["fare"],
        act="Decreto nº 5/2027",
        reason="x",
        study=study,
    )
    assert act.study == study


def test_esteio_revision_nobody_asked_for_is_refused(world: Any) -> None:
    with pytest.raises(ValidationError, match="depende de pedido"):
        studies.create_study(
            actor=None,
            jurisdiction=world.b,
            title="Revisão",
            inputs=_sheet(),
            reason="x",
            on=DAY,
            revision=True,
        )
    study = studies.create_study(
        actor=None,
        jurisdiction=world.b,
        title="Revisão",
        inputs=_sheet(tax_iss="5", tax_ir="1"),
        reason="x",
        on=DAY,
        revision=True,
        requested_by="Consórcio",
        request_reference="Protocolo 7/2027",
    )
    # no management cost in Esteio's law; ISS added and income tax deducted (art. 33, § 1º, III)
    assert study.outputs["management_month"] == "0.00" and study.outputs["total_month"] == "31200.00"


def test_taxes_outside_the_laws_sheet_and_bad_input_are_refused(world: Any, place: Any) -> None:
    marica = place("marica")
    with pytest.raises(ValidationError, match="não prevê ISS"):
        studies.create_study(
            actor=None, jurisdiction=marica, title="x", inputs=_sheet(tax_iss="2"), reason="x", on=DAY
        )
    with pytest.raises(ValidationError, match="positivos"):
        studies.create_study(
            actor=None, jurisdiction=marica, title="x", inputs=_sheet(fleet=0), reason="x", on=DAY
        )
    with pytest.raises(ValidationError, match="valor inválido"):
        studies.create_study(
            actor=None, jurisdiction=marica, title="x", inputs=_sheet(fuel_price="abc"), reason="x", on=DAY
        )
