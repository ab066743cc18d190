"""Recife, Lei 16.856/2003, art. 40, I: a CDTC member who misses, without justification, 3
consecutive meetings or 5 alternate ones in a semester loses the mandate; the seat passes to the
alternate or is left vacant."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.councils import services
from lotacao.councils.models import Member, Seat
from lotacao.councils.testing import council_for

pytestmark = pytest.mark.django_db

P, A, J = "presente", "ausente", "justificada"


@pytest.fixture
def cdtc(db):
    from lotacao.core.models import Jurisdiction

    Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    council = council_for("recife", "cdtc")
    seat = services.add_seat(actor=None, council=council, number=1, represents="Operadores", reason="teste")
    titular = services.appoint_member(
        actor=None,
        seat=seat,
        name="Ana Titular",
        role="titular",
        starts_on=dt.date(2026, 1, 1),
        reason="teste",
    )
    alternate = services.appoint_member(
        actor=None,
        seat=seat,
        name="Bruno Suplente",
        role="suplente",
        starts_on=dt.date(2026, 1, 1),
        reason="teste",
    )
    return council, seat, titular, alternate


def _meet(council, day, marks):
    session = services.open_session(
        actor=None,
        council=council,
        held_on=day,
        kind="ordinaria",
        agenda="Julgamento de defesas",
        reason="teste",
    )
    members = services.active_members(council, day)
    entries = {
        m.pk: (marks.get(m.name, P), "atestado médico" if marks.get(m.name) == J else "") for m in members
    }
    return services.record_attendance(actor=None, session=session, entries=entries, reason="teste")


def _days(n, start=dt.date(2026, 1, 10), step=14):
    return [start + dt.timedelta(days=step * i) for i in range(n)]


def test_mandate_of_one_year_by_default(cdtc):
    _, _, titular, _ = cdtc
    assert titular.ends_on == dt.date(2026, 12, 31)


def test_mandate_longer_than_the_law_refused(cdtc):
    _council, seat, _, _ = cdtc
    with pytest.raises(ValidationError, match="12 meses"):
        services.appoint_member(
            actor=None,
            seat=seat,
            name="Outra",
            role="suplente",
            starts_on=dt.date(2026, 1, 1),
            ends_on=dt.date(2027, 6, 1),
            reason="teste",
        )


def test_three_consecutive_absences_pass_the_seat_to_the_alternate(cdtc):
    council, _seat, titular, alternate = cdtc
    days = _days(3)
    assert _meet(council, days[0], {"Ana Titular": A}) == []
    assert _meet(council, days[1], {"Ana Titular": A}) == []
    out = _meet(council, days[2], {"Ana Titular": A})
    assert "perdeu o mandato" in out[0].message and "art. 40, I" in out[0].message
    titular.refresh_from_db()
    alternate.refresh_from_db()
    assert titular.ended_on == days[2] and titular.end_reason == Member.EndReason.ABSENCES
    assert alternate.role == Member.Role.TITULAR
    assert AuditEvent.objects.filter(action="member.mandate_lost").count() == 1
    assert AuditEvent.objects.filter(action="member.promoted").count() == 1


def test_justified_absences_do_not_count(cdtc):
    council, _, titular, _ = cdtc
    for day, mark in zip(_days(5), [A, J, A, J, A], strict=True):
        assert _meet(council, day, {"Ana Titular": mark}) == []
    titular.refresh_from_db()
    assert titular.ended_on is None


def test_five_alternate_absences_in_a_semester(cdtc):
    council, _seat, _titular, _alternate = cdtc
    marks = [A, P, A, P, A, P, A, P]
    for day, mark in zip(_days(8), marks, strict=True):
        assert _meet(council, day, {"Ana Titular": mark}) == []
    out = _meet(council, _days(9)[8], {"Ana Titular": A})
    assert any("5 faltas sem justificativa no semestre" in c.message for c in out)


def test_alternate_absences_of_another_semester_do_not_add_up(cdtc):
    council, _, titular, _ = cdtc
    first = _days(3, start=dt.date(2026, 5, 1))  # May and June: 2 absences
    second = _days(5, start=dt.date(2026, 7, 1))  # July on: 3 absences
    for day, mark in zip(first + second, [A, P, A, A, P, A, P, A], strict=True):
        assert _meet(council, day, {"Ana Titular": mark}) == []
    titular.refresh_from_db()
    assert titular.ended_on is None


def test_without_alternate_the_seat_is_vacant(cdtc):
    council, seat, _, alternate = cdtc
    services.end_mandate(
        actor=None, member=alternate, ended_on=dt.date(2026, 1, 2), end_reason="renuncia", reason="t"
    )
    for day in _days(3):
        out = _meet(council, day, {"Ana Titular": A})
    assert "fica vaga" in out[-1].message
    assert Seat.unscoped.get(pk=seat.pk).vacant_since == _days(3)[2]


def test_cmtt_has_no_loss_by_absences(db):
    from lotacao.core.models import Jurisdiction

    Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    council = council_for("recife", "cmtt")
    seat = services.add_seat(
        actor=None, council=council, number=1, represents="Poder Público", reason="teste"
    )
    member = services.appoint_member(
        actor=None, seat=seat, name="Carla", role="titular", starts_on=dt.date(2026, 1, 1), reason="teste"
    )
    for day in _days(4):
        assert _meet(council, day, {"Carla": A}) == []
    member.refresh_from_db()
    assert member.ended_on is None


def test_attendance_refusals(cdtc):
    council, _, titular, alternate = cdtc
    session = services.open_session(
        actor=None, council=council, held_on=dt.date(2026, 2, 1), kind="ordinaria", agenda="x", reason="t"
    )
    with pytest.raises(ValidationError, match="todos os membros"):
        services.record_attendance(actor=None, session=session, entries={titular.pk: (P, "")}, reason="t")
    with pytest.raises(ValidationError, match="justificativa"):
        services.record_attendance(
            actor=None, session=session, entries={titular.pk: (J, ""), alternate.pk: (P, "")}, reason="t"
        )
    services.record_attendance(
        actor=None, session=session, entries={titular.pk: (P, ""), alternate.pk: (P, "")}, reason="t"
    )
    with pytest.raises(ValidationError, match="já foi registrada"):
        services.record_attendance(
            actor=None, session=session, entries={titular.pk: (P, ""), alternate.pk: (P, "")}, reason="t"
        )


def test_seat_count_of_the_law(cdtc):
    council, _, _, _ = cdtc
    for n in range(2, 6):
        services.add_seat(actor=None, council=council, number=n, represents=f"Membro {n}", reason="t")
    with pytest.raises(ValidationError, match="5 membros"):
        services.add_seat(actor=None, council=council, number=6, represents="Sexto", reason="t")


def test_resolution_number_unique_per_council_and_year(cdtc):
    council, _, _, _ = cdtc
    kwargs = {
        "actor": None,
        "council": council,
        "number": 1,
        "subject": "Defesa",
        "text": "Julga",
        "reason": "t",
    }
    services.register_resolution(dated_on=dt.date(2026, 3, 1), **kwargs)
    with pytest.raises(ValidationError, match="Já existe resolução nº 1/2026 da CDTC"):
        services.register_resolution(dated_on=dt.date(2026, 4, 1), **kwargs)
    services.register_resolution(dated_on=dt.date(2027, 1, 5), **kwargs)
    with pytest.raises(ValidationError, match="não submete"):
        services.register_resolution(
            dated_on=dt.date(2026, 5, 1), gate="line.create", **{**kwargs, "number": 2}
        )
