from __future__ import annotations

import re
from typing import Any

from lotacao.audit.views_base import ScopedDetailView, ScopedListView
from lotacao.core.exports import Column
from lotacao.core.text import fold
from lotacao.registry.models import Holder, Person, Vehicle


class PersonList(ScopedListView):
    model = Person
    title = "Pessoas"
    columns = [("Nome", "full_name"), ("CPF", "cpf_display"), ("Município", "city")]
    search_fields = ["name_search__contains"]  # folded: "jose" finds "José"
    document_search_fields = ["cpf__startswith"]
    search_help = "Nome (com ou sem acento) ou CPF"
    detail_url_name = "people:person"
    create_url_name = "people:person_create"
    create_label = "Cadastrar pessoa"
    export_stem = "pessoas"
    personal_data = True

    def normalize_query(self, query: str) -> list[str]:
        return [fold(query)]


class PersonDetail(ScopedDetailView):
    model = Person
    fields = [
        ("Nome completo", "full_name"),
        ("CPF", "cpf_display"),
        ("Data de nascimento", "birth_date"),
        ("E-mail", "email"),
        ("Telefone", "phone"),
        ("Município", "city"),
        ("CNH", "cnh_number"),
        ("Categoria da CNH", "cnh_category"),
        ("Validade da CNH", "cnh_expiry"),
    ]


class HolderList(ScopedListView):
    model = Holder
    title = "Permissionários"
    columns = [("Permissionário", "__str__"), ("Natureza", "kind_label")]
    search_fields = ["person__name_search__contains", "company__name_search__contains"]
    document_search_fields = ["person__cpf__startswith", "company__cnpj__startswith"]
    search_help = "Nome, razão social, CPF ou CNPJ"
    detail_url_name = "registry:holder"
    export_stem = "permissionarios"
    personal_data = True
    export_columns = [
        Column("Permissionário", "__str__"),
        Column("Natureza", "kind_label"),
        Column("CPF ou CNPJ", "document_display"),
    ]

    def normalize_query(self, query: str) -> list[str]:
        return [fold(query)]

    def get_queryset(self) -> Any:
        return super().get_queryset().select_related("person", "company")


class HolderDetail(ScopedDetailView):
    model = Holder
    fields = [("Permissionário", "__str__"), ("Natureza", "kind_label")]
    template_name = "registry/holder_detail.html"

    def extra_context(self, obj: Any) -> dict[str, Any]:
        return {"vehicles": Vehicle.objects.filter(holder=obj)}


class VehicleList(ScopedListView):
    model = Vehicle
    title = "Veículos"
    columns = [
        ("Placa", "plate_display"),
        ("Categoria", "category"),
        ("Ano de fabricação", "manufacture_year"),
        ("Lugares", "seats"),
        ("Permissionário", "holder"),
    ]
    search_fields = ["plate__startswith"]
    search_help = "Placa"
    detail_url_name = "vehicles:file"
    create_url_name = "vehicles:create"
    create_label = "Cadastrar veículo"
    export_stem = "veiculos"
    personal_data = True

    def get_queryset(self) -> Any:
        return super().get_queryset().select_related("holder__person", "holder__company")

    def normalize_query(self, query: str) -> list[str]:
        return [re.sub(r"[\s\-]", "", query).upper()]


class VehicleDetail(ScopedDetailView):
    model = Vehicle
    fields = [
        ("Placa", "plate_display"),
        ("RENAVAM", "renavam"),
        ("Chassi", "chassis"),
        ("Marca/modelo", "make_model"),
        ("Ano de fabricação", "manufacture_year"),
        ("Categoria", "category"),
        ("Lugares", "seats"),
        ("Portas", "doors"),
        ("Permissionário", "holder"),
    ]
