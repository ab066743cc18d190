"""Models of rosters: each record belongs to one jurisdiction (core.tenancy).

- `Roster`: a line's table of operational rosters for a period (Recife art. 6º, § 3º: drawn up by
  the holders of the line and submitted through its representative; Cabo art. 20: drawn up with
  the coordinator and the auxiliaries of art. 19), approved or refused by the agency with
  reasons. One approved roster per line and period: a new approval supersedes the one it
  overlaps.
- `RosterEntry`: one row of it — which vehicle, which driver, on which days and departures.
- `DutyLog`: one driver's day of driving (start, end and breaks), checked against the law's limits
  by the engine (`kind: workday`) and kept with the verdict and the infractions it suggests.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from lotacao.core.formats import br_date
from lotacao.core.tenancy import TenantModel
from lotacao.registry.models import Holder, Line, LineRepresentative, Person, Vehicle

WEEKDAYS = (
    ("1", "segunda"),
    ("2", "terça"),
    ("3", "quarta"),
    ("4", "quinta"),
    ("5", "sexta"),
    ("6", "sábado"),
    ("7", "domingo"),
)
WEEKDAY_PT = dict(WEEKDAYS)


class Roster(TenantModel):
    class Status(models.TextChoices):
        DRAFT = "draft", "Em elaboração"
        SUBMITTED = "submitted", "Submetida ao órgão"
        APPROVED = "approved", "Aprovada"
        REFUSED = "refused", "Recusada"
        SUPERSEDED = "superseded", "Substituída"

    line = models.ForeignKey(Line, on_delete=models.PROTECT, related_name="rosters", verbose_name="linha")
    starts_on = models.DateField("vigência a partir de")
    ends_on = models.DateField("vigência até", null=True, blank=True)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.DRAFT)
    submitted_by = models.ForeignKey(
        LineRepresentative,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rosters",
        verbose_name="submetida por",
    )
    submitted_at = models.DateTimeField("submetida em", null=True, blank=True)
    citation = models.CharField("fundamento", max_length=300, blank=True)
    notes = models.TextField("observações", blank=True)
    decided_on = models.DateField("decidida em", null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decision_reasons = models.TextField("razões da decisão", blank=True)
    superseded_by = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="substituída por",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None  # a line's roster, not one holder's record

    class Meta:
        ordering = ["line", "-starts_on", "-id"]
        verbose_name = "escala da linha"
        verbose_name_plural = "escalas das linhas"
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="roster_dates_in_order",
            )
        ]
        indexes = [models.Index(fields=["line", "status", "starts_on"], name="roster_in_force")]

    def __str__(self) -> str:
        return f"Escala da linha {self.line.code} a partir de {br_date(self.starts_on)}"

    @property
    def period_display(self) -> str:
        if self.ends_on is None:
            return f"a partir de {br_date(self.starts_on)}, sem data de término"
        return f"de {br_date(self.starts_on)} a {br_date(self.ends_on)}"

    def covers(self, on: dt.date) -> bool:
        return self.starts_on <= on and (self.ends_on is None or on <= self.ends_on)


class RosterEntry(TenantModel):
    roster = models.ForeignKey(
        Roster, on_delete=models.CASCADE, related_name="entries", verbose_name="escala"
    )
    vehicle = models.ForeignKey(
        Vehicle, on_delete=models.PROTECT, related_name="roster_entries", verbose_name="veículo"
    )
    driver = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="roster_entries", verbose_name="condutor"
    )
    weekdays = models.CharField("dias da semana", max_length=7)  # "12345": segunda a sexta
    starts_at = models.TimeField("início")
    ends_at = models.TimeField("fim")
    departures = models.CharField("partidas", max_length=300, blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["roster", "weekdays", "starts_at", "id"]
        verbose_name = "linha da escala"
        verbose_name_plural = "linhas da escala"

    def __str__(self) -> str:
        return f"{self.vehicle} — {self.driver} ({self.weekdays_display})"

    @property
    def weekdays_display(self) -> str:
        names = [WEEKDAY_PT[d] for d in self.weekdays if d in WEEKDAY_PT]
        if self.weekdays == "1234567":
            return "todos os dias"
        if self.weekdays == "12345":
            return "segunda a sexta"
        return ", ".join(names)

    @property
    def hours_display(self) -> str:
        return f"{self.starts_at:%H:%M} às {self.ends_at:%H:%M}"

    def serves(self, on: dt.date) -> bool:
        return str(on.isoweekday()) in self.weekdays


class DutyLog(TenantModel):
    """One driver's day of driving a vehicle: the periods driven (the breaks are the gaps), the
    engine's verdict against the law's limits and the infractions an excess suggests."""

    class Role(models.TextChoices):
        HOLDER = "holder", "Permissionário"
        AUXILIARY_DRIVER = "auxiliary_driver", "Condutor auxiliar"
        RELIEF_DRIVER = "relief_driver", "Condutor eventual"

    holder = models.ForeignKey(
        Holder, on_delete=models.PROTECT, related_name="duty_logs", verbose_name="permissionário"
    )
    vehicle = models.ForeignKey(
        Vehicle, on_delete=models.PROTECT, related_name="duty_logs", verbose_name="veículo"
    )
    driver = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="duty_logs", verbose_name="condutor"
    )
    role = models.CharField("condutor como", max_length=20, choices=Role.choices)
    day = models.DateField("dia")
    periods = models.JSONField("períodos de condução", default=list)  # [{"start": "06:00", "end": "10:00"}]
    driving_minutes = models.PositiveIntegerField("minutos de condução", default=0)
    within_limits = models.BooleanField("dentro dos limites", null=True, blank=True)
    violations = models.JSONField("excessos", default=list, blank=True)
    suggested_infractions = models.JSONField("infrações sugeridas", default=list, blank=True)
    explanation = models.TextField("conferência", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField("registrada em", auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["-day", "driver", "id"]
        verbose_name = "jornada do condutor"
        verbose_name_plural = "jornadas dos condutores"
        constraints = [
            models.UniqueConstraint(
                fields=["driver", "vehicle", "day"], name="one_duty_log_per_driver_vehicle_day"
            )
        ]

    def __str__(self) -> str:
        return f"Jornada de {self.driver} em {br_date(self.day)}"

    @property
    def periods_display(self) -> str:
        return "; ".join(f"{p['start']} às {p['end']}" for p in self.periods)

    def snapshot_periods(self) -> list[dict[str, Any]]:
        return [dict(p) for p in self.periods]
