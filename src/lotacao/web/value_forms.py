"""The typed form of one parameter of a law (issue 11): built from the pack's type rules (`type`,
`schema`, `unit`) and the words declared in `lotacao.core.open_values` — lists as repeatable rows,
durations as a number and a unit, money as R$ with a comma, dates as dd/mm/aaaa, groups and codes
as choices. Nobody types JSON; the engine's own check (`set_agency_value`) still has the last word.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from lotacao.core import open_values
from lotacao.core.dateinputs import DateField
from lotacao.core.open_values import UNITS, Field
from lotacao.law.pack_model import Pack, Parameter

# Lists of dates: a day of every year (dd/mm, stored MM-DD) or one day (dd/mm/aaaa, stored ISO).
DAY_LISTS = {"calendar.municipal_holidays"}
# Lists of plain words (one per row); other lists without a schema are engine structures.
TEXT_LISTS = {"lines.regions"}
# Lists of the catalogue's infraction codes where the schema does not say so.
INFRACTION_LISTS = {"penalty.course_codes"}
# Mapping keys whose value is a list of the notice's field ids.
NOTICE_FIELD_KEYS = {"always", "registered_service"}
# The words of the codes a list parameter's schema allows (the pack's modalities and categories come
# from lotacao.law.words; a code that names another parameter reads as that parameter's description).
LIST_LABELS = {
    "management": "Taxa de gerenciamento",
    "fusp_f": "Taxa FUSP-F",
    "rst": "Remuneração de Serviços Técnicos",
    "grant": "outorga",
    "renewal": "prorrogação",
    "transfer": "transferência",
    "agent": "inclusão de preposto",
    "inspection": "vistoria",
    "reregistration": "recadastramento",
    "document": "documentos",
    "release": "liberação de medida",
    "iss": "ISS",
    "pis": "PIS",
    "cofins": "COFINS",
    "ir": "Imposto de Renda",
    "geographic": "geográfica",
    "temporal": "temporal",
    "economic": "econômica",
    "segment": "por trecho",
    "existing_operator": "já operar o serviço",
    "association": "pertencer a associação",
    "service_time": "tempo de serviço",
    "infractions": "infrações",
    "death": "morte do permissionário",
    "disability": "invalidez do permissionário",
    "third_party": "a terceiro",
    "consent": "com anuência do órgão",
    "person": "pessoa física",
    "company": "pessoa jurídica",
    "reregistration_holder": "recadastramento do permissionário",
    "reregistration_vehicle": "recadastramento do veículo",
    # fare.benefits (lotacao.lines.fares)
    "elderly_free": "gratuidade para idosos",
    "over_65_free": "gratuidade para maiores de 65 anos",
    "disabled_free": "gratuidade para pessoas com deficiência",
    "public_students_free": "gratuidade para estudantes da rede pública",
    "children_lap_free": "crianças de até cinco anos no colo não pagam",
    "school_pass": "aceita passe escolar",
    "transit_voucher": "aceita vale-transporte",
}


def date_field(label: str, **kwargs: Any) -> DateField:
    return DateField(label=label, error_messages={"invalid": "Informe a data como dd/mm/aaaa."}, **kwargs)


def parse_money(raw: str) -> str:
    """`R$ 1.234,56`, `1234,56` or `1234.56` → "1234.56"; a Portuguese error otherwise."""
    text = (raw or "").replace("R$", "").replace(" ", "").replace("\xa0", "").replace("%", "")
    if "," in text:
        text = text.replace(".", "").replace(",", ".")
    try:
        number = Decimal(text)
    except InvalidOperation as error:
        raise ValidationError(f"“{raw}” não é um valor (use 1.234,56).") from error
    if not number.is_finite():
        raise ValidationError(f"“{raw}” não é um valor (use 1.234,56).")
    return str(number)


def money_text(value: Any) -> str:
    """ "1234.5" → "1.234,50" (how the form shows a stored value)."""
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    whole, _, cents = f"{number:,.2f}".partition(".")
    return whole.replace(",", ".") + "," + cents


def code_of(label: str) -> str:
    """A row's code from its words: `Certidão negativa` → `certidao_negativa` (never shown)."""
    plain = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")[:60] or "item"


def _notice_fields() -> tuple[tuple[str, str], ...]:
    from lotacao.enforcement.dossier.pdf import FIELD_TITLES

    return tuple(FIELD_TITLES.items())


