"""Forms of the lines screens (Portuguese labels; the law's choices come from the packs)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from lotacao.core.dateinputs import DateField, DateInput
from lotacao.councils.forms import add_resolution_field
from lotacao.lines import checks
from lotacao.lines import law as lines_law
from lotacao.lines.models import DAY_TYPES, GROUND_LABELS, LineVersion, ServiceOrder
from lotacao.permits.models import Permit
from lotacao.registry.models import Vehicle

DATE = DateInput()


def reason_field() -> forms.CharField:
    return forms.CharField(label="Motivo (fica no histórico)", widget=forms.Textarea(attrs={"rows": 2}))


def _json_list(raw: str, what: str) -> list[Any]:
    try:
        value = json.loads(raw or "[]")
    except ValueError as error:
        raise ValidationError(f"{what}: dados do mapa ilegíveis; desenhe de novo.") from error
    if not isinstance(value, list):
        raise ValidationError(f"{what}: dados do mapa ilegíveis; desenhe de novo.")
    return value


class VersionForm(forms.Form):
    shape = forms.ChoiceField(label="Tipo de linha", choices=LineVersion.Shape.choices)
    grounds = forms.MultipleChoiceField(
        label="Fundamentos", required=False, widget=forms.CheckboxSelectMultiple
    )
    region = forms.CharField(label="Região", max_length=120, required=False)
    origin = forms.CharField(label="Origem", max_length=120)
    destination = forms.CharField(label="Destino", max_length=120)
    description = forms.CharField(
        label="Descrição do itinerário", required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    study = forms.CharField(label="Estudo de viabilidade ou projeto técnico", max_length=300, required=False)
    itinerary = forms.CharField(widget=forms.HiddenInput, required=False)
    stops = forms.CharField(widget=forms.HiddenInput, required=False)
    reason = reason_field()

    def __init__(self, *args: Any, jurisdiction: str, on: dt.date, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        grounds = lines_law.need(jurisdiction, "lines.grounds", on)
        field = self.fields["grounds"]
        assert isinstance(field, forms.MultipleChoiceField)
        if grounds is None or not grounds.value:
            del self.fields["grounds"]
        else:
            field.choices = [(g, GROUND_LABELS.get(g, g)) for g in grounds.value]
            field.help_text = grounds.citation
        regions = lines_law.need(jurisdiction, "lines.regions", on)
        if regions is None:
            del self.fields["region"]
        elif regions.value:
            self.fields["region"] = forms.ChoiceField(
                label="Região",
                choices=[("", "—")] + [(r, r) for r in regions.value],
                help_text=regions.citation,
            )
        else:
            self.fields["region"].help_text = regions.citation
        approval, cite = lines_law.approval(jurisdiction, on)
        if approval.get("study"):
            self.fields["study"].help_text = f"Exigido para a aprovação ({cite})."

    def clean_itinerary(self) -> list[Any]:
        return _json_list(self.cleaned_data.get("itinerary", ""), "Itinerário")

    def clean_stops(self) -> list[Any]:
        return _json_list(self.cleaned_data.get("stops", ""), "Pontos de parada")


class NewLineForm(VersionForm):
    code = forms.CharField(label="Código da linha", max_length=20)
    name = forms.CharField(label="Denominação", max_length=200)

    field_order = ["code", "name"]


class ApproveForm(forms.Form):
    version = forms.TypedChoiceField(label="Versão", coerce=int)
    act = forms.CharField(label="Ato de aprovação", max_length=300, required=False)
    approved_on = DateField(label="Data do ato", widget=DATE)
    valid_from = DateField(label="Em vigor desde", widget=DATE)
    reason = reason_field()

    def __init__(
        self,
        *args: Any,
        versions: list[LineVersion],
        help_text: str = "",
        code: str = "",
        gate_keys: tuple[str, ...] = ("line.create", "line.change"),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["version"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(v.number, f"Versão {v.number}") for v in versions]
        self.fields["act"].help_text = help_text
        if code:
            add_resolution_field(self, code, gate_keys)


PERIOD_ROWS = 6


class OrderForm(forms.Form):
    kind = forms.ChoiceField(label="Espécie", choices=ServiceOrder.Kind.choices)
    cause = forms.ChoiceField(
        label="Motivo (ordem temporária)", choices=ServiceOrder.Cause.choices, required=False
    )
    valid_from = DateField(label="Em vigor desde", widget=DATE)
    valid_until = DateField(label="Em vigor até", widget=DATE, required=False)
    act = forms.CharField(label="Ato que a emite", max_length=300, required=False)
    fleet = forms.IntegerField(label="Frota operante", min_value=1)
    trip_minutes = forms.IntegerField(label="Tempo de viagem (minutos)", min_value=1)
    terminal_capacity = forms.IntegerField(label="Vagas no terminal", min_value=0, required=False)
    both_directions = forms.BooleanField(
        label="Viagens nos dois sentidos (cada partida sai também do terminal de destino)", required=False
    )
    vehicles = forms.ModelMultipleChoiceField(
        label="Veículos", queryset=Vehicle.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    notes = forms.CharField(label="Observações", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    reason = reason_field()

    def __init__(self, *args: Any, vehicles: Any, code: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["vehicles"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = vehicles
        if code:
            add_resolution_field(self, code, ("fleet.change",))
        for n in range(PERIOD_ROWS):
            self.fields[f"p{n}_day"] = forms.ChoiceField(
                label="Dias", choices=[("", "—"), *DAY_TYPES.items()], required=False
            )
            self.fields[f"p{n}_first"] = forms.CharField(label="Início", max_length=5, required=False)
            self.fields[f"p{n}_last"] = forms.CharField(label="Fim", max_length=5, required=False)
            self.fields[f"p{n}_headway"] = forms.IntegerField(
                label="Intervalo (min)", min_value=1, required=False
            )
            self.fields[f"p{n}_departures"] = forms.CharField(
                label="Partidas fixas", max_length=2000, required=False
            )
            # The period table prints the fields without their <label>: each says its name itself.
            for key in ("day", "first", "last", "headway", "departures"):
                period = self.fields[f"p{n}_{key}"]
                period.widget.attrs["aria-label"] = f"{period.label} do período {n + 1}"

    def period_rows(self) -> list[list[Any]]:
        return [
            [self[f"p{n}_{k}"] for k in ("day", "first", "last", "headway", "departures")]
            for n in range(PERIOD_ROWS)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["periods"] = periods_from(
            {k: v for k, v in data.items() if k.startswith("p") and "_" in k}, self.add_error
        )
        return data


def periods_from(raw: dict[str, Any], add_error: Any = None) -> list[dict[str, Any]]:
    """Rows of the editor as service periods (minutes; an end before the start is the next day)."""
    out: list[dict[str, Any]] = []
    for n in range(PERIOD_ROWS):
        day = raw.get(f"p{n}_day") or ""
        if not day:
            continue
        try:
            out.append(_period(day, raw, n))
        except ValueError as error:
            if add_error is None:
                raise
            add_error(None, f"{DAY_TYPES.get(day, day)}: {error}")
    return out


def _period(day: str, raw: dict[str, Any], n: int) -> dict[str, Any]:
    departures_text = str(raw.get(f"p{n}_departures") or "").replace(",", " ").split()
    departures = [checks.parse_time(t) for t in departures_text]
    headway = raw.get(f"p{n}_headway")
    headway = int(headway) if headway not in (None, "") else None
    if headway:
        first = checks.parse_time(str(raw.get(f"p{n}_first") or ""))
        last = checks.parse_time(str(raw.get(f"p{n}_last") or ""))
        if last <= first:
            last += 24 * 60
        return {"day_type": day, "first": first, "last": last, "headway": headway}
    if not departures:
        raise ValueError("informe o intervalo (com início e fim) ou as partidas fixas.")
    for i in range(1, len(departures)):
        while departures[i] < departures[i - 1]:
            departures[i] += 24 * 60  # after midnight
    return {"day_type": day, "first": departures[0], "last": departures[-1], "departures": departures}


class PlaceForm(forms.Form):
    permit = forms.ModelChoiceField(label="Permissão", queryset=Permit.objects.none())
    starts_on = DateField(label="Desde (data da autorização)", widget=DATE)
    act = forms.CharField(label="Ato que autorizou", max_length=300, required=False)
    reason = reason_field()

    def __init__(self, *args: Any, permits: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["permit"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = permits


class TripsForm(forms.Form):
    place = forms.IntegerField(widget=forms.HiddenInput)
    on = DateField(label="Operou em", widget=DATE)
    reason = forms.CharField(label="Motivo", max_length=300)


class ImportForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdição")
    file = forms.FileField(label="Arquivo GTFS (.zip) da rede de ônibus")
    reason = reason_field()

    def __init__(self, *args: Any, jurisdictions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["jurisdiction"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = jurisdictions
