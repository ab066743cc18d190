"""The state of a company's CRC on a date: one reading shared by services, screens, the road check,
the public list and the plate check.

Public status values: `valid`, `suspended`, `cancelled`, `expired` (and `revoked` for a cassação,
shown to the public as `cancelled`: the CRC no longer exists either way); `none` without a CRC.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from lotacao.chartering.models import CharteringCompany, Crc, Sanction
from lotacao.chartering.rules import pt

LABELS = {
    "valid": "válido",
    "suspended": "suspenso",
    "cancelled": "cancelado",
    "revoked": "cassado",
    "expired": "vencido",
    "none": "sem CRC",
}
PUBLIC = {"revoked": "cancelled"}


@dataclass
class CrcState:
    status: str
    crc: Crc | None
    until: dt.date | None = None  # end of validity, or of the sanction's term
    sanction: Sanction | None = None
    reasons: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return LABELS[self.status]

    @property
    def public_status(self) -> str:
        return PUBLIC.get(self.status, self.status)

    @property
    def may_operate(self) -> bool:
        return self.status == "valid"

    @property
    def modalities(self) -> list[str]:
        return list(self.crc.modalities) if self.crc is not None else []


def current_crc(company: Any, on: dt.date) -> Crc | None:
    """The latest CRC issued on or before `on` (renewals supersede the older one)."""
    return Crc.unscoped.filter(company_id=company.pk, issued_on__lte=on).order_by("-issued_on", "-id").first()


def sanction_in_force(crc: Crc, on: dt.date) -> Sanction | None:
    """A suspension or cancellation that started and was not ended (the term served without proof
    of cure keeps it in force: art. 30, § 1º)."""
    return (
        Sanction.unscoped.filter(crc_id=crc.pk, status=Sanction.Status.IN_FORCE, starts_on__lte=on)
        .filter(Q(ended_on__isnull=True) | Q(ended_on__gt=on))
        .order_by("starts_on", "id")
        .first()
    )


_UNREAD: Any = object()


def no_crc() -> CrcState:
    return CrcState("none", None, reasons=["Empresa sem Certificado de Registro Cadastral (CRC)."])


def crc_state(company: Any, on: dt.date, crc: Crc | None = None, sanction: Any = _UNREAD) -> CrcState:
    """`sanction`: the one in force on the CRC, when the caller read it already (None: none)."""
    crc = crc or current_crc(company, on)
    if crc is None:
        return no_crc()
    if crc.revoked_on is not None and crc.revoked_on <= on:
        return CrcState("revoked", crc, reasons=[f"CRC {crc.number} cassado em {pt(crc.revoked_on)}."])
    if sanction is _UNREAD:
        sanction = sanction_in_force(crc, on)
    if crc.cancelled_on is not None and crc.cancelled_on <= on:
        until = sanction.ends_on if sanction is not None else None
        text = f"CRC {crc.number} cancelado em {pt(crc.cancelled_on)}"
        text += f"; prazo da sanção até {pt(until)}" if until else ""
        return CrcState("cancelled", crc, until, sanction, [text + "; é preciso requerer novo CRC."])
    if sanction is not None and sanction.kind == Sanction.Kind.SUSPENSION:
        text = f"CRC {crc.number} suspenso desde {pt(sanction.starts_on)}, prazo até {pt(sanction.ends_on)}"
        if sanction.ends_on is not None and sanction.ends_on < on:
            text += ", aguardando a comprovação de que a irregularidade foi sanada"
        return CrcState("suspended", crc, sanction.ends_on, sanction, [text + "."])
    if crc.valid_until < on:
        return CrcState(
            "expired", crc, crc.valid_until, reasons=[f"CRC {crc.number} vencido em {pt(crc.valid_until)}."]
        )
    return CrcState("valid", crc, crc.valid_until)


def states(companies: list[CharteringCompany], on: dt.date) -> dict[int, CrcState]:
    """The state of many companies with three queries (lists, the public register, the home page)."""
    ids = [c.pk for c in companies]
    latest: dict[int, Crc] = {}
    for crc in Crc.unscoped.filter(company_id__in=ids, issued_on__lte=on).order_by(
        "company_id", "issued_on", "id"
    ):
        latest[crc.company_id] = crc
    sanctions: dict[int, Sanction] = {}
    rows = Sanction.unscoped.filter(
        crc_id__in=[c.pk for c in latest.values()], status=Sanction.Status.IN_FORCE, starts_on__lte=on
    ).filter(Q(ended_on__isnull=True) | Q(ended_on__gt=on))
    for sanction in rows.order_by("-starts_on"):
        sanctions[sanction.crc_id] = sanction
    out: dict[int, CrcState] = {}
    for company in companies:
        found = latest.get(company.pk)
        if found is None:
            out[company.pk] = CrcState("none", None)
            continue
        crc = found
        if crc.revoked_on is not None and crc.revoked_on <= on:
            out[company.pk] = CrcState("revoked", crc)
        elif crc.cancelled_on is not None and crc.cancelled_on <= on:
            out[company.pk] = CrcState("cancelled", crc, sanction=sanctions.get(crc.pk))
        elif crc.pk in sanctions and sanctions[crc.pk].kind == Sanction.Kind.SUSPENSION:
            out[company.pk] = CrcState("suspended", crc, sanctions[crc.pk].ends_on, sanctions[crc.pk])
        elif crc.valid_until < on:
            out[company.pk] = CrcState("expired", crc, crc.valid_until)
        else:
            out[company.pk] = CrcState("valid", crc, crc.valid_until)
    return out
