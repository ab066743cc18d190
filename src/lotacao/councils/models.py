"""Models of councils: each record belongs to one jurisdiction (core.tenancy).

A `Council` is a collegiate body a law names (Recife's CMTT and CDTC, Esteio's CMTT, CIP and the
quality commission of art. 23, Cabo's Conselho Municipal do Transporte Complementar). It has
numbered `Seat`s; each seat is held by `Member`s, a titular and alternates, each with a mandate
(start, end, the act that appointed them, when and why it ended). A `Session` has a date, a kind
and an agenda; `Attendance` says, per member, whether they came. A `Resolution` (or opinion) is
numbered per council, kind and year, dated, with subject and text and the session that voted it;
decisions the law makes depend on a council cite one (`councils.gates`).
"""

from __future__ import annotations

import datetime as dt

from django.db import models

from lotacao.core.formats import br_date, lower_first
from lotacao.core.tenancy import TenantModel


class Council(TenantModel):
    class Kind(models.TextChoices):
        COUNCIL = "conselho", "Conselho"
        COMMISSION = "comissao", "Comissão"

    key = models.SlugField("código", max_length=20)
    name = models.CharField("nome", max_length=200)
    acronym = models.CharField("sigla", max_length=40, blank=True)
    kind = models.CharField("tipo", max_length=10, choices=Kind.choices, default=Kind.COUNCIL)
    parent = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="children",
        verbose_name="vinculado a",
    )
    legal_basis = models.CharField("base legal", max_length=300)
    duties = models.TextField("atribuições na lei", blank=True)
    seat_count = models.PositiveSmallIntegerField("número de membros na lei", null=True, blank=True)
    mandate_months = models.PositiveSmallIntegerField("duração do mandato (meses)", null=True, blank=True)
    active = models.BooleanField("ativo", default=True)

    class Meta:
        ordering = ["jurisdiction_id", "name"]
        verbose_name = "conselho"
        verbose_name_plural = "conselhos"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "key"], name="council_key_unique"),
        ]

    def __str__(self) -> str:
        return self.acronym or self.name

    @property
    def short(self) -> str:
        return self.acronym or self.name

    @property
    def of(self) -> str:
        """The body with its contracted article: "do CMTT", "da CDTC"."""
        article = "da" if self.kind == self.Kind.COMMISSION else "do"
        return f"{article} {self.short}"


class Seat(TenantModel):
    council = models.ForeignKey(Council, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField("número da cadeira")
    represents = models.CharField("representação", max_length=300)
    vacant_since = models.DateField("vaga desde", null=True, blank=True)

    class Meta:
        ordering = ["council_id", "number"]
        verbose_name = "cadeira"
        constraints = [
            models.UniqueConstraint(fields=["council", "number"], name="seat_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Cadeira {self.number} ({self.represents})"


class Member(TenantModel):
    """One person's mandate on a seat, as titular or alternate."""

    class Role(models.TextChoices):
        TITULAR = "titular", "Titular"
        ALTERNATE = "suplente", "Suplente"

    class EndReason(models.TextChoices):
        TERM = "termo", "Fim do mandato"
        ABSENCES = "faltas", "Perda do mandato por faltas"
        RESIGNATION = "renuncia", "Renúncia"
        REPLACED = "substituicao", "Substituição pela entidade"

    council = models.ForeignKey(Council, on_delete=models.PROTECT, related_name="members")
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="members")
    name = models.CharField("nome", max_length=200)
    role = models.CharField("função", max_length=10, choices=Role.choices)
    starts_on = models.DateField("início do mandato")
    ends_on = models.DateField("fim do mandato", null=True, blank=True)
    appointed_by = models.CharField("ato de nomeação", max_length=300, blank=True)
    ended_on = models.DateField("mandato encerrado em", null=True, blank=True)
    end_reason = models.CharField(
        "motivo do encerramento", max_length=12, choices=EndReason.choices, blank=True
    )
    end_note = models.TextField("fundamento do encerramento", blank=True)

    class Meta:
        ordering = ["council_id", "seat__number", "role", "starts_on"]
        verbose_name = "membro"

    def __str__(self) -> str:
        return f"{self.name} ({lower_first(self.get_role_display())})"

    def active_on(self, day: dt.date) -> bool:
        if self.starts_on > day:
            return False
        if self.ended_on is not None and self.ended_on <= day:
            return False
        return self.ends_on is None or self.ends_on >= day


class Session(TenantModel):
    class Kind(models.TextChoices):
        ORDINARY = "ordinaria", "Ordinária"
        EXTRAORDINARY = "extraordinaria", "Extraordinária"

    council = models.ForeignKey(Council, on_delete=models.PROTECT, related_name="sessions")
    held_on = models.DateField("data")
    kind = models.CharField("tipo", max_length=14, choices=Kind.choices, default=Kind.ORDINARY)
    agenda = models.TextField("pauta")
    minutes = models.TextField("ata", blank=True)

    class Meta:
        ordering = ["council_id", "-held_on", "-id"]
        verbose_name = "sessão"
        verbose_name_plural = "sessões"

    def __str__(self) -> str:
        return f"Sessão {lower_first(self.get_kind_display())} de {br_date(self.held_on)}"


class Attendance(TenantModel):
    class Status(models.TextChoices):
        PRESENT = "presente", "Presente"
        ABSENT = "ausente", "Falta sem justificativa"
        JUSTIFIED = "justificada", "Falta justificada"

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="attendances")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="attendances")
    status = models.CharField("presença", max_length=12, choices=Status.choices)
    justification = models.TextField("justificativa", blank=True)

    class Meta:
        ordering = ["session_id", "member_id"]
        verbose_name = "presença"
        constraints = [
            models.UniqueConstraint(fields=["session", "member"], name="attendance_unique"),
        ]


class Resolution(TenantModel):
    """A numbered act of a council: a resolution or an opinion (parecer)."""

    class Kind(models.TextChoices):
        RESOLUTION = "resolucao", "Resolução"
        OPINION = "parecer", "Parecer"

    council = models.ForeignKey(Council, on_delete=models.PROTECT, related_name="resolutions")
    kind = models.CharField("tipo", max_length=10, choices=Kind.choices, default=Kind.RESOLUTION)
    number = models.PositiveIntegerField("número")
    year = models.PositiveSmallIntegerField("ano")
    dated_on = models.DateField("data")
    subject = models.CharField("assunto", max_length=300)
    text = models.TextField("texto")
    session = models.ForeignKey(
        Session,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="resolutions",
        verbose_name="sessão que a votou",
    )
    gate = models.CharField("matéria que a lei submete ao conselho", max_length=40, blank=True)
    favorable = models.BooleanField("favorável (aprova o que foi submetido)", default=True)
    revoked_on = models.DateField("revogada em", null=True, blank=True)
    revocation_note = models.TextField("motivo da revogação", blank=True)

    class Meta:
        ordering = ["council_id", "-year", "-number"]
        verbose_name = "resolução"
        verbose_name_plural = "resoluções"
        constraints = [
            models.UniqueConstraint(
                fields=["council", "kind", "year", "number"], name="resolution_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.citation

    @property
    def citation(self) -> str:
        return (
            f"{self.get_kind_display()} nº {self.number}/{self.year} {self.council.of}, "
            f"de {br_date(self.dated_on)}"
        )
