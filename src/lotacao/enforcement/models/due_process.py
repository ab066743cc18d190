"""The due process on record: judging bodies, their members and sessions, defenses and appeals
(filings) with attachments, agendas, votes and decisions."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from lotacao.core.formats import lower_first
from lotacao.core.law import value
from lotacao.core.tenancy import TenantModel

# ------------------------------------------------------------------------- judging bodies and sessions


class JudgingBody(TenantModel):
    """A body that judges defenses or appeals (Recife CDTC and CRA, Esteio CIP, Maricá's
    authorities, EPTI's president, Cabo's Council), created from the pack's process.bodies."""

    key = models.CharField("identificador", max_length=40)
    name = models.CharField("nome", max_length=200)
    collegiate = models.BooleanField("colegiado", default=True)
    citation = models.CharField("fundamento", max_length=300, blank=True)
    active = models.BooleanField("ativo", default=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "órgão julgador"
        verbose_name_plural = "órgãos julgadores"
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "key"], name="enf_body_key_unique")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:body", kwargs={"pk": self.pk})


class BodyMember(TenantModel):
    class Role(models.TextChoices):
        PRESIDENT = "president", "Presidente"
        MEMBER = "member", "Membro"
        ALTERNATE = "alternate", "Suplente"

    body = models.ForeignKey(JudgingBody, on_delete=models.PROTECT, related_name="members")
    name = models.CharField("nome", max_length=200)
    seat = models.CharField("representação", max_length=200, blank=True)
    role = models.CharField("função", max_length=20, choices=Role.choices, default=Role.MEMBER)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    act = models.CharField("ato de nomeação", max_length=200, blank=True)
    starts_on = models.DateField("início do mandato")
    ends_on = models.DateField("fim do mandato", null=True, blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "membro do órgão julgador"
        verbose_name_plural = "membros do órgão julgador"
        ordering = ["body", "role", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_role_display()})"

    def serves_on(self, day: Any) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)


class Session(TenantModel):
    class Kind(models.TextChoices):
        ORDINARY = "ordinary", "Ordinária"
        EXTRAORDINARY = "extraordinary", "Extraordinária"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Agendada"
        OPEN = "open", "Em andamento"
        CLOSED = "closed", "Encerrada"

    body = models.ForeignKey(JudgingBody, on_delete=models.PROTECT, related_name="sessions")
    number = models.PositiveIntegerField("número")
    kind = models.CharField("tipo", max_length=20, choices=Kind.choices, default=Kind.ORDINARY)
    held_on = models.DateField("data")
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    present = models.ManyToManyField(BodyMember, blank=True, related_name="sessions_present")
    minutes = models.TextField("ata", blank=True)
    # The minutes are generated from the session (minutes.py) with the secretary's notes, and
    # signed off by the president present; a session closes only with its minutes signed.
    minutes_notes = models.TextField("ocorrências registradas na ata", blank=True)
    minutes_generated_at = models.DateTimeField("ata gerada em", null=True, blank=True)
    minutes_signed_at = models.DateTimeField("ata assinada em", null=True, blank=True)
    minutes_signed_by = models.ForeignKey(
        BodyMember,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="ata assinada por",
    )

    holder_path: ClassVar[str | None] = None

    class Meta:
        verbose_name = "sessão de julgamento"
        verbose_name_plural = "sessões de julgamento"
        ordering = ["-held_on", "-number"]
        constraints = [models.UniqueConstraint(fields=["body", "number"], name="enf_session_number_unique")]

    def __str__(self) -> str:
        return f"{self.number}ª sessão {lower_first(self.get_kind_display())} — {self.body}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:session", kwargs={"pk": self.pk})


# ------------------------------------------------------------------------- defenses and appeals


class Filing(TenantModel):
    """A defense or appeal against a notice's penalty, at one instance of the pack's
    process.instances, always with a receipt; late filings are recorded and flagged."""

    class Channel(models.TextChoices):
        COUNTER = "counter", "Protocolo no órgão"
        PORTAL = "portal", "Portal do permissionário"

    class Status(models.TextChoices):
        PENDING = "pending", "Aguardando julgamento"
        DILIGENCE = "diligence", "Em diligência"
        JUDGED = "judged", "Julgado"
        NOT_KNOWN = "not_known", "Não conhecido"

    notice = models.ForeignKey(
        "enforcement.InfractionNotice", on_delete=models.PROTECT, related_name="filings"
    )
    instance = models.CharField("instância", max_length=40)
    instance_name = models.CharField("nome da instância", max_length=200)
    body = models.ForeignKey(
        JudgingBody, on_delete=models.PROTECT, null=True, blank=True, related_name="filings"
    )
    receipt = models.CharField("protocolo", max_length=40)
    filed_at = models.DateTimeField("protocolado em")
    channel = models.CharField("meio", max_length=20, choices=Channel.choices)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    text = models.TextField("razões")
    due_on = models.DateField("prazo", null=True, blank=True)
    due_explanation = models.TextField("explicação do prazo", blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    missing_parameters = models.JSONField("parâmetros indefinidos", default=list, blank=True)
    late = models.BooleanField("fora do prazo", default=False)
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.PENDING)
    diligence = models.TextField("diligência pedida", blank=True)
    diligence_session = models.ForeignKey(
        Session, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "notice__holder_id"

    class Meta:
        verbose_name = "defesa ou recurso"
        verbose_name_plural = "defesas e recursos"
        ordering = ["filed_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "receipt"], name="enf_filing_receipt_unique")
        ]

    def __str__(self) -> str:
        return f"{self.instance_name} — protocolo {self.receipt}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:filing", kwargs={"pk": self.pk})