def _field(spec: Field, required: bool | None = None) -> forms.Field:
    need = spec.required if required is None else required
    if spec.key in NOTICE_FIELD_KEYS:
        return forms.MultipleChoiceField(
            label=spec.label, choices=_notice_fields(), required=False, widget=forms.CheckboxSelectMultiple
        )
    if spec.kind == "boolean":
        return forms.BooleanField(label=spec.label, required=False)
    if spec.kind == "integer":
        return forms.IntegerField(label=spec.label, required=need, min_value=0)
    if spec.kind == "choice":
        return forms.ChoiceField(label=spec.label, required=need, choices=[("", "—"), *spec.choices])
    if spec.kind in ("money", "decimal"):
        attrs = {"inputmode": "decimal", "placeholder": "0,00" if spec.kind == "money" else ""}
        return forms.CharField(label=spec.label, required=need, widget=forms.TextInput(attrs=attrs))
    return forms.CharField(label=spec.label, required=need, max_length=300)


def shape(pack: Pack, parameter: Parameter) -> str:
    """How the value is typed: scalar, duration, choice, checks, keys, rows or day_rows; "" when
    the form does not know the parameter's structure."""
    kind, schema, name = parameter.type, parameter.schema, parameter.name
    if kind in ("money", "decimal", "integer", "boolean"):
        return "scalar"
    if kind == "string":
        return "choice" if name in open_values.CHOICES else "scalar"
    if kind == "duration":
        return "duration"
    if kind == "list":
        if name in DAY_LISTS:
            return "day_rows"
        if schema is not None or name in INFRACTION_LISTS:
            return "checks"
        return "rows" if name in TEXT_LISTS or open_values.rows_for(name) else ""
    if kind == "mapping":
        if isinstance(schema, str):
            return "keys"
        if isinstance(schema, tuple):
            return "keys" if all(k in open_values.KEYS for k in schema) else ""
        return "rows" if open_values.rows_for(name) else ""
    return ""


