"""What starts and ends with a permit: the holder's billing register (the monthly run bills a
granted permit, not a revoked one the month after) and the permit's place on its line (Maricá's
one line per vehicle, art. 6, § 3º, and one place per permit undo the grant)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.billing.fares.services import set_fare
from lotacao.billing.ledger.models import Account
from lotacao.billing.runs import services as runs
from lotacao.billing.runs.declarations import declare_demand
from lotacao.core import law
from lotacao.lines.models import Place
from lotacao.lines.selectors import open_place
from lotacao.permits import services
from tests.lines.conftest import agency_value, approved_line
from tests.permits.conftest import DAY


@pytest.fixture(autouse=True)
def fresh_law() -> Any:
    law._CACHE.clear()  # agency values layered on the packs change between tests
    yield
    law._CACHE.clear()


def _declare(holder: Any, line: Any, month: dt.date, passengers: int = 1000) -> None:
    declare_demand(
        actor=None,
        holder=holder,
        line=line,
        month=month,
        full_passengers=passengers,
        source="permissionario",
        reason="declaração",
        today=dt.date(2026, 1, 5),
    )


def _fare_council(code: str, on: dt.date) -> int | None:
    from lotacao.councils.testing import resolution_if_gated

    found = resolution_if_gated(code, "fare.change", on)
    return found.pk if found is not None else None


def test_a_granted_permit_is_billed_and_a_revoked_one_not_the_month_after(make: Any) -> None:
    j = make.jurisdiction("recife")
    agency_value("recife", "fee.base.management", {"method": "passengers_x_fare"})
    agency_value("recife", "fee.due_day.management", 15)
    line = make.line(j)
    set_fare(
        actor=None,
        line=line,
        valid_from=dt.date(2025, 1, 1),
        amount="4.00",
        act="Decreto nº 1/2025",
        resolution=_fare_council("recife", dt.date(2025, 1, 1)),
        reason="teste",
    )
    permit = make.permit(j, line=line)
    account = Account.objects.get(holder=permit.holder)
    assert account.opened_on == DAY and account.closed_on is None

    _declare(permit.holder, line, dt.date(2025, 6, 1))
    july = runs.preview("recife", dt.date(2025, 7, 1))
    billed = [(x["holder_id"], x["amount"]) for x in july.lines]
    assert billed == [(permit.holder_id, "160.00")], july.refusals

    services.revoke_permit(actor=None, permit=permit, reason="cassação (teste)", on=dt.date(2025, 7, 20))
    account.refresh_from_db()
    assert account.closed_on == dt.date(2025, 7, 20)
    # July's demand (operated until the 20th) is billed in August; August's, after the revocation, is not.
    _declare(permit.holder, line, dt.date(2025, 7, 1))
    _declare(permit.holder, line, dt.date(2025, 8, 1))
    assert [x["amount"] for x in runs.preview("recife", dt.date(2025, 8, 1)).lines] == ["160.00"]
    september = runs.preview("recife", dt.date(2025, 9, 1))
    assert september.lines == []
    assert any("sem inscrição de cobrança em 08/2025" in note for note in september.notes)


def test_the_account_stays_open_while_the_holder_keeps_another_permit(make: Any) -> None:
    j = make.jurisdiction("esteio")
    holder = make.holder(j)
    first = make.permit(j, holder=holder, valid_until=dt.date(2030, 1, 1))
    make.permit(j, holder=holder, valid_until=dt.date(2030, 1, 1))
    services.revoke_permit(actor=None, permit=first, reason="cassação (teste)", on=dt.date(2025, 7, 1))
    assert Account.objects.get(holder=holder).closed_on is None


def test_expiry_and_withdrawal_close_the_account(make: Any) -> None:
    j = make.jurisdiction("recife")
    short = make.permit(j, valid_until=dt.date(2025, 12, 31))
    assert services.expire_due(on=dt.date(2026, 1, 1)) == 1
    assert Account.objects.get(holder=short.holder).closed_on == dt.date(2025, 12, 31)
    leaving = make.permit(j)
    services.withdraw_permit(
        actor=None,
        permit=leaving,
        notice_on=dt.date(2025, 8, 1),
        ceases_on=dt.date(2025, 8, 1),
        reason="desistência",
        on=dt.date(2025, 8, 1),
    )
    assert Account.objects.get(holder=leaving.holder).closed_on == dt.date(2025, 8, 1)


def test_the_grant_opens_the_place_on_the_line_and_the_end_closes_it(make: Any) -> None:
    j = make.jurisdiction("recife")
    line = approved_line("recife", valid_from=dt.date(2025, 1, 1))
    permit = make.permit(j, line=line)
    place = open_place(permit, DAY)
    assert place is not None and place.line == line and place.vehicle == permit.vehicle
    assert place.starts_on == DAY and place.act == f"Outorga da permissão nº {permit.number} em 16/06/2025"
    services.revoke_permit(actor=None, permit=permit, reason="cassação (teste)", on=dt.date(2025, 9, 1))
    place.refresh_from_db()
    assert place.ends_on == dt.date(2025, 9, 1) and open_place(permit, dt.date(2025, 9, 2)) is None


def test_a_transfer_moves_the_place_to_the_receivers_permit(make: Any) -> None:
    j = make.jurisdiction("esteio")
    # Lei 3.984/2005 admits transfers; the agency records from when (the text has no date).
    agency_value("esteio", "permit.transfer_causes", ["death", "disability"], since=dt.date(2005, 1, 1))
    line = approved_line("esteio", valid_from=dt.date(2025, 1, 1))
    permit = make.permit(j, line=line, valid_until=dt.date(2030, 1, 1))
    receiver = make.holder(j)
    new = services.transfer_permit(
        actor=None,
        permit=permit,
        to_holder=receiver,
        cause="death",
        reason="sucessão",
        consent_reference="Portaria de anuência nº 7/2025",
        on=dt.date(2025, 10, 1),
        event_on=dt.date(2025, 9, 20),
    )
    old_place = Place.objects.get(permit=permit)
    assert old_place.ends_on == dt.date(2025, 10, 1)
    new_place = open_place(new, dt.date(2025, 10, 2))
    assert new_place is not None and new_place.act == "Portaria de anuência nº 7/2025"
    assert Account.objects.get(holder=permit.holder).closed_on == dt.date(2025, 10, 1)
    assert Account.objects.get(holder=receiver).opened_on == dt.date(2025, 10, 1)


def test_a_line_drafted_but_not_approved_refuses_the_grant(make: Any) -> None:
    from lotacao.lines import services as lines_services
    from tests.lines.conftest import new_line, version_kwargs

    j = make.jurisdiction("recife")
    line = new_line("recife")
    lines_services.draft_version(actor=None, line=line, on=DAY, **version_kwargs("recife"))
    holder = make.holder(j)
    application = services.apply_for_permit(actor=None, holder=holder, reason="requerimento", applied_on=DAY)
    with pytest.raises(ValidationError) as refused:
        services.grant_permit(
            actor=None,
            permit=application,
            line=line,
            vehicle=make.vehicle(j, holder),
            reason="outorga",
            on=DAY,
        )
    assert "A outorga não foi feita: A linha" in " ".join(refused.value.messages)
    assert "não tem versão aprovada em vigor em 16/06/2025" in " ".join(refused.value.messages)
    application.refresh_from_db()
    assert application.status == "application" and not application.number
    assert not Account.objects.filter(holder=holder).exists() and not Place.objects.exists()


def test_marica_one_line_per_vehicle_undoes_the_grant(make: Any) -> None:
    from lotacao.lines import places

    j = make.jurisdiction("marica")
    agency_value("marica", "lines.regions", ["Centro"])
    first_line = approved_line("marica", valid_from=dt.date(2025, 1, 1))
    second_line = approved_line("marica", valid_from=dt.date(2025, 1, 1))
    holder = make.holder(j)
    vehicle = make.vehicle(j, holder)
    # Another permit's place on the first line was authorized with this vehicle.
    other = make.permit(
        j, line=first_line, valid_until=dt.date(2026, 6, 1), residence_since=dt.date(2010, 1, 1)
    )
    places.end_place(actor=None, place=open_place(other, DAY), on=DAY, reason="troca de veículo")
    places.assign_place(
        actor=None,
        permit=other,
        line=first_line,
        starts_on=DAY + dt.timedelta(days=1),
        act="Portaria 9",
        vehicle=vehicle,
        reason="troca de veículo",
    )
    application = services.apply_for_permit(
        actor=None, holder=holder, reason="requerimento", applied_on=DAY, residence_since=dt.date(2010, 1, 1)
    )
    with pytest.raises(ValidationError) as refused:
        services.grant_permit(
            actor=None,
            permit=application,
            line=second_line,
            vehicle=vehicle,
            reason="outorga",
            on=DAY + dt.timedelta(days=2),
            valid_until=dt.date(2026, 6, 1),
        )
    message = " ".join(refused.value.messages)
    assert message.startswith("A outorga não foi feita: O veículo")
    assert f"já opera a linha {first_line.code}" in message and "art. 6º, § 3º" in message
    application.refresh_from_db()
    assert application.status == "application" and not Place.objects.filter(permit=application).exists()
    assert not Account.objects.filter(holder=holder).exists()


def test_one_place_per_permit_undoes_the_grant(make: Any) -> None:
    j = make.jurisdiction("recife")
    line = approved_line("recife", valid_from=dt.date(2025, 1, 1))
    holder = make.holder(j)
    application = services.apply_for_permit(actor=None, holder=holder, reason="requerimento", applied_on=DAY)
    Place.objects.create(jurisdiction=j, permit=application, line=line, starts_on=dt.date(2025, 2, 1))
    with pytest.raises(ValidationError, match=r"A outorga não foi feita: .*cada permissão ocupa uma única"):
        services.grant_permit(
            actor=None,
            permit=application,
            line=line,
            vehicle=make.vehicle(j, holder),
            reason="outorga",
            on=DAY,
        )
    application.refresh_from_db()
    assert application.status == "application"
