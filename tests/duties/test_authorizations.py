"""Prior authorizations: only the kinds each law has, decided by staff with reasons and citation,
advertising's monthly fee through billing, a message to the holder, and the register in force."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.duties import selectors, services
from lotacao.duties.models import Authorization
from tests import clock


def _ask(world: Any, code: str, kind: str, **kw: Any) -> Authorization:
    args: dict[str, Any] = {
        "actor": None,
        "holder": world.objects[code]["registry.holder"],
        "vehicle": world.objects[code]["registry.vehicle"],
        "kind": kind,
        "starts_on": clock.today(),
        "ends_on": clock.today() + dt.timedelta(days=59),
        "purpose": "Pedido de teste com os detalhes.",
    }
    args.update(kw)
    return services.request_authorization(**args)


def test_recife_advertising_granted_issues_the_monthly_fee_and_tells_the_holder(world: Any) -> None:
    from lotacao.billing.ledger.models import Charge
    from lotacao.outbox.models import Message

    holder = world.objects["recife"]["registry.holder"]
    holder.account.user.email = "titular@example.org"
    holder.account.user.save()
    row = _ask(world, "recife", "advertising")
    assert row.months == 2 and row.citation.endswith("art. 18; art. 25, § 1º, VIII")
    gestor = world.users["gestor.recife"]
    services.decide_authorization(
        actor=gestor, authorization=row, grant=True, reasons="Espaço conforme o padrão.", citation="art. 18"
    )
    row.refresh_from_db()
    assert row.status == Authorization.Status.GRANTED and row.decided_by == gestor
    charge = Charge.objects.get(pk=row.charge_id)
    assert charge.amount == Decimal("20.00")
    message = Message.objects.get(event="request")
    assert "Autorização concedida" in message.subject and "Espaço conforme o padrão." in message.body
    assert "advertising" not in message.body
    vehicle = world.objects["recife"]["registry.vehicle"]
    assert [a["what"] for a in selectors.authorizations_in_force(vehicle, clock.today())] == [
        "Publicidade no veículo"
    ]
    assert selectors.authorizations_in_force(vehicle, clock.today() + dt.timedelta(days=60)) == []


def test_recife_interruption_is_a_prior_authorization_of_the_law(world: Any) -> None:
    row = _ask(world, "recife", "interruption", vehicle=None)
    assert "art. 13, XXXVII; art. 14, § 2º, II" in row.citation


def test_esteio_sale_of_the_vehicle_denied_with_reasons(world: Any) -> None:
    row = _ask(world, "esteio", "sale")
    assert row.citation.endswith("Anexo II, IV-08")
    services.decide_authorization(
        actor=world.users["gestor.esteio"],
        authorization=row,
        grant=False,
        reasons="Sem substituto.",
        citation="art. 21",
    )
    row.refresh_from_db()
    assert row.status == Authorization.Status.DENIED and row.charge_id is None
    assert selectors.authorizations_in_force(world.objects["esteio"]["registry.vehicle"], clock.today()) == []


def test_marica_leaving_the_municipality(world: Any, marica: dict[str, Any]) -> None:
    row = services.request_authorization(
        actor=None,
        holder=marica["holder"],
        vehicle=marica["vehicle"],
        kind="leave_municipality",
        starts_on=clock.today(),
        ends_on=clock.today(),
        purpose="Excursão a Niterói.",
    )
    assert row.citation.endswith("art. 40, XIV")
    services.decide_authorization(
        actor=marica["gestor"],
        authorization=row,
        grant=True,
        reasons="Viagem única.",
        citation="art. 40, XIV",
    )
    assert (
        selectors.authorizations_in_force(marica["vehicle"], clock.today())[0]["what"]
        == "Saída do veículo do município"
    )


@pytest.mark.parametrize(
    ("code", "kind"),
    [("esteio", "advertising"), ("esteio", "sound_equipment"), ("recife", "sale")],
)
def test_a_kind_the_law_does_not_have_is_refused(world: Any, code: str, kind: str) -> None:
    with pytest.raises(ValidationError, match="não prevê autorização prévia"):
        _ask(world, code, kind)
    assert not Authorization.objects.exists()


def test_marica_has_no_sound_equipment_authorization(world: Any, marica: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="não prevê"):
        services.request_authorization(
            actor=None,
            holder=marica["holder"],
            vehicle=marica["vehicle"],
            kind="sound_equipment",
            starts_on=clock.today(),
            ends_on=clock.today(),
            purpose="Som.",
        )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"starts_on": -1}, "prévia"),
        ({"ends_on": -1}, "anterior ao início"),
        ({"purpose": " "}, "Explique"),
        ({"vehicle": None}, "veículo"),
        ({"kind": "teleport"}, "Escolha"),
    ],
)
def test_request_refusals(world: Any, changes: dict[str, Any], message: str) -> None:
    # Dates are given as days from today, read when the test runs (tests/clock.py).
    dated = ("starts_on", "ends_on")
    changes = {k: clock.days_from_today(v) if k in dated else v for k, v in changes.items()}
    with pytest.raises(ValidationError) as info:
        _ask(world, "recife", changes.pop("kind", "other_use"), **changes)
    assert message in " ".join(info.value.messages)
    assert not Authorization.objects.exists()


def test_decisions_follow_the_state_table(world: Any) -> None:
    gestor = world.users["gestor.recife"]
    row = _ask(world, "recife", "modification")
    with pytest.raises(ValidationError, match="razões"):
        services.decide_authorization(
            actor=gestor, authorization=row, grant=True, reasons="", citation="art. 16"
        )
    with pytest.raises(ValidationError, match="fundamento"):
        services.decide_authorization(actor=gestor, authorization=row, grant=True, reasons="ok", citation=" ")
    services.decide_authorization(
        actor=gestor, authorization=row, grant=True, reasons="ok", citation="art. 16, § 1º"
    )
    with pytest.raises(ValidationError, match="já foi autorizada"):
        services.decide_authorization(actor=gestor, authorization=row, grant=False, reasons="x", citation="y")
    with pytest.raises(ValidationError, match="desistir"):
        services.withdraw_authorization(actor=None, authorization=row)
    services.revoke_authorization(
        actor=gestor, authorization=row, reasons="Alteração irregular.", citation="art. 16"
    )
    row.refresh_from_db()
    assert row.status == Authorization.Status.REVOKED
    assert selectors.authorizations_in_force(world.objects["recife"]["registry.vehicle"], clock.today()) == []


def test_a_pending_request_reaches_the_work_queue(world: Any) -> None:
    row = _ask(world, "recife", "other_use")
    items = [i for i in selectors.work_items(clock.today(), 30) if i.kind == services.AUTHORIZATION_KIND]
    assert [i.key for i in items] == [f"authorization:{row.pk}"]
    assert items[0].jurisdiction_id == "recife"


def test_expiring_authorizations_appear_among_the_holders_deadlines(world: Any) -> None:
    row = _ask(world, "recife", "sound_equipment", ends_on=clock.today() + dt.timedelta(days=10))
    services.decide_authorization(
        actor=world.users["gestor.recife"],
        authorization=row,
        grant=True,
        reasons="ok",
        citation="art. 13, XLII",
    )
    duties = selectors.holder_duties(world.objects["recife"]["registry.holder"], clock.today())
    assert {
        "what": "Autorização termina: equipamento sonoro ou audiovisual do veículo ABA1C23",
        "due": clock.today() + dt.timedelta(days=10),
        "citation": row.citation,
    } in duties


def test_marica_interruptions_are_limited_to_30_days_a_year(world: Any, marica: dict[str, Any]) -> None:
    start = dt.date(clock.today().year + 1, 3, 1)

    def ask(begin: dt.date, days: int) -> Authorization:
        return services.request_authorization(
            actor=None,
            holder=marica["holder"],
            kind="interruption",
            starts_on=begin,
            ends_on=begin + dt.timedelta(days=days - 1),
            purpose="Reforma do veículo.",
        )

    with pytest.raises(ValidationError, match="além do que a lei permite"):
        ask(start, 31)
    first, second = ask(start, 20), ask(start + dt.timedelta(days=40), 15)  # each within the limit
    services.decide_authorization(
        actor=marica["gestor"], authorization=first, grant=True, reasons="ok", citation="art. 38"
    )
    with pytest.raises(ValidationError, match="além do que a lei permite"):
        services.decide_authorization(
            actor=marica["gestor"], authorization=second, grant=True, reasons="ok", citation="art. 38"
        )
    second.refresh_from_db()
    assert second.status == "requested"