class TypedValueForm(forms.Form):
    valid_from = date_field("Em vigor desde")
    cite = forms.CharField(
        label="Ato que fixou o valor", max_length=300, help_text="Ex.: Portaria nº 12/2025, art. 3º"
    )
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(
        self, *args: Any, pack: Pack, parameter: Parameter, current: Any = None, rows: int = 0, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.pack, self.parameter = pack, parameter
        self.shape = shape(pack, parameter)
        self.columns: tuple[Field, ...] = ()
        self.row_count = 0
        self._build(current, rows)

    # ------------------------------------------------------------------ building
    def _build(self, current: Any, rows: int) -> None:
        p, name = self.parameter, self.parameter.name
        if self.shape == "scalar":
            spec = Field("value", "Valor" + (f" ({_unit(p.unit)})" if _unit(p.unit) else ""), p.type)
            self.fields["value"] = _field(spec)
            if p.type == "boolean":
                self.fields["value"] = forms.TypedChoiceField(
                    label="Valor",
                    choices=[("sim", "Sim"), ("nao", "Não")],
                    widget=forms.RadioSelect,
                    coerce=lambda v: v == "sim",
                )
                if isinstance(current, bool):
                    self.initial["value"] = "sim" if current else "nao"
            elif current is not None:
                self.initial["value"] = money_text(current) if p.type in ("money", "decimal") else current
        elif self.shape == "choice":
            self.fields["value"] = forms.ChoiceField(
                label="Valor", choices=open_values.CHOICES[name], widget=forms.RadioSelect
            )
            self.initial["value"] = current
        elif self.shape == "duration":
            self.fields["amount"] = forms.IntegerField(label="Quantidade", min_value=0)
            self.fields["unit"] = forms.ChoiceField(label="Unidade", choices=UNITS)
            if isinstance(current, dict) and len(current) == 1:
                ((unit, n),) = current.items()
                self.initial.update(amount=n, unit=unit)
        elif self.shape == "checks":
            self.fields["value"] = forms.MultipleChoiceField(
                label="Itens", choices=self._codes(), required=False, widget=forms.CheckboxSelectMultiple
            )
            self.initial["value"] = [str(v) for v in current or []]
        elif self.shape == "keys":
            current = current if isinstance(current, dict) else {}
            for key, label in self._keys():
                base = open_values.KEYS.get(key, Field(key, label, "integer", required=False))
                spec = Field(
                    key, label, base.kind, base.choices, required=False
                )  # the law's keys are optional
                self.fields[f"k_{key}"] = _field(spec)
                if key in current:
                    known = current[key]
                    self.initial[f"k_{key}"] = money_text(known) if spec.kind == "money" else known
        elif self.shape in ("rows", "day_rows"):
            self._build_rows(current, rows)

    def _build_rows(self, current: Any, rows: int) -> None:
        name = self.parameter.name
        if self.shape == "day_rows":
            self.columns = (Field("day", "Dia (dd/mm todo ano, ou dd/mm/aaaa)", "string"),)
        else:
            self.columns = open_values.rows_for(name) or (Field("text", "Item", "string"),)
        existing: list[dict[str, Any]] = []
        if isinstance(current, dict):
            existing = [
                dict(v, _code=k) if isinstance(v, dict) else {"text": v, "_code": k}
                for k, v in current.items()
            ]
        elif isinstance(current, list):
            for item in current:
                if self.shape == "day_rows":
                    existing.append({"day": _day_text(str(item))})
                else:
                    existing.append(dict(item) if isinstance(item, dict) else {"text": item})
        posted = 0
        if self.is_bound:
            posted = int(self.data.get("rows") or 0) if str(self.data.get("rows") or "").isdigit() else 0
        self.row_count = max(len(existing) + 3, posted, rows, 3)
        for i in range(self.row_count):
            for col in self.columns:
                self.fields[f"r{i}_{col.key}"] = _field(col, required=False)
                if i < len(existing) and col.key in existing[i]:
                    self.initial[f"r{i}_{col.key}"] = existing[i][col.key]

    def _codes(self) -> list[tuple[str, str]]:
        schema, name = self.parameter.schema, self.parameter.name
        if schema == "groups":
            return [(g.id, g.label) for g in self.pack.groups.values()]
        if schema == "infractions" or name in INFRACTION_LISTS:
            return [(i.code, _infraction(i)) for i in self.pack.infractions.values()]
        from lotacao.law.words import MODALITY_PT

        labels = {**dict(open_values.CATEGORIES), **MODALITY_PT}

        def words(code: str) -> str:
            if self.pack.has(code):
                return self.pack.parameters[code].description
            return LIST_LABELS.get(code) or labels.get(code) or "outro"

        return [(c, words(c)) for c in (schema or ())]

    def _keys(self) -> list[tuple[str, str]]:
        schema = self.parameter.schema
        if isinstance(schema, str):
            return self._codes()
        return [(k, open_values.KEYS[k].label) for k in schema or ()]

    # ------------------------------------------------------------------ reading
    def row_fields(self) -> list[list[Any]]:
        return [[self[f"r{i}_{c.key}"] for c in self.columns] for i in range(self.row_count)]

    def value_fields(self) -> list[Any]:
        return [self[n] for n in self.fields if n not in ("valid_from", "cite", "reason") and not _is_row(n)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.shape:
            raise ValidationError("Este valor ainda não tem formulário próprio.")
        try:
            data["the_value"] = self._value(data)
        except ValidationError as error:
            self.add_error(None, error)
        return data

    def _value(self, data: dict[str, Any]) -> Any:
        p = self.parameter
        if self.shape == "scalar":
            raw = data.get("value")
            if p.type in ("money", "decimal"):
                return parse_money(str(raw or ""))
            return raw
        if self.shape == "choice":
            return data.get("value")
        if self.shape == "duration":
            if data.get("amount") is None or not data.get("unit"):
                raise ValidationError("Informe a quantidade e a unidade do prazo.")
            return {data["unit"]: data["amount"]}
        if self.shape == "checks":
            chosen = list(data.get("value") or [])
            if not chosen:
                raise ValidationError("Marque ao menos um item.")
            return chosen
        if self.shape == "keys":
            out: dict[str, Any] = {}
            for key, _label in self._keys():
                raw = data.get(f"k_{key}")
                if raw in (None, "", []):
                    continue
                spec = open_values.KEYS.get(key)
                out[key] = parse_money(str(raw)) if spec and spec.kind in ("money", "decimal") else raw
            if not out:
                raise ValidationError("Preencha ao menos um campo.")
            return out
        return self._rows_value(data)

    def _rows_value(self, data: dict[str, Any]) -> Any:
        items: list[dict[str, Any]] = []
        for i in range(self.row_count):
            row = {c.key: data.get(f"r{i}_{c.key}") for c in self.columns}
            first = self.columns[0].key
            if not row.get(first):
                if any(v for k, v in row.items() if k != first and not isinstance(v, bool)):
                    raise ValidationError(f"Linha {i + 1}: preencha “{self.columns[0].label}”.")
                continue
            items.append(row)
        if not items:
            raise ValidationError("Preencha ao menos uma linha.")
        if self.shape == "day_rows":
            return [_day_value(str(r["day"]), n) for n, r in enumerate(items, 1)]
        if self.parameter.type == "list":
            if self.columns[0].key == "text":
                return [r["text"] for r in items]
            return [{"id": code_of(str(r[self.columns[0].key])), **r} for r in items]
        out: dict[str, Any] = {}
        for r in items:
            code = code_of(str(r[self.columns[0].key]))
            if code in out:
                raise ValidationError(f"“{r[self.columns[0].key]}” aparece duas vezes.")
            out[code] = r
        return out


def _is_row(name: str) -> bool:
    return bool(re.match(r"^r\d+_", name))


def _unit(unit: str | None) -> str:
    return {
        "BRL": "R$",
        "percent": "%",
        "years": "anos",
        "minutes": "minutos",
        "metres": "metros",
        "seats": "lugares",
    }.get(unit or "", unit or "")


def _infraction(item: Any) -> str:
    words = " ".join(str(item.description).split())
    return f"{item.citation} — {words[:90]}{'…' if len(words) > 90 else ''}"


def _day_text(value: str) -> str:
    if re.fullmatch(r"\d{2}-\d{2}", value):
        return f"{value[3:]}/{value[:2]}"
    try:
        return dt.date.fromisoformat(value).strftime("%d/%m/%Y")
    except ValueError:
        return value


def _day_value(text: str, line: int) -> str:
    text = text.strip()
    try:
        if re.fullmatch(r"\d{1,2}/\d{1,2}", text):
            day, month = (int(x) for x in text.split("/"))
            dt.date(2024, month, day)  # a leap year: 29/02 is a valid day of some years
            return f"{month:02d}-{day:02d}"
        return dt.datetime.strptime(text, "%d/%m/%Y").date().isoformat()  # noqa: DTZ007 - a date
    except ValueError as error:
        raise ValidationError(f"Linha {line}: “{text}” não é um dia (use dd/mm ou dd/mm/aaaa).") from error


def describe(pack: Pack, parameter: Parameter, value: Any) -> str:
    """A stored value as people read it: money as R$ 1.234,56, a duration as "15 dias úteis", a
    list's items and a mapping's fields by their words — never the stored codes or JSON."""
    kind = parameter.type
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if kind in ("money", "decimal") and not isinstance(value, (dict, list)):
        text = money_text(value)
        return f"R$ {text}" if kind == "money" and parameter.unit in (None, "BRL") else text
    if kind == "duration" and isinstance(value, dict) and len(value) == 1:
        ((unit, n),) = value.items()
        return f"{n} {dict(UNITS).get(unit, 'unidades')}"
    if kind == "string" and parameter.name in open_values.CHOICES:
        return str(dict(open_values.CHOICES[parameter.name]).get(value, value))
    form = TypedValueForm(pack=pack, parameter=parameter)
    codes = dict(form._codes()) if form.shape in ("checks", "keys") else {}
    if isinstance(value, list):
        if parameter.name in DAY_LISTS:
            return "; ".join(_day_text(str(v)) for v in value)
        return "; ".join(_item(v, codes) for v in value)
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            label = open_values.KEYS[key].label if key in open_values.KEYS else codes.get(str(key), "")
            parts.append(f"{label}: {_item(item, codes)}" if label else _item(item, codes))
        return "; ".join(parts)
    return str(value)


def _item(value: Any, codes: dict[str, str]) -> str:
    if isinstance(value, dict):
        words = value.get("label") or value.get("text")
        if words:
            return str(words)
        return ", ".join(_item(v, codes) for v in value.values())
    if isinstance(value, list):
        return ", ".join(_item(v, codes) for v in value)
    if isinstance(value, bool):
        return "sim" if value else "não"
    return codes.get(str(value), str(value))
