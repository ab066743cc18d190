"""The holder's agents: limits, age, documents, suspension and the ban after revocation."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.permits import services
from lotacao.permits.models import PermitAgent
from tests.permits.conftest import DAY

# ------------------------------------------------------------------ agents


def test_recife_agent_limits_and_age(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    for _ in range(2):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )
    with pytest.raises(ValidationError, match=r"Limite de 2 cobrador\(es\) .*arts\. 9º e 10"):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )
    with pytest.raises(ValidationError, match=r"ao menos 18 anos .*art\. 10"):
        services.add_agent(
            actor=None,
            permit=permit,
            person=make.person(j, birth=dt.date(2009, 1, 1)),
            role="auxiliary_driver",
            reason="r",
            starts_on=DAY,
        )
    services.add_agent(
        actor=None, permit=permit, person=make.person(j), role="relief_driver", reason="r", starts_on=DAY
    )
    assert PermitAgent.objects.filter(permit=permit).count() == 3


def test_marica_allows_one_auxiliary_driver_and_no_collector(make: Any, docs: Any) -> None:
    j = make.jurisdiction("marica")
    permit = make.permit(j, valid_until=dt.date(2030, 1, 1), residence_since=dt.date(2010, 1, 1))
    with pytest.raises(ValidationError, match=r"não prevê cobrador .*art\. 36"):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )
    unregistered = make.person(j)
    docs.incomplete.add(unregistered.pk)
    with pytest.raises(ValidationError, match="Cadastro do condutor auxiliar incompleto"):
        services.add_agent(
            actor=None, permit=permit, person=unregistered, role="auxiliary_driver", reason="r", starts_on=DAY
        )
    services.add_agent(
        actor=None, permit=permit, person=make.person(j), role="auxiliary_driver", reason="r", starts_on=DAY
    )
    with pytest.raises(ValidationError, match="Limite de 1 condutor auxiliar"):
        services.add_agent(
            actor=None,
            permit=permit,
            person=make.person(j),
            role="auxiliary_driver",
            reason="r",
            starts_on=DAY,
        )


def test_esteio_agent_limits_are_undefined(make: Any) -> None:
    j = make.jurisdiction("esteio")
    permit = make.permit(j)
    with pytest.raises(ValidationError, match=r"não definido.*art\. 8º, VII"):
        services.add_agent(
            actor=None, permit=permit, person=make.person(j), role="fare_collector", reason="r", starts_on=DAY
        )


def test_recife_agent_revocation_bans_for_two_years(make: Any) -> None:
    j = make.jurisdiction("recife")
    permit = make.permit(j)
    person = make.person(j)
    agent = services.add_agent(
        actor=None, permit=permit, person=person, role="fare_collector", reason="r", starts_on=DAY
    )
    ban = services.revoke_agent(actor=None, agent=agent, reason="reincidência", on=DAY)
    assert ban is not None and ban.ends_on == dt.date(2027, 6, 16) and ban.citation.endswith("art. 34, § 2º")
    with pytest.raises(ValidationError, match="impedimento até 16/06/2027"):
        services.add_agent(
            actor=None,
            permit=permit,
            person=person,
            role="fare_collector",
            reason="r",
            starts_on=DAY + dt.timedelta(days=1),
        )
