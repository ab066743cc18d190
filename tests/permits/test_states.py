"""The permit's state machine, walked pair by pair: every status against every transition.

A pair the table (`lotacao.permits.states`) allows passes the service's state check — the service
either succeeds, landing on the status the table names, or refuses for a legal reason of its own;
a pair the table does not allow is refused with the Portuguese reason naming the status, and
nothing changes. The screen's buttons read the same table.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.accounts.access import Access
from lotacao.core.tenancy import EVERYTHING
from lotacao.permits import actions, services, states
from lotacao.permits.models import Permit
from tests.permits.conftest import DAY, snapshot

S = Permit.Status
LONG_AGO = dt.date(2018, 1, 10)  # a Recife permit granted then (six years) has expired by DAY
# Recife's permit is personal: transfers are walked in Esteio (successors, art. 46, V; 15 years).
PLACE = {"transfer": ("esteio", dt.date(2009, 1, 10))}


def _set(permit: Permit, **fields: Any) -> Permit:
    Permit.unscoped.filter(pk=permit.pk).update(**fields)
    return Permit.unscoped.get(pk=permit.pk)


SETUPS = [
    "application",
    "eligible",
    "ineligible",
    "active",
    "suspended",
    "revoked",
    "transferred",
    "extinct",
    # by the calendar: the record still reads live, the effective status does not
    "expired by the calendar",
    "withdrawn by the calendar",
    # recorded: the nightly job (or the withdrawal's own day) already wrote it
    "expired recorded",
    "withdrawn recorded",
]


def _permit_in(setup: str, make: Any, j: Any, long_ago: dt.date) -> Permit:
    """A permit whose effective status on DAY is the setup's first word."""
    if setup in ("application", "eligible", "ineligible"):
        application = services.apply_for_permit(
            actor=None, holder=make.holder(j), reason="req", applied_on=DAY
        )
        return _set(application, status=setup)
    if setup.startswith("expired"):
        permit = make.permit(j, on=long_ago)
        if setup == "expired recorded":
            return _set(permit, status=S.EXPIRED, ends_on=permit.valid_until)
        return permit
    permit = make.permit(j)
    if setup == "suspended":
        return _set(permit, status=S.SUSPENDED, suspended_until=DAY - dt.timedelta(days=1))
    if setup in ("revoked", "transferred", "extinct"):
        return _set(permit, status=setup, ends_on=DAY)
    if setup == "withdrawn by the calendar":
        return _set(permit, withdrawal_notice_on=DAY - dt.timedelta(days=10), ends_on=DAY)
    if setup == "withdrawn recorded":
        return _set(permit, status=S.WITHDRAWN, withdrawal_notice_on=DAY, ends_on=DAY)
    return permit


def _run(action: str, permit: Permit, make: Any, j: Any) -> Any:
    """Call the service of `action` with data that the law accepts where the state does."""
    common: dict[str, Any] = {"actor": None, "permit": permit, "reason": "teste"}
    if action == "assess":
        return services.assess_application(**common, on=DAY)
    if action == "grant":
        vehicle = make.vehicle(j, permit.holder)
        return services.grant_permit(**common, line=make.line(j), vehicle=vehicle, on=DAY)
    if action == "renew":
        return services.renew_permit(
            **common, requested_on=DAY, on=DAY, approval_reference="Resolução CMTT 1/2025", users_heard=True
        )
    if action == "agent":
        return services.add_agent(**common, person=make.person(j), role="auxiliary_driver", starts_on=DAY)
    if action == "transfer":
        return services.transfer_permit(
            **common,
            to_holder=make.holder(j),
            cause="death",
            consent_reference="Portaria 1",
            on=DAY,
            event_on=DAY,
        )
    if action == "withdraw":
        return services.withdraw_permit(**common, notice_on=DAY, ceases_on=DAY, on=DAY)
    if action == "suspend":
        return services.suspend_permit(**common, until=DAY + dt.timedelta(days=5), on=DAY)
    if action == "reinstate":
        return services.reinstate_permit(**common, on=DAY)
    if action == "revoke":
        return services.revoke_permit(**common, on=DAY)
    if action == "restore":
        return services.restore_permit(**common, on=DAY)
    if action == "extinguish":
        return services.extinguish_permit(**common, cause="Encampação (teste)", on=DAY)
    if action == "end_provisional":
        return services.end_provisional_permit(**common, on=DAY, citation="art. 76, § 1º")
    assert action == "expire"
    return services.expire_permit(actor=None, permit=permit, on=DAY)


