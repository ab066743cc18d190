"""Forms of the chartering screens (Portuguese labels; the services validate the law)."""

from __future__ import annotations

import csv
import io
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from lotacao.chartering.models import FleetVehicle
from lotacao.core.dateinputs import DateTimeField
from lotacao.registry.forms import date_field
from lotacao.registry.models import Vehicle

MAX_SHEET_BYTES = 2 * 1024 * 1024
MAX_SHEET_ROWS = 100_000  # a bus's passengers are tens; this only stops a sheet of empty rows


def _moment(label: str, required: bool = True) -> DateTimeField:
    return DateTimeField(label=label, required=required)


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Motivo (fica no histórico)", max_length=500)


class ApplicationForm(forms.Form):
    modalities = forms.MultipleChoiceField(label="Modalidades", widget=forms.CheckboxSelectMultiple)
    reason = forms.CharField(
        label="Observação (fica no histórico)", max_length=300, initial="Requerimento de CRC"
    )

    def __init__(self, *args: Any, modalities: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["modalities"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = list(modalities.items())


class VehicleForm(forms.Form):
    plate = forms.CharField(label="Placa", max_length=8)
    renavam = forms.CharField(label="RENAVAM", max_length=11, required=False)
    category = forms.ChoiceField(label="Categoria", choices=Vehicle.Category.choices)
    manufacture_year = forms.IntegerField(label="Ano de fabricação")
    seats = forms.IntegerField(label="Lugares (com o condutor)", min_value=1)
    doors = forms.IntegerField(label="Portas", min_value=1)
    make_model = forms.CharField(label="Marca/modelo", max_length=100, required=False)
    tenure = forms.ChoiceField(label="Posse", choices=FleetVehicle.Tenure.choices)
    lessor_name = forms.CharField(label="Arrendador, comodante ou locador", max_length=200, required=False)
    lessor_cnpj = forms.CharField(label="CNPJ do arrendador", max_length=18, required=False)
    lessor_same_group = forms.BooleanField(label="O arrendador é do mesmo grupo econômico", required=False)
    group_proof = forms.CharField(
        label="Contrato social que comprova o sócio em comum", max_length=300, required=False
    )
    rental_category = forms.BooleanField(
        label="Registrado no CRLV na categoria aluguel", required=False, initial=True
    )
    from_regular = forms.BooleanField(label="Vem da frota do transporte regular", required=False)
    reason = forms.CharField(
        label="Motivo (fica no histórico)", max_length=300, initial="Cadastro de veículo na frota"
    )


class InsuranceForm(forms.Form):
    insurer = forms.CharField(label="Seguradora", max_length=120)
    number = forms.CharField(label="Número da apólice", max_length=60)
    valid_from = date_field("Início da vigência", required=True)
    valid_until = date_field("Fim da vigência", required=True)
    civil_liability = forms.DecimalField(label="Responsabilidade civil (R$)", max_digits=14, decimal_places=2)
    death_per_passenger = forms.DecimalField(
        label="Morte por passageiro (R$)", max_digits=14, decimal_places=2
    )
    disability_per_passenger = forms.DecimalField(
        label="Invalidez por passageiro (R$)", max_digits=14, decimal_places=2
    )
    third_party = forms.DecimalField(label="Danos a terceiros (R$)", max_digits=14, decimal_places=2)
    reason = forms.CharField(label="Motivo (fica no histórico)", max_length=300, initial="Apólice de seguro")


class InspectionForm(forms.Form):
    scheduled_for = date_field("Data da vistoria", required=True)
    place = forms.CharField(label="Local", max_length=200, required=False)
    reason = forms.CharField(label="Motivo (fica no histórico)", max_length=300, initial="Vistoria anual")


class TripForm(forms.Form):
    modality = forms.ChoiceField(label="Modalidade")
    vehicle = forms.ChoiceField(label="Veículo")
    contractor_name = forms.CharField(label="Contratante", max_length=200)
    contractor_document = forms.CharField(label="CPF ou CNPJ do contratante", max_length=18, required=False)
    contractor_public = forms.BooleanField(
        label="Contratante é pessoa jurídica de direito público", required=False
    )
    declaration = forms.CharField(
        label="Declaração do contratante ou da entidade (número, data)", max_length=300, required=False
    )
    subcontractor_cnpj = forms.CharField(
        label="CNPJ da empresa subcontratada (se houver)", max_length=18, required=False
    )
    origin = forms.CharField(label="Origem", max_length=120)
    destination = forms.CharField(label="Destino", max_length=120)
    itinerary = forms.CharField(label="Itinerário", widget=forms.Textarea(attrs={"rows": 2}), required=False)
    departs_at = _moment("Partida (dia e hora)")
    returns_at = _moment("Retorno (dia e hora)", required=False)
    driver_name = forms.CharField(label="Condutor", max_length=200)
    driver_document = forms.CharField(label="CNH do condutor", max_length=20)
    passengers_file = forms.FileField(
        label="Lista de passageiros (planilha .xlsx ou .csv: nome e documento)", required=False
    )
    passengers_text = forms.CharField(
        label="Ou digite um passageiro por linha: nome; documento",
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
    )
    reason = forms.CharField(
        label="Observação (fica no histórico)", max_length=300, initial="Declaração de viagem"
    )

    def __init__(
        self, *args: Any, modalities: dict[str, str], vehicles: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for name, choices in (("modality", list(modalities.items())), ("vehicle", vehicles)):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        rows: list[tuple[str, str]] = []
        upload = data.get("passengers_file")
        if upload is not None:
            rows += read_passengers(upload)
        text = data.get("passengers_text") or ""
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            name, sep, document = line.rpartition(";") if ";" in line else line.rpartition(",")
            if not sep:
                raise ValidationError(f"Linha {number}: separe o nome e o documento com ponto e vírgula.")
            rows.append((name.strip(), document.strip()))
        data["passengers"] = rows
        return data


def _header(row: list[str]) -> bool:
    first = " ".join(str(c or "").strip().lower() for c in row)
    return "nome" in first or "name" in first


def read_passengers(upload: Any) -> list[tuple[str, str]]:
    """Rows (name, document) of an .xlsx (openpyxl) or .csv (UTF-8 or Latin-1; ; or ,) spreadsheet;
    a first row naming the columns is skipped."""
    if upload.size > MAX_SHEET_BYTES:
        raise ValidationError("A planilha passa de 2 MB: envie só os nomes e documentos.")
    raw = upload.read()
    rows: list[list[str]]
    if raw[:2] == b"PK":
        rows = _xlsx_rows(raw)
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        dialect = ";" if text.count(";") >= text.count(",") else ","
        rows = [list(r) for r in csv.reader(io.StringIO(text), delimiter=dialect)]
    rows = [r for r in rows if any(str(c or "").strip() for c in r)]
    if rows and _header(rows[0]):
        rows = rows[1:]
    out = []
    for number, row in enumerate(rows, start=1):
        cells = [str(c).strip() if c is not None else "" for c in row]
        if len(cells) < 2 or not cells[0] or not cells[1]:
            raise ValidationError(f"Planilha, linha {number}: são precisas duas colunas, nome e documento.")
        out.append((cells[0], cells[1]))
    if not out:
        raise ValidationError("A planilha não tem passageiros.")
    return out


def _xlsx_rows(raw: bytes) -> list[list[str]]:
    from openpyxl import load_workbook

    from lotacao.core.uploads import bounded_lines, open_zip

    with open_zip(io.BytesIO(raw), "da planilha") as archive:  # an .xlsx is a zip: no bomb
        archive.check_declared()
    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises several kinds for a damaged file
        raise ValidationError(
            "Não foi possível ler a planilha .xlsx: salve-a de novo ou envie um .csv."
        ) from error
    sheet = book.worksheets[0]
    rows = [
        ["" if c is None else str(c) for c in row[:2]]
        for row in bounded_lines(sheet.iter_rows(values_only=True), name="da planilha", limit=MAX_SHEET_ROWS)
    ]
    book.close()
    return rows


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(label="Decisão", choices=[("grant", "Autorizar"), ("refuse", "Recusar")])
    reasons = forms.CharField(label="Motivos", widget=forms.Textarea(attrs={"rows": 2}))


class SanctionForm(forms.Form):
    kind = forms.ChoiceField(
        label="Sanção",
        choices=[
            ("suspension", "Suspensão do CRC"),
            ("cancellation", "Cancelamento do CRC"),
            ("revocation", "Cassação do CRC"),
        ],
    )
    starts_on = date_field("Início", required=True)
    grounds = forms.CharField(label="Fundamentos de fato", widget=forms.Textarea(attrs={"rows": 2}))
    decision_reference = forms.CharField(label="Decisão (auto, processo)", max_length=120, required=False)
    reason = forms.CharField(label="Motivo (fica no histórico)", max_length=300, initial="Decisão definitiva")
