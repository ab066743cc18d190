"""The holder leaves the permit: transfer where the law allows it, and withdrawal with its notice."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.permits import services
from lotacao.permits.models import Permit
from tests.permits.conftest import DAY, snapshot

# ------------------------------------------------------------------ transfer


def test_no_transfer_where_the_permit_is_personal(make: Any) -> None:
    for code, article in (("recife", r"art\. 2º, § 4º"), ("marica", r"art\. 14")):
        j = make.jurisdiction(code)
        permit = make.permit(j, valid_until=dt.date(2030, 1, 1), residence_since=dt.date(2010, 1, 1))
        with pytest.raises(ValidationError, match=rf"pessoal e intransferível \(.*{article}\)"):
            services.transfer_permit(
                actor=None,
                permit=permit,
                to_holder=make.holder(j),
                cause="death",
                reason="herança",
                consent_reference="Ofício 1",
                on=DAY,
                event_on=DAY,
            )
        assert Permit.unscoped.get(pk=permit.pk).status == "active"


def test_cabo_third_party_transfer_once_for_existing_operators(make: Any) -> None:
    j = make.jurisdiction("cabo", population=300_000)
    newcomer = make.permit(j)
    with pytest.raises(ValidationError, match="alínea a"):
        services.transfer_permit(
            actor=None,
            permit=newcomer,
            to_holder=make.holder(j),
            cause="third_party",
            reason="venda",
            consent_reference="Ofício 1",
            on=DAY,
        )
    operator = make.permit(j, existing_operator=True)
    new = services.transfer_permit(
        actor=None,
        permit=operator,
        to_holder=make.holder(j),
        cause="third_party",
        reason="cessão",
        consent_reference="Ofício 2",
        on=DAY,
    )
    assert new.number == operator.number and new.transfers == 1 and new.vehicle_id == operator.vehicle_id
    assert Permit.unscoped.get(pk=operator.pk).status == "transferred"
    assert new.vehicle.holder_id == new.holder_id
    with pytest.raises(ValidationError, match=r"alínea a|já foi transferida"):
        services.transfer_permit(
            actor=None,
            permit=new,
            to_holder=make.holder(j),
            cause="third_party",
            reason="de novo",
            consent_reference="Ofício 3",
            on=DAY,
        )
    heir = services.transfer_permit(
        actor=None,
        permit=new,
        to_holder=make.holder(j),
        cause="death",
        reason="falecimento",
        consent_reference="Ofício 4",
        on=DAY,
        event_on=DAY,
    )
    assert heir.transfers == 2


def test_esteio_successors_have_six_months(make: Any) -> None:
    j = make.jurisdiction("esteio")
    permit = make.permit(j)
    with pytest.raises(ValidationError, match=r"terminou em 01/06/2025.*|6 meses desde 01/12/2024"):
        services.transfer_permit(
            actor=None,
            permit=permit,
            to_holder=make.holder(j),
            cause="death",
            reason="sucessão",
            consent_reference="Ofício 1",
            on=DAY,
            event_on=dt.date(2024, 12, 1),
        )
    with pytest.raises(ValidationError, match="só por"):
        services.transfer_permit(
            actor=None,
            permit=permit,
            to_holder=make.holder(j),
            cause="third_party",
            reason="venda",
            consent_reference="Ofício 1",
            on=DAY,
        )
    new = services.transfer_permit(
        actor=None,
        permit=permit,
        to_holder=make.holder(j),
        cause="consent",
        reason="venda autorizada",
        consent_reference="Portaria 5",
        on=DAY,
    )
    assert new.status == "active"


# ------------------------------------------------------------------ withdrawal


def test_marica_withdrawal_needs_thirty_days_notice(make: Any) -> None:
    j = make.jurisdiction("marica")
    permit = make.permit(j, valid_until=dt.date(2030, 1, 1), residence_since=dt.date(2010, 1, 1))
    before = snapshot(permit)
    with pytest.raises(ValidationError, match=r"antecedência mínima de 30 dias .*art\. 13, parágrafo único"):
        services.withdraw_permit(
            actor=None,
            permit=permit,
            notice_on=DAY,
            ceases_on=DAY + dt.timedelta(days=29),
            reason="desiste",
            on=DAY,
        )
    assert snapshot(permit) == before
    services.withdraw_permit(
        actor=None,
        permit=permit,
        notice_on=DAY,
        ceases_on=DAY + dt.timedelta(days=30),
        reason="desiste",
        on=DAY,
    )
    permit.refresh_from_db()
    assert permit.status == "active" and permit.effective_status(DAY + dt.timedelta(days=30)) == "withdrawn"
    assert services.expire_due(on=DAY + dt.timedelta(days=31)) == 1
    permit.refresh_from_db()
    assert permit.status == "withdrawn"


def test_withdrawal_needs_no_notice_where_the_law_sets_none(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    services.withdraw_permit(
        actor=None, permit=permit, notice_on=DAY, ceases_on=DAY, reason="desiste", on=DAY
    )
    permit.refresh_from_db()
    assert permit.status == "withdrawn" and permit.ends_on == DAY
