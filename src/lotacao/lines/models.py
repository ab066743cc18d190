"""Models of the lines app: dated line versions with their stops, service orders (OSO) with their
periods, permit places on lines, and the conventional bus network imported from a GTFS feed.

Nothing here is edited once in force: a new line version or a new service order supersedes the old
one from its date, so the data in force on any past day can be read back (a notice is judged
against the OSO of its own date). Times of day are minutes from the service day's midnight and may
pass 24:00 (Recife's night service runs 22:00–28:00, as GTFS writes it).
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from lotacao.core.formats import lower_first
from lotacao.core.tenancy import TenantModel
from lotacao.documents.models import private_storage

DAY_TYPES = {
    "weekday": "Dias úteis",
    "saturday": "Sábados",
    "sunday": "Domingos",
    "holiday": "Feriados",
}
GROUND_LABELS = {
    "geographic": "Fator geográfico",
    "temporal": "Fator temporal",
    "economic": "Fator econômico",
    "segment": "Segmento diferenciado",
}


class LineVersion(TenantModel):
    """What a line is from a date: its type, grounds, region, itinerary and stops, and the act."""

    class Shape(models.TextChoices):
        LOCAL = "local", "Local (de bairro)"
        FEEDER = "feeder", "Alimentadora"
        RADIAL = "radial", "Radial"
        PERIMETRAL = "perimetral", "Perimetral"
        DIAMETRAL = "diametral", "Diametral"
        INTERDISTRICT = "interdistrict", "Interbairros"

    class Status(models.TextChoices):
        DRAFT = "draft", "Rascunho (aguarda aprovação)"
        APPROVED = "approved", "Aprovada"

    line = models.ForeignKey("registry.Line", on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField("versão")
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.DRAFT)
    shape = models.CharField("tipo de linha", max_length=15, choices=Shape.choices)
    grounds = models.JSONField("fundamentos", default=list, blank=True)
    region = models.CharField("região", max_length=120, blank=True)
    origin = models.CharField("origem", max_length=120)
    destination = models.CharField("destino", max_length=120)
    itinerary = models.JSONField("itinerário (lon, lat)", default=list)
    description = models.TextField("descrição do itinerário", blank=True)
    study = models.CharField("estudo de viabilidade ou projeto técnico", max_length=300, blank=True)
    valid_from = models.DateField("em vigor desde", null=True, blank=True)
    approval_body = models.CharField("órgão que aprovou", max_length=200, blank=True)
    approval_act = models.CharField("ato de aprovação", max_length=300, blank=True)
    approved_on = models.DateField("aprovada em", null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    checks = models.JSONField("verificações da lei", default=list, blank=True)
    change_request = models.ForeignKey(
        "ChangeRequest",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="versions",
        verbose_name="pedido de alteração que a originou",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["line", "-number"]
        verbose_name = "versão de linha"
        verbose_name_plural = "versões de linha"
        constraints = [
            models.UniqueConstraint(fields=["line", "number"], name="unique_line_version_number"),
            models.CheckConstraint(
                condition=Q(status="draft") | (Q(valid_from__isnull=False) & ~Q(approval_act="")),
                name="approved_line_version_has_act",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.line.code} — versão {self.number}"


class Stop(TenantModel):
    class Kind(models.TextChoices):
        STOP = "stop", "Ponto de parada"
        TERMINAL = "terminal", "Terminal"

    version = models.ForeignKey(LineVersion, on_delete=models.PROTECT, related_name="stops")
    sequence = models.PositiveIntegerField("ordem")
    name = models.CharField("nome", max_length=120)

    class Wheelchair(models.TextChoices):
        UNKNOWN = "", "Não informado"
        YES = "yes", "Acessível a cadeira de rodas"
        NO = "no", "Não acessível a cadeira de rodas"

    kind = models.CharField("tipo", max_length=10, choices=Kind.choices, default=Kind.STOP)
    wheelchair = models.CharField(
        "acessibilidade", max_length=3, choices=Wheelchair.choices, blank=True, default=""
    )
    lat = models.FloatField("latitude")
    lon = models.FloatField("longitude")

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["version", "sequence"]
        verbose_name = "ponto de parada"
        verbose_name_plural = "pontos de parada"
        constraints = [
            models.UniqueConstraint(fields=["version", "sequence"], name="unique_stop_sequence"),
            models.CheckConstraint(
                condition=Q(lat__gte=-90, lat__lte=90, lon__gte=-180, lon__lte=180),
                name="stop_coordinates_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ServiceOrder(TenantModel):
    """An OSO: the line's trips, headways, fleet and vehicles from a date; never rewritten."""

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular"
        TEMPORARY = "temporary", "Temporária"

    class Cause(models.TextChoices):
        NONE = "", "—"
        EVENT = "event", "Evento"
        WORKS = "works", "Obras"
        BUS_STOPPAGE = "bus_stoppage", "Paralisação do transporte por ônibus"
        OTHER = "other", "Outro motivo"

    class Status(models.TextChoices):
        DRAFT = "draft", "Rascunho"
        ISSUED = "issued", "Emitida"

    line = models.ForeignKey("registry.Line", on_delete=models.PROTECT, related_name="service_orders")
    version = models.ForeignKey(LineVersion, on_delete=models.PROTECT, related_name="service_orders")
    number = models.PositiveIntegerField("número")
    kind = models.CharField("espécie", max_length=10, choices=Kind.choices, default=Kind.REGULAR)
    cause = models.CharField("motivo", max_length=15, choices=Cause.choices, blank=True, default="")
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.DRAFT)
    valid_from = models.DateField("em vigor desde")
    valid_until = models.DateField("em vigor até", null=True, blank=True)
    act = models.CharField("ato que a emitiu", max_length=300, blank=True)
    issued_on = models.DateField("emitida em", null=True, blank=True)
    fleet = models.PositiveSmallIntegerField("frota operante")
    vehicle_category = models.CharField("tipo de veículo", max_length=10, blank=True)
    vehicles = models.ManyToManyField(
        "registry.Vehicle", blank=True, related_name="+", verbose_name="veículos"
    )
    terminal_capacity = models.PositiveSmallIntegerField("vagas no terminal", null=True, blank=True)
    trip_minutes = models.PositiveSmallIntegerField("tempo de viagem (minutos)")
    both_directions = models.BooleanField(
        "viagens nos dois sentidos",
        default=False,
        help_text="Cada partida do quadro sai também do terminal de destino, de volta à origem.",
    )
    notes = models.TextField("observações", blank=True)
    checks = models.JSONField("verificações da lei", default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["line", "-number"]
        verbose_name = "ordem de serviço"
        verbose_name_plural = "ordens de serviço"
        constraints = [
            models.UniqueConstraint(fields=["line", "number"], name="unique_service_order_number"),
            models.CheckConstraint(
                condition=Q(valid_until__isnull=True) | Q(valid_until__gte=models.F("valid_from")),
                name="service_order_dates_ordered",
            ),
            models.CheckConstraint(
                condition=Q(kind="regular") | Q(valid_until__isnull=False), name="temporary_order_has_end"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.line.code} — ordem de serviço nº {self.number}"


class ServicePeriod(TenantModel):
    """A period of a day type: departures every `headway` minutes from `first` to `last`, or the
    fixed `departures` listed (minutes from the service day's midnight)."""

    order = models.ForeignKey(ServiceOrder, on_delete=models.CASCADE, related_name="periods")
    day_type = models.CharField("dias", max_length=10, choices=list(DAY_TYPES.items()))
    first = models.PositiveIntegerField("primeira viagem (minutos)")
    last = models.PositiveIntegerField("última viagem (minutos)")
    headway = models.PositiveSmallIntegerField("intervalo (minutos)", null=True, blank=True)
    departures = models.JSONField("partidas fixas (minutos)", default=list, blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["order", "day_type", "first"]
        verbose_name = "período de operação"
        verbose_name_plural = "períodos de operação"
        constraints = [
            models.CheckConstraint(condition=Q(last__gte=models.F("first")), name="period_ordered"),
            models.CheckConstraint(condition=Q(last__lt=48 * 60), name="period_within_two_days"),
        ]

    def __str__(self) -> str:
        return f"{DAY_TYPES.get(self.day_type, self.day_type)} {hhmm(self.first)}–{hhmm(self.last)}"

    def times(self) -> list[int]:
        if self.headway:  # the period's end is exclusive, as GTFS frequencies' end_time
            return list(range(self.first, self.last, self.headway)) or [self.first]
        return sorted(int(t) for t in self.departures)


class Place(TenantModel):
    """A permit's place on a line (one live place per permit), with its history and acts."""

    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="line_places")
    line = models.ForeignKey("registry.Line", on_delete=models.PROTECT, related_name="places")
    vehicle = models.ForeignKey(
        "registry.Vehicle", on_delete=models.PROTECT, null=True, blank=True, related_name="line_places"
    )
    starts_on = models.DateField("desde (autorização)")
    ends_on = models.DateField("até", null=True, blank=True)
    act = models.CharField("ato que autorizou", max_length=300, blank=True)
    first_trip_on = models.DateField("início das viagens", null=True, blank=True)
    last_trip_on = models.DateField("última operação registrada", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "permit__holder_id"

    class Meta:
        ordering = ["line", "starts_on", "id"]
        verbose_name = "vaga em linha"
        verbose_name_plural = "vagas em linha"
        constraints = [
            models.UniqueConstraint(
                fields=["permit"], condition=Q(ends_on__isnull=True), name="one_open_place_per_permit"
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="place_dates_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"Vaga na linha {self.line.code}"


class BusNetwork(TenantModel):
    """One import of the conventional bus network's GTFS, with the report of what it read."""

    source_name = models.CharField("arquivo", max_length=200)
    feed_version = models.CharField("versão do feed", max_length=100, blank=True)
    imported_on = models.DateField("importado em")
    current = models.BooleanField("em uso", default=True)
    report = models.JSONField("relatório", default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "rede de ônibus importada"
        verbose_name_plural = "redes de ônibus importadas"

    def __str__(self) -> str:
        return f"Rede de ônibus ({self.source_name}, {self.imported_on:%d/%m/%Y})"


class BusRoute(TenantModel):
    network = models.ForeignKey(BusNetwork, on_delete=models.CASCADE, related_name="routes")
    route_id = models.CharField("identificador", max_length=100)
    short_name = models.CharField("número", max_length=60, blank=True)
    long_name = models.CharField("nome", max_length=200, blank=True)
    shapes = models.JSONField("traçados (lon, lat)", default=list)
    departures = models.JSONField("partidas por tipo de dia (minutos)", default=dict)
    # Stop patterns with each trip's minutes at each stop, per day type (busnet._patterns).
    patterns = models.JSONField("horários nas paradas, por padrão de viagem", default=list)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["network", "short_name", "route_id"]
        verbose_name = "linha de ônibus"
        verbose_name_plural = "linhas de ônibus"

    def __str__(self) -> str:
        names = [self.short_name, self.long_name] if self.long_name != self.short_name else [self.short_name]
        return " — ".join(p for p in names if p) or self.route_id


class BusStop(TenantModel):
    network = models.ForeignKey(BusNetwork, on_delete=models.CASCADE, related_name="stops")
    stop_id = models.CharField("identificador", max_length=100)
    name = models.CharField("nome", max_length=200, blank=True)
    lat = models.FloatField("latitude")
    lon = models.FloatField("longitude")
    route_ids = models.JSONField("linhas que param", default=list)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["network", "stop_id"]
        verbose_name = "parada de ônibus"
        verbose_name_plural = "paradas de ônibus"

    def __str__(self) -> str:
        return self.name or self.stop_id


def hhmm(minutes: int) -> str:
    """Minutes from the service day's midnight as HH:MM (past 24:00 as GTFS writes it)."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def clock(minutes: int) -> str:
    """As a person reads it: 28:00 is "04:00 (dia seguinte)"."""
    if minutes >= 24 * 60:
        return f"{hhmm(minutes - 24 * 60)} (dia seguinte)"
    return hhmm(minutes)


# --- the life of a line: change requests, the operators' hearing, temporary changes, ending ---------


def study_upload_name(instance: ChangeRequest, filename: str) -> str:
    import uuid

    extension = {"application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg"}.get(
        instance.study_content_type, "bin"
    )
    return f"line_studies/{instance.jurisdiction_id}/{uuid.uuid4().hex}.{extension}"


class ChangeRequest(TenantModel):
    """A request to change, create or end a line, by a user, a holder or the agency itself; its
    states are in lotacao.lines.change_states."""

    class Kind(models.TextChoices):
        ITINERARY = "itinerary", "Alteração de itinerário"
        STOPS = "stops", "Alteração de pontos de parada"
        TIMETABLE = "timetable", "Alteração de horários"
        FLEET = "fleet", "Alteração da frota"
        CREATE = "create", "Criação de linha"
        END = "end", "Extinção de linha"

    class Origin(models.TextChoices):
        PUBLIC = "public", "Usuário do serviço"
        HOLDER = "holder", "Permissionário"
        AGENCY = "agency", "Órgão gestor"

    class Status(models.TextChoices):
        FILED = "filed", "Protocolado"
        HEARING = "hearing", "Em oitiva dos operadores"
        STUDY = "study", "Em estudo"
        APPROVED = "approved", "Aprovado"
        REFUSED = "refused", "Indeferido"

    number = models.PositiveIntegerField("número")
    line = models.ForeignKey(
        "registry.Line", on_delete=models.PROTECT, null=True, blank=True, related_name="change_requests"
    )
    kind = models.CharField("pedido", max_length=10, choices=Kind.choices)
    origin = models.CharField("quem pede", max_length=10, choices=Origin.choices)
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.FILED)
    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, null=True, blank=True, related_name="line_requests"
    )
    requester_name = models.CharField("nome de quem pede", max_length=200, blank=True)
    requester_contact = models.CharField("contato (e-mail ou telefone)", max_length=200, blank=True)
    proposal = models.TextField("o que se pede")
    reasons = models.TextField("motivos")
    study = models.TextField("estudo de viabilidade", blank=True)
    study_file = models.FileField(
        "arquivo do estudo", storage=private_storage, upload_to=study_upload_name, max_length=200, blank=True
    )
    study_content_type = models.CharField(max_length=40, blank=True)
    filed_on = models.DateField("protocolado em")
    hearing_opened_on = models.DateField("oitiva aberta em", null=True, blank=True)
    hearing_until = models.DateField("prazo da oitiva", null=True, blank=True)
    decided_on = models.DateField("decidido em", null=True, blank=True)
    decision_reasons = models.TextField("fundamentos da decisão", blank=True)
    act = models.CharField("ato da decisão", max_length=300, blank=True)
    act_date = models.DateField("data do ato", null=True, blank=True)
    effective_on = models.DateField("em vigor a partir de", null=True, blank=True)
    resolution = models.ForeignKey(
        "councils.Resolution",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="resolução do conselho",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["-filed_on", "-number"]
        verbose_name = "pedido de alteração de linha"
        verbose_name_plural = "pedidos de alteração de linha"
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="unique_line_request_number"),
            models.CheckConstraint(
                condition=~Q(status__in=["approved", "refused"]) | Q(decided_on__isnull=False),
                name="decided_line_request_has_date",
            ),
        ]

    def __str__(self) -> str:
        return f"Pedido nº {self.number} — {lower_first(self.get_kind_display())}"


class HearingAnswer(TenantModel):
    """What an operator (a holder of the line, or the holders' entity) said in the hearing."""

    request = models.ForeignKey(ChangeRequest, on_delete=models.PROTECT, related_name="answers")
    holder = models.ForeignKey(
        "registry.Holder", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    entity = models.ForeignKey(
        "registry.Company", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    party = models.CharField("quem se manifestou", max_length=200)
    agrees = models.BooleanField("concorda")
    text = models.TextField("manifestação")
    answered_on = models.DateField("manifestação em")
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["request", "answered_on", "id"]
        verbose_name = "manifestação na oitiva"
        verbose_name_plural = "manifestações na oitiva"

    def __str__(self) -> str:
        return f"Manifestação de {self.party}"


class LineEnd(TenantModel):
    """The end of a line from a date: its places released, its permits moved or ended."""

    class Fate(models.TextChoices):
        MOVE = "move", "Passar as permissões para outra linha"
        END = "end", "Encerrar as vagas das permissões"

    line = models.OneToOneField("registry.Line", on_delete=models.PROTECT, related_name="ending")
    request = models.ForeignKey(
        ChangeRequest, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    effective_on = models.DateField("extinta a partir de")
    fate = models.CharField("permissões da linha", max_length=5, choices=Fate.choices)
    fate_reading = models.TextField("leitura da lei sobre as permissões", blank=True)
    target = models.ForeignKey(
        "registry.Line",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="linha que recebe as permissões",
    )
    act = models.CharField("ato de extinção", max_length=300)
    act_date = models.DateField("data do ato")
    resolution = models.ForeignKey(
        "councils.Resolution",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="resolução do conselho",
    )
    reasons = models.TextField("motivos")
    done_on = models.DateField("aplicada em", null=True, blank=True)
    report = models.JSONField("o que foi feito", default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["effective_on", "id"]
        verbose_name = "extinção de linha"
        verbose_name_plural = "extinções de linha"
        constraints = [
            models.CheckConstraint(
                condition=Q(fate="end") | Q(target__isnull=False), name="line_end_move_has_target"
            ),
        ]

    def __str__(self) -> str:
        return f"Extinção da linha {self.line.code}"


class TemporaryChange(TenantModel):
    """Works or an event: from `starts_on` to `ends_on` the line runs an altered itinerary and
    stops, or is suspended; published on the line's page and in the GTFS feed."""

    class Cause(models.TextChoices):
        WORKS = "works", "Obras"
        EVENT = "event", "Evento"
        OTHER = "other", "Outro motivo"

    line = models.ForeignKey("registry.Line", on_delete=models.PROTECT, related_name="temporary_changes")
    cause = models.CharField("motivo", max_length=10, choices=Cause.choices)
    description = models.CharField("descrição", max_length=300)
    starts_on = models.DateField("de")
    ends_on = models.DateField("até")
    suspended = models.BooleanField("linha suspensa no período", default=False)
    itinerary = models.JSONField("itinerário alterado (lon, lat)", default=list, blank=True)
    stops = models.JSONField("pontos de parada no período", default=list, blank=True)
    act = models.CharField("ato", max_length=300)
    cancelled = models.BooleanField("cancelada", default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["line", "starts_on", "id"]
        verbose_name = "alteração temporária de linha"
        verbose_name_plural = "alterações temporárias de linha"
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="temporary_change_dates_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_cause_display()} na linha {self.line.code}"