PAIRS = [(setup, t.name) for setup in SETUPS for t in states.TRANSITIONS]


def test_the_table_covers_every_status_and_every_service() -> None:
    assert {setup.split()[0] for setup in SETUPS} == set(S.values)
    for transition in states.TRANSITIONS:
        assert set(transition.sources) <= set(S.values) and set(transition.targets) <= set(S.values)
        assert transition.doing and transition.label
    assert [a.name for a in actions.ACTIONS] == [
        "grant",
        "renew",
        "agent",
        "transfer",
        "withdraw",
        "suspend",
        "reinstate",
        "revoke",
    ]


@pytest.mark.parametrize(("setup", "action"), PAIRS, ids=[f"{s}-{a}" for s, a in PAIRS])
def test_every_status_against_every_transition(make: Any, setup: str, action: str) -> None:
    code, long_ago = PLACE.get(action, ("recife", LONG_AGO))
    j = make.jurisdiction(code)
    permit = _permit_in(setup, make, j, long_ago)
    status = permit.effective_status(DAY)
    assert status == setup.split()[0]
    transition = states.BY_NAME[action]
    state_refusal = f"Não é possível {transition.doing}: {states.STATUS_PHRASES[S(status)]}"

    if status not in transition.sources:
        before = snapshot(permit)
        if action == "expire":  # the nightly job: nothing to record is not an error
            assert services.expire_permit(actor=None, permit=permit, on=DAY) is None
        else:
            with pytest.raises(ValidationError) as refused:
                _run(action, permit, make, j)
            assert refused.value.messages[0].startswith(state_refusal)
        assert snapshot(permit) == before
        return

    try:
        result = _run(action, permit, make, j)
    except ValidationError as error:  # a legal refusal of its own, past the state check
        assert not any(m.startswith("Não é possível") for m in error.messages), error.messages
        return
    after = Permit.unscoped.get(pk=permit.pk)
    if action == "expire" and result is None:
        assert after.status == permit.status == status  # already recorded
    elif transition.targets:
        assert after.status in transition.targets
    else:
        assert after.status == permit.status


def test_an_expired_permit_refusal_names_the_end_of_its_term_and_the_article(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j, on=LONG_AGO)
    with pytest.raises(ValidationError) as refused:
        services.suspend_permit(
            actor=None, permit=permit, until=DAY + dt.timedelta(days=5), reason="x", on=DAY
        )
    assert refused.value.messages == [
        "Não é possível suspender: a permissão está vencida (prazo encerrado em 09/01/2024; "
        "Lei Municipal 16.856/2003 (Recife), art. 2º)."
    ]


def test_the_screen_greys_out_what_the_table_refuses(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = _set(make.permit(j), status=S.REVOKED, ends_on=DAY)
    operator = Access(scope=EVERYTHING, operator=True)
    shown = {a["name"]: a for a in actions.available(permit, DAY, operator)}
    assert set(shown) == {a.name for a in actions.ACTIONS}
    for name, action in shown.items():
        assert not action["allowed"]
        assert re.fullmatch(r"Indisponível: a permissão foi cassada\.", action["why"]), name
    active = make.permit(j)
    shown = {a["name"]: a for a in actions.available(active, DAY, operator)}
    assert {n for n, a in shown.items() if a["allowed"]} == {
        "renew",
        "agent",
        "withdraw",
        "suspend",
        "revoke",
    }
