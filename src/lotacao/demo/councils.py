"""Demo councils: in each jurisdiction whose law names them, the councils and commissions of
councils.catalogue, each with two seats (a titular and an alternate on the first, a titular on the
second), one ordinary session with its attendance and one resolution. The lines' demo asks here for
the resolution a gate needs (`resolution`). Idempotent: a council that has seats is left as it is."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.core.formats import lower_first
from lotacao.core.models import Jurisdiction
from lotacao.councils import gates, services
from lotacao.councils.models import Attendance, Council, Resolution, Seat

REASON = "Dados de demonstração"

PEOPLE = ("Maria das Graças Lima", "José Carlos Souza", "Ana Paula Ferreira")


def _council(code: str, key: str) -> Council:
    services.register_from_law(actor=None, jurisdiction_code=code, reason=REASON)
    return Council.unscoped.get(jurisdiction_id=code, key=key)


def resolution(code: str, gate_key: str, on: dt.date, subject: str) -> Resolution | None:
    """A favourable resolution opening `gate_key` on `on`, where the law has the gate."""
    g = gates.gate(code, gate_key)
    if g is None:
        return None
    council = _council(code, g.council)
    return services.register_resolution(
        actor=None,
        council=council,
        number=services.next_number(council, Resolution.Kind.RESOLUTION, on.year),
        dated_on=on,
        subject=subject,
        text=f"O {council.short} aprova: {lower_first(subject)} (demonstração).",
        gate=gate_key,
        reason=REASON,
    )


def load(today: dt.date, summary: Any) -> None:
    for j in Jurisdiction.objects.filter(active=True).order_by("code"):
        services.register_from_law(actor=None, jurisdiction_code=j.code, reason=REASON)
        for council in Council.unscoped.filter(jurisdiction=j).order_by("pk"):
            if Seat.unscoped.filter(council=council).exists():
                summary.existing += 1
                continue
            _members(council, today)
            summary.created += 1


def _members(council: Council, today: dt.date) -> None:
    start = dt.date(today.year, 1, 1)
    first = services.add_seat(
        actor=None, council=council, number=1, represents="Poder Público", reason=REASON
    )
    second = services.add_seat(
        actor=None, council=council, number=2, represents="Representante dos operadores", reason=REASON
    )
    for seat, name, role in (
        (first, PEOPLE[0], "titular"),
        (first, PEOPLE[1], "suplente"),
        (second, PEOPLE[2], "titular"),
    ):
        services.appoint_member(
            actor=None,
            seat=seat,
            name=name,
            role=role,
            starts_on=start,
            appointed_by="Portaria de demonstração",
            reason=REASON,
        )
    held = max(start, today - dt.timedelta(days=7))
    session = services.open_session(
        actor=None,
        council=council,
        held_on=held,
        kind="ordinaria",
        agenda="Informes e deliberações do período.",
        reason=REASON,
    )
    services.record_attendance(
        actor=None,
        session=session,
        entries={m.pk: (Attendance.Status.PRESENT, "") for m in services.active_members(council, held)},
        reason=REASON,
    )
    services.register_resolution(
        actor=None,
        council=council,
        number=services.next_number(council, Resolution.Kind.RESOLUTION, held.year),
        dated_on=held,
        subject="Aprovação da ata e do calendário de reuniões",
        text="Aprova a ata da reunião anterior e o calendário de reuniões ordinárias do semestre.",
        session=session,
        gate="",
        reason=REASON,
    )