class FilingAttachment(TenantModel):
    filing = models.ForeignKey(Filing, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField("arquivo", upload_to="filings/%Y/%m/")
    name = models.CharField("nome", max_length=200)
    content_type = models.CharField(max_length=100, blank=True)
    size = models.PositiveIntegerField(default=0)
    sha256 = models.CharField(max_length=64, blank=True)

    holder_path: ClassVar[str | None] = "filing__notice__holder_id"

    class Meta:
        verbose_name = "anexo"
        verbose_name_plural = "anexos"

    def __str__(self) -> str:
        return self.name


class AgendaItem(TenantModel):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="agenda")
    filing = models.ForeignKey(Filing, on_delete=models.PROTECT, related_name="agenda_items")
    position = models.PositiveIntegerField("ordem")
    priority = models.BooleanField("prioridade (diligência)", default=False)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["session", "position"]
        constraints = [models.UniqueConstraint(fields=["session", "filing"], name="enf_agenda_unique")]


class Vote(TenantModel):
    """A member's vote on an agenda item: on the merits (one of the decision's options), or an
    abstention, or a declared impediment or suspicion (with its reason), which takes the member
    out of that item's count and quorum (`due_process/votes.py`)."""

    class Choice(models.TextChoices):
        UPHOLD = "uphold", "Manter a penalidade"
        ANNUL = "annul", "Acolher (anular o auto)"
        CHANGE = "change", "Alterar a penalidade"
        ABSTAIN = "abstain", "Abstenção"
        IMPEDED = "impeded", "Impedimento declarado"
        SUSPECT = "suspect", "Suspeição declarada"

    item = models.ForeignKey(AgendaItem, on_delete=models.CASCADE, related_name="votes")
    member = models.ForeignKey(BodyMember, on_delete=models.PROTECT, related_name="+")
    choice = models.CharField("voto", max_length=20, choices=Choice.choices)
    tie_break = models.BooleanField("voto de desempate", default=False)
    reasons = models.TextField("razões do voto", blank=True)
    # Cast after the law's judging deadline (Recife art. 42), for the review of art. 40, II.
    late = models.BooleanField("votou depois do prazo de julgamento", default=False)
    cast_at = models.DateTimeField("registrado em", null=True, blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        constraints = [models.UniqueConstraint(fields=["item", "member"], name="enf_vote_unique")]


class Decision(TenantModel):
    """A decision on a notice at one instance (or the lapse of the deadline with no filing), with
    its reasons and citations, its notification and whether it is final."""

    class Outcome(models.TextChoices):
        UPHELD = "upheld", "Penalidade mantida"
        ANNULLED = "annulled", "Auto anulado (defesa acolhida)"
        CHANGED = "changed", "Penalidade alterada"
        NOT_KNOWN = "not_known", "Recurso não conhecido (intempestivo ou deserto)"
        LAPSED = "lapsed", "Sem defesa no prazo"

    notice = models.ForeignKey(
        "enforcement.InfractionNotice", on_delete=models.PROTECT, related_name="decisions"
    )
    filing = models.OneToOneField(
        Filing, on_delete=models.PROTECT, null=True, blank=True, related_name="decision"
    )
    instance = models.CharField("instância", max_length=40)
    body = models.ForeignKey(JudgingBody, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    decided_on = models.DateField("decidido em")
    outcome = models.CharField("resultado", max_length=20, choices=Outcome.choices)
    reasons = models.TextField("fundamentação")
    penalty = models.JSONField("penalidade resultante", default=dict, blank=True)
    votes = models.JSONField("votação", default=dict, blank=True)
    citations = models.JSONField("fundamentos", default=list, blank=True)
    notify_due = models.DateField("prazo para comunicar", null=True, blank=True)
    served_on = models.DateField("comunicada em", null=True, blank=True)
    final = models.BooleanField("definitiva", default=False)
    final_on = models.DateField("definitiva em", null=True, blank=True)
    effects = models.JSONField("efeitos aplicados", default=list, blank=True)
    # Effects in force before finality (the appeal did not suspend them) undone or reduced by this
    # decision: its letter must reach the holder (a work item until its service is recorded).
    effects_undone = models.BooleanField("efeitos desfeitos em recurso", default=False)
    # A judgment after the law's judging deadline (Recife art. 42) is reviewed once: the delay
    # justified, or the members who missed it lose their mandate (art. 40, II).
    mandate_reviewed = models.BooleanField("atraso do julgamento verificado", default=False)
    delay_justification = models.TextField("justificativa do atraso", blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "notice__holder_id"

    class Meta:
        verbose_name = "decisão"
        verbose_name_plural = "decisões"
        ordering = ["-decided_on", "-id"]

    def __str__(self) -> str:
        return f"{self.get_outcome_display()} — {self.notice}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("enforcement:decision", kwargs={"pk": self.pk})

    @property
    def outcome_words(self) -> str:
        """The outcome as the decision's own body says it: a body that applies the penalty without
        a filing (Cabo's Council) applies it or not; the others keep, change or annul it."""
        if self.filing_id is None and self.outcome in APPLICATION_WORDS:
            steps = value(self.jurisdiction_id, "process.instances", self.decided_on) or []
            mine = [s for s in steps if isinstance(s, dict) and s.get("id") == self.instance]
            if any(s.get("ex_officio") for s in mine):
                return APPLICATION_WORDS[self.outcome]
        return str(self.get_outcome_display())


# The outcomes of a body's own decision without a filing (the application of the penalty).
APPLICATION_WORDS = {
    "upheld": "Penalidade aplicada como calculada",
    "changed": "Penalidade aplicada com alteração",
    "annulled": "Penalidade não aplicada (auto anulado)",
}
