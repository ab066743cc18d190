"""The authorization's state table: every transition from where it may start, refused elsewhere
with the status said in Portuguese."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from lotacao.authorizations.models import Authorization
from lotacao.authorizations.states import TABLE

S = Authorization.Status


def test_it_walks_request_grant_suspend_reinstate_revoke() -> None:
    assert TABLE.require(S.REQUESTED, "grant").target == S.GRANTED
    assert TABLE.require(S.GRANTED, "suspend").target == S.SUSPENDED
    assert TABLE.require(S.SUSPENDED, "reinstate").target == S.GRANTED
    assert TABLE.require(S.SUSPENDED, "revoke").target == S.REVOKED
    assert TABLE.require(S.GRANTED, "withdraw").target == S.WITHDRAWN
    assert TABLE.require(S.GRANTED, "expire").target == S.EXPIRED
    assert TABLE.require(S.REQUESTED, "refuse").target == S.REFUSED


@pytest.mark.parametrize(
    ("status", "action", "phrase"),
    [
        (S.GRANTED, "grant", "a autorização está em vigor"),
        (S.REVOKED, "suspend", "a autorização foi cassada"),
        (S.REQUESTED, "revoke", "o pedido ainda não foi decidido"),
        (S.EXPIRED, "reinstate", "a autorização venceu"),
        (S.REFUSED, "withdraw", "o pedido foi indeferido"),
    ],
)
def test_it_refuses_from_the_wrong_status(status: str, action: str, phrase: str) -> None:
    with pytest.raises(ValidationError) as error:
        TABLE.require(status, action)
    assert error.value.messages[0].startswith("Não é possível") and phrase in error.value.messages[0]


def test_every_status_has_a_phrase_and_the_date_driven_ones_no_button() -> None:
    assert set(TABLE.phrases) == set(S.values)
    assert {t.name for t in TABLE.actions(S.GRANTED, {"gestor"})} == {"suspend", "revoke", "withdraw"}
    assert {t.name for t in TABLE.actions(S.GRANTED, {"atendente"})} == {"withdraw"}
    assert TABLE.actions(S.GRANTED, {"fiscal"}) == []
