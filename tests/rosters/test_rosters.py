"""Rosters: drawn up for a line, submitted through its representative (Recife art. 6º, § 3º) or
its coordinator or auxiliary (Cabo arts. 19 e 20), approved or refused by the agency; one in
force per line and period. Every refusal changes nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.audit.models import AuditEvent
from lotacao.rosters import selectors, services
from lotacao.rosters.models import Roster

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate


def entry(s: Any, i: int = 0, driver: Any = None, weekdays: str = "12345") -> services.EntryData:
    return services.EntryData(
        vehicle=s.vehicles[i],
        driver=driver or s.holders[i].person,
        weekdays=weekdays,
        starts_at=dt.time(6),
        ends_at=dt.time(12),
        departures="06:00, 07:30, 09:00",
    )


def draft(s: Any, starts: dt.date | None = None, ends: dt.date | None = None) -> Roster:
    return services.create_roster(
        actor=s.atendente,
        line=s.line,
        starts_on=starts or TODAY(),
        ends_on=ends,
        entries=[entry(s, 0), entry(s, 1), entry(s, 0, s.auxiliary, "67")],
    )


def test_recife_scenario_submit_approve_supersede(setup_for: Any) -> None:
    s = setup_for("recife")
    first = draft(s, TODAY() - dt.timedelta(days=10))
    assert first.citation.endswith("art. 6º, § 3º")
    services.submit_roster(
        actor=s.atendente, roster=first, representative=s.representatives["representative"]
    )
    services.decide_roster(actor=s.gestor, roster=first, approve=True, reasons="Atende à OSO da linha")
    first.refresh_from_db()
    assert first.status == Roster.Status.APPROVED
    assert selectors.roster_in_force(s.line, TODAY()) == first

    second = draft(s, TODAY() + dt.timedelta(days=5))
    services.submit_roster(
        actor=s.atendente, roster=second, representative=s.representatives["representative"]
    )
    services.decide_roster(actor=s.gestor, roster=second, approve=True, reasons="Nova OSO")
    first.refresh_from_db()
    assert first.status == Roster.Status.SUPERSEDED
    assert first.ends_on == second.starts_on - dt.timedelta(days=1)
    assert first.superseded_by_id == second.pk
    assert selectors.roster_in_force(s.line, TODAY()) == first
    assert selectors.roster_in_force(s.line, TODAY() + dt.timedelta(days=6)) == second
    actions = set(AuditEvent.objects.filter(jurisdiction_id="recife").values_list("action", flat=True))
    assert {
        "rosters.roster_created",
        "rosters.roster_submitted",
        "rosters.roster_approved",
        "rosters.roster_superseded",
        "rosters.entry_added",
    } <= actions


def test_recife_refuses_a_submitter_who_is_not_the_representative(setup_for: Any) -> None:
    s = setup_for("recife")
    roster = draft(s)
    with pytest.raises(ValidationError, match="representante da linha"):
        services.submit_roster(
            actor=s.atendente, roster=roster, representative=s.representatives["coordinator"]
        )
    other = setup_for("recife")
    with pytest.raises(ValidationError, match="não é representante da linha"):
        services.submit_roster(
            actor=s.atendente, roster=roster, representative=other.representatives["representative"]
        )
    rep = s.representatives["representative"]
    rep.term_end = TODAY() - dt.timedelta(days=1)
    rep.save()
    with pytest.raises(ValidationError, match="mandato"):
        services.submit_roster(actor=s.atendente, roster=roster, representative=rep)
    roster.refresh_from_db()
    assert roster.status == Roster.Status.DRAFT


def test_cabo_scenario_coordinator_submits_agency_refuses(setup_for: Any) -> None:
    s = setup_for("cabo")
    roster = draft(s)
    assert roster.citation.endswith("art. 20")
    with pytest.raises(ValidationError, match="coordenador ou auxiliar"):
        services.submit_roster(
            actor=s.atendente, roster=roster, representative=s.representatives["representative"]
        )
    services.submit_roster(actor=s.atendente, roster=roster, representative=s.representatives["auxiliary"])
    with pytest.raises(ValidationError, match="razões"):
        services.decide_roster(actor=s.gestor, roster=roster, approve=False, reasons=" ")
    services.decide_roster(
        actor=s.gestor, roster=roster, approve=False, reasons="Não cobre o horário de pico"
    )
    roster.refresh_from_db()
    assert roster.status == Roster.Status.REFUSED
    assert roster.decision_reasons == "Não cobre o horário de pico"
    with pytest.raises(ValidationError, match="foi recusada"):
        services.decide_roster(actor=s.gestor, roster=roster, approve=True, reasons="x")
    assert selectors.roster_in_force(s.line, TODAY()) is None


def test_a_driver_not_registered_for_the_permit_is_refused(setup_for: Any) -> None:
    s = setup_for("recife")
    roster = services.create_roster(actor=s.atendente, line=s.line, starts_on=TODAY(), ends_on=None)
    with pytest.raises(ValidationError, match="não é o permissionário nem condutor auxiliar"):
        services.add_entry(actor=s.atendente, roster=roster, data=entry(s, 0, s.outsider))
    # the first permit's auxiliary is not registered for the second permit
    with pytest.raises(ValidationError, match="não é o permissionário nem condutor auxiliar"):
        services.add_entry(actor=s.atendente, roster=roster, data=entry(s, 1, s.auxiliary))
    other = setup_for("recife")
    with pytest.raises(ValidationError, match="não tem permissão em vigor na linha"):
        services.add_entry(actor=s.atendente, roster=roster, data=entry(other, 0))
    assert roster.entries.count() == 0
    with pytest.raises(ValidationError, match="inclua ao menos"):
        services.submit_roster(
            actor=s.atendente, roster=roster, representative=s.representatives["representative"]
        )


def test_overlapping_periods_are_refused(setup_for: Any) -> None:
    s = setup_for("recife")
    rep = s.representatives["representative"]
    first = draft(s, TODAY(), TODAY() + dt.timedelta(days=60))
    services.submit_roster(actor=s.atendente, roster=first, representative=rep)
    pending = draft(s, TODAY() + dt.timedelta(days=30))
    with pytest.raises(ValidationError, match="submetida para o período"):
        services.submit_roster(actor=s.atendente, roster=pending, representative=rep)
    services.decide_roster(actor=s.gestor, roster=first, approve=True, reasons="ok")
    inside = draft(s, TODAY() + dt.timedelta(days=10), TODAY() + dt.timedelta(days=20))
    with pytest.raises(ValidationError, match="se sobrepõe à escala aprovada"):
        services.submit_roster(actor=s.atendente, roster=inside, representative=rep)
    same_start = draft(s, TODAY())
    with pytest.raises(ValidationError, match="se sobrepõe à escala aprovada"):
        services.submit_roster(actor=s.atendente, roster=same_start, representative=rep)
    services.submit_roster(actor=s.atendente, roster=pending, representative=rep)  # follows cleanly
    assert Roster.objects.get(pk=inside.pk).status == Roster.Status.DRAFT


@pytest.mark.parametrize("code", ["esteio", "marica"])
def test_laws_without_the_roster_procedure_refuse_it(setup_for: Any, code: str) -> None:
    s = setup_for(code)
    with pytest.raises(ValidationError, match="não prevê escalas"):
        draft(s)
    assert not Roster.objects.filter(line=s.line).exists()


def test_approval_rechecks_the_drivers(setup_for: Any) -> None:
    s = setup_for("recife")
    roster = draft(s)
    services.submit_roster(
        actor=s.atendente, roster=roster, representative=s.representatives["representative"]
    )
    agent = s.permits[0].agents.get()
    agent.ends_on = TODAY() - dt.timedelta(days=1)
    agent.save()
    with pytest.raises(ValidationError, match="Não é possível aprovar"):
        services.decide_roster(actor=s.gestor, roster=roster, approve=True, reasons="ok")
    assert Roster.objects.get(pk=roster.pk).status == Roster.Status.SUBMITTED
