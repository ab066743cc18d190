"""Duty logs against each law's limits (Recife art. 9º; Esteio Anexo II, II-06 e III-16; Maricá
art. 40, XXXVIII, the agency's value; Cabo: no hours), with the infraction an excess suggests."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.rosters import services
from lotacao.rosters.models import DutyLog

pytestmark = pytest.mark.django_db


def day(n: int = 1) -> dt.date:
    return timezone.localdate() - dt.timedelta(days=n)


def p(*pairs: str) -> list[dict[str, str]]:
    return [{"start": a, "end": b} for a, b in (x.split("-") for x in pairs)]


def log(
    s: Any, driver: Any, periods: list[dict[str, str]], when: dt.date | None = None, i: int = 0
) -> DutyLog:
    return services.record_duty_log(
        actor=s.atendente, vehicle=s.vehicles[i], driver=driver, day=when or day(), periods=periods
    )


def test_recife_holder_limits_and_no_catalogue_infraction(setup_for: Any) -> None:
    s = setup_for("recife")
    holder = s.holders[0].person
    ok = log(s, holder, p("06:00-10:00", "11:00-15:00"), day(1))
    assert ok.within_limits is True and ok.role == "holder"
    over = log(s, holder, p("05:00-10:00", "11:00-15:00"), day(2))
    assert over.within_limits is False
    assert [v["rule"] for v in over.violations] == ["max_daily"]
    assert over.suggested_infractions == []
    assert "não tem conduta própria" in over.explanation
    straight = log(s, holder, p("06:00-13:00"), day(3))
    assert [v["rule"] for v in straight.violations] == ["max_continuous"]
    # the auxiliary's hours are not the law's (art. 9º, § 1º): no excess for 10 hours
    aux = log(s, s.auxiliary, p("12:00-22:00"), day(1))
    assert aux.within_limits is True and aux.role == "auxiliary_driver"


def test_recife_weekly_rest(setup_for: Any) -> None:
    s = setup_for("recife")
    holder = s.holders[0].person
    for n in range(7, 1, -1):
        log(s, holder, p("06:00-12:00"), day(n))
    seventh = log(s, holder, p("06:00-12:00"), day(1))
    assert [v["rule"] for v in seventh.violations] == ["weekly_rest"]


def test_esteio_excess_suggests_III_16_and_absent_holder_II_06(setup_for: Any) -> None:
    s = setup_for("esteio")
    aux = log(s, s.auxiliary, p("05:00-11:00", "12:00-17:00"))
    rules = {v["rule"] for v in aux.violations}
    assert rules == {"max_daily", "holder_absent"}
    assert {i["code"] for i in aux.suggested_infractions} == {"III-16", "II-06"}
    # the holder drives a period that day: the auxiliary's log is checked again
    log(s, s.holders[0].person, p("18:00-20:00"))
    aux.refresh_from_db()
    assert [i["code"] for i in aux.suggested_infractions] == ["III-16"]


def test_marica_limit_is_the_agencys_value(setup_for: Any) -> None:
    from tests.duties.conftest import set_value

    s = setup_for("marica")
    before = log(s, s.holders[0].person, p("06:00-18:00"), day(2))
    assert before.within_limits is None
    assert "legislação pertinente" in before.explanation or "falta valor" in before.explanation
    set_value("marica", "workday.max_daily_minutes", 540)
    after = log(s, s.holders[0].person, p("06:00-18:00"), day(1))
    assert after.within_limits is False
    assert after.suggested_infractions == []


def test_cabo_fixes_no_hours(setup_for: Any) -> None:
    s = setup_for("cabo")
    entry = log(s, s.holders[0].person, p("05:00-20:00"))
    assert entry.within_limits is None
    assert "não fixa limites para a jornada" in entry.explanation


def test_refusals_change_nothing(setup_for: Any) -> None:
    s = setup_for("recife")
    with pytest.raises(ValidationError, match="não é o permissionário nem condutor"):
        log(s, s.outsider, p("06:00-10:00"))
    with pytest.raises(ValidationError, match="sobrepõem"):
        log(s, s.holders[0].person, p("06:00-10:00", "09:00-11:00"))
    with pytest.raises(ValidationError, match="HH:MM"):
        log(s, s.holders[0].person, p("6h-10:00"))
    with pytest.raises(ValidationError, match="futura"):
        log(s, s.holders[0].person, p("06:00-10:00"), timezone.localdate() + dt.timedelta(days=1))
    log(s, s.holders[0].person, p("06:00-10:00"))
    with pytest.raises(ValidationError, match="Já há jornada"):
        log(s, s.holders[0].person, p("11:00-12:00"))
    assert DutyLog.objects.filter(holder=s.holders[0]).count() == 1
