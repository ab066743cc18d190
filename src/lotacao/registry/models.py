"""Registries: persons, companies, permit holders, vehicles and lines (one jurisdiction each)."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel
from lotacao.core.text import fold
from lotacao.core.validators import format_cnpj, format_cpf


def company_search_key(legal_name: str, trade_name: str) -> str:
    return fold(f"{legal_name} {trade_name}" if trade_name and trade_name != legal_name else legal_name)


def _with_search_field(kwargs: dict[str, Any], *sources: str) -> None:
    """A save limited to some fields (update_audited) keeps the folded name in step."""
    fields = kwargs.get("update_fields")
    if fields is not None and any(f in fields for f in sources):
        kwargs["update_fields"] = [*fields, "name_search"]


class Person(TenantModel):
    cpf = models.CharField("CPF", max_length=11)
    full_name = models.CharField("nome completo", max_length=200)
    # The name folded for search ("jose" finds "José"): kept by save(); trigram-indexed on
    # PostgreSQL (migration 0006).
    name_search = models.CharField("nome para busca", max_length=200, blank=True, editable=False)
    birth_date = models.DateField("data de nascimento", null=True, blank=True)
    email = models.EmailField("e-mail", blank=True)
    phone = models.CharField("telefone", max_length=20, blank=True)
    street = models.CharField("logradouro", max_length=200, blank=True)
    number = models.CharField("número", max_length=20, blank=True)
    complement = models.CharField("complemento", max_length=100, blank=True)
    district = models.CharField("bairro", max_length=100, blank=True)
    city = models.CharField("município", max_length=100, blank=True)
    state = models.CharField("UF", max_length=2, blank=True)
    postal_code = models.CharField("CEP", max_length=8, blank=True)
    cnh_number = models.CharField("CNH", max_length=11, blank=True)
    cnh_category = models.CharField("categoria da CNH", max_length=3, blank=True)
    cnh_expiry = models.DateField("validade da CNH", null=True, blank=True)
    residence_since = models.DateField(
        "reside no município desde",
        null=True,
        blank=True,
        help_text="Data a partir da qual a residência no município está comprovada.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_records__id"

    class Meta:
        ordering = ["full_name"]
        verbose_name = "pessoa"
        verbose_name_plural = "pessoas"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "cpf"], name="unique_person_cpf_per_jurisdiction"
            ),
        ]
        # Staff search documents by prefix (LIKE 'digits%'): a pattern index answers it on PostgreSQL
        # whatever the database collation (other databases ignore the operator class).
        indexes = [
            models.Index(fields=["cpf"], name="person_cpf_prefix", opclasses=["varchar_pattern_ops"]),
        ]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_search = fold(self.full_name)
        _with_search_field(kwargs, "full_name")
        super().save(*args, **kwargs)

    @property
    def cpf_display(self) -> str:
        return format_cpf(self.cpf)

    @property
    def address_display(self) -> str:
        street = ", ".join(p for p in (self.street, self.number, self.complement) if p)
        place = " — ".join(p for p in (self.district, f"{self.city}/{self.state}".strip("/")) if p)
        return " · ".join(p for p in (street, place) if p)


class Company(TenantModel):
    class Kind(models.TextChoices):
        COMPANY = "empresa", "Empresa"
        ASSOCIATION = "associacao", "Associação"
        COOPERATIVE = "cooperativa", "Cooperativa"

    cnpj = models.CharField("CNPJ", max_length=14)
    legal_name = models.CharField("razão social", max_length=200)
    trade_name = models.CharField("nome fantasia", max_length=200, blank=True)
    name_search = models.CharField("nome para busca", max_length=401, blank=True, editable=False)
    kind = models.CharField("natureza", max_length=20, choices=Kind.choices, default=Kind.COMPANY)
    email = models.EmailField("e-mail", blank=True)
    phone = models.CharField("telefone", max_length=20, blank=True)
    city = models.CharField("município", max_length=100, blank=True)
    state = models.CharField("UF", max_length=2, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_records__id"

    class Meta:
        ordering = ["legal_name"]
        verbose_name = "pessoa jurídica"
        verbose_name_plural = "pessoas jurídicas"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "cnpj"], name="unique_company_cnpj_per_jurisdiction"
            ),
        ]
        indexes = [
            models.Index(fields=["cnpj"], name="company_cnpj_prefix", opclasses=["varchar_pattern_ops"]),
        ]

    def __str__(self) -> str:
        return self.trade_name or self.legal_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_search = company_search_key(self.legal_name, self.trade_name)
        _with_search_field(kwargs, "legal_name", "trade_name")
        super().save(*args, **kwargs)

    @property
    def cnpj_display(self) -> str:
        return format_cnpj(self.cnpj)


class Holder(TenantModel):
    """A permit holder (permissionário) or, in chartering, an authorized company (autorizatária)."""

    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, null=True, blank=True, related_name="holder_records"
    )
    company = models.ForeignKey(
        Company, on_delete=models.PROTECT, null=True, blank=True, related_name="holder_records"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "id"

    class Meta:
        ordering = ["id"]
        verbose_name = "permissionário"
        verbose_name_plural = "permissionários"
        constraints = [
            models.CheckConstraint(
                condition=(Q(person__isnull=False) & Q(company__isnull=True))
                | (Q(person__isnull=True) & Q(company__isnull=False)),
                name="holder_is_person_or_company",
            ),
            models.UniqueConstraint(
                fields=["person"], condition=Q(person__isnull=False), name="unique_holder_person"
            ),
            models.UniqueConstraint(
                fields=["company"], condition=Q(company__isnull=False), name="unique_holder_company"
            ),
        ]

    def __str__(self) -> str:
        party = self.person or self.company
        return str(party) if party is not None else f"Permissionário #{self.pk}"

    @property
    def kind(self) -> str:
        return "person" if self.person_id else "company"

    @property
    def document_display(self) -> str:
        """The holder's CPF or CNPJ as people write it."""
        if self.person is not None:
            return self.person.cpf_display
        return self.company.cnpj_display if self.company is not None else ""

    @property
    def kind_label(self) -> str:
        return "Pessoa física" if self.person_id else "Pessoa jurídica"


class Vehicle(TenantModel):
    class Category(models.TextChoices):
        CAR7 = "car7", "Automóvel de 7 lugares"
        VAN = "van", "Van / kombi"
        MICROBUS = "microbus", "Micro-ônibus"
        BUS = "bus", "Ônibus"

    plate = models.CharField("placa", max_length=7)
    renavam = models.CharField("RENAVAM", max_length=11, blank=True)
    chassis = models.CharField("chassi", max_length=17, blank=True)
    make_model = models.CharField("marca/modelo", max_length=100, blank=True)
    manufacture_year = models.PositiveSmallIntegerField("ano de fabricação")
    model_year = models.PositiveSmallIntegerField("ano do modelo", null=True, blank=True)
    category = models.CharField("categoria", max_length=10, choices=Category.choices)
    seats = models.PositiveSmallIntegerField("lugares (com motorista e cobrador)")
    doors = models.PositiveSmallIntegerField("portas")
    holder = models.ForeignKey(
        Holder, on_delete=models.PROTECT, null=True, blank=True, related_name="vehicles"
    )

    class Tenure(models.TextChoices):
        OWNED = "proprio", "Próprio"
        LEASED = "arrendamento", "Arrendamento mercantil"
        LOAN = "comodato", "Comodato ou cessão de direitos"
        FIDUCIARY = "alienacao", "Alienação fiduciária"

    tenure = models.CharField("posse", max_length=20, choices=Tenure.choices, default=Tenure.OWNED)
    owner_name = models.CharField("proprietário no CRLV", max_length=200, blank=True)
    owner_document = models.CharField("CPF/CNPJ do proprietário", max_length=14, blank=True)
    deregistered_on = models.DateField("baixado do serviço em", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = "holder_id"

    class Meta:
        ordering = ["plate"]
        verbose_name = "veículo"
        verbose_name_plural = "veículos"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "plate"], name="unique_vehicle_plate_per_jurisdiction"
            ),
            models.CheckConstraint(condition=Q(seats__gte=1), name="vehicle_has_seats"),
        ]
        indexes = [
            models.Index(fields=["plate"], name="vehicle_plate_prefix", opclasses=["varchar_pattern_ops"]),
        ]

    def __str__(self) -> str:
        return self.plate_display

    @property
    def plate_display(self) -> str:
        p = self.plate
        return f"{p[:3]}-{p[3:]}" if p[4].isdigit() else p


class Line(TenantModel):
    code = models.CharField("código", max_length=20)
    name = models.CharField("denominação", max_length=200)
    origin = models.CharField("origem", max_length=120, blank=True)
    destination = models.CharField("destino", max_length=120, blank=True)
    active = models.BooleanField("ativa", default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None  # holders reach their line through their permit

    class Meta:
        ordering = ["code"]
        verbose_name = "linha"
        verbose_name_plural = "linhas"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "code"], name="unique_line_code_per_jurisdiction"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} — {self.name}"


class LineRepresentative(TenantModel):
    """A representative elected by the permit holders of a line (a coordinator, an auxiliary…).

    Which positions exist and how many per line come from the pack (`people.line_representatives`).
    """

    line = models.ForeignKey(Line, on_delete=models.PROTECT, related_name="representatives")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="line_positions")
    organization = models.ForeignKey(
        Company,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="line_representatives",
        verbose_name="entidade (associação ou cooperativa)",
    )
    position = models.CharField("função", max_length=30)
    term_start = models.DateField("início do mandato")
    term_end = models.DateField("fim do mandato", null=True, blank=True)
    ended_on = models.DateField("encerrado em", null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["line", "position", "term_start"]
        verbose_name = "representante de linha"
        verbose_name_plural = "representantes de linha"

    def __str__(self) -> str:
        return f"{self.person} — {self.position_label} ({self.line.code})"

    @property
    def position_label(self) -> str:
        return POSITION_LABELS.get(self.position, self.position)


POSITION_LABELS = {
    "representative": "Representante da linha",
    "coordinator": "Coordenador",
    "auxiliary": "Auxiliar",
}
