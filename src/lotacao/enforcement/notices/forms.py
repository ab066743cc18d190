"""The inspector's notice form, phone first: one plate entry, the infraction as the law prints it
(searchable on the page), the line where the law requires one and the plate gives none, the
phone's position and camera, dates as dd/mm/aaaa."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django import forms
from django.utils import timezone

from lotacao.core.law import citation, pack_for, value
from lotacao.enforcement.models import OffenderKind
from lotacao.enforcement.notices import selectors
from lotacao.enforcement.notices.services import GROUPS_PARAMETER
from lotacao.registry.models import Line

DATE_TIME_FORMAT = "%d/%m/%Y %H:%M"


class MultiplePhotoInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class PhotoField(forms.FileField):
    """Several photos from the camera (`capture`): each checked by `photos.checked_photo`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget",
            MultiplePhotoInput(attrs={"accept": "image/*", "capture": "environment", "multiple": True}),
        )
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data if item]
        return [single(data, initial)] if data else []


def law_requires_line(code: str, on: dt.date) -> bool:
    required = value(code, "notice.required_fields", on) or {}
    return "line" in [*required.get("always", []), *required.get("registered_service", [])]


def infraction_label(code: str, row: dict[str, Any], groups: dict[str, str] | None) -> str:
    """`art. 42, XV, a — Trafegar com excesso de lotação` (and the group the agency set, where
    the law leaves it to the agency). A conduct without a group says nothing on its own row: the
    form lists those under one heading and says why once (`agency_group_choices`)."""
    label = f"{row['cite'] or code} — {row['description']}"
    if groups is not None and not row["group"]:
        group = groups.get(code)
        if group:
            label += f" (grupo {group})"
    return label


UNGROUPED = "Sem grupo informado pelo órgão gestor"


def agency_group_choices(rows: list[dict[str, Any]], groups: dict[str, str]) -> tuple[list[Any], int]:
    """The conducts by the group the agency gave them (the law's Anexo I is not in its text), those
    without one under a single heading; and how many have none."""
    by_group: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        group = row["group"] or groups.get(row["code"], "")
        heading = f"Grupo {group}" if group else UNGROUPED
        by_group.setdefault(heading, []).append((row["code"], infraction_label(row["code"], row, groups)))
    headings = sorted(h for h in by_group if h != UNGROUPED) + ([UNGROUPED] if UNGROUPED in by_group else [])
    return [(h, by_group[h]) for h in headings], len(by_group.get(UNGROUPED, []))


class NoticeForm(forms.Form):
    check: dict[str, Any] | None = None  # the plate's status the view looked up
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=200)
    plate = forms.CharField(
        label="Placa",
        max_length=8,
        required=False,
        widget=forms.TextInput(
            attrs={"autocapitalize": "characters", "autocomplete": "off", "placeholder": "ABC1D23"}
        ),
    )
    offender_kind = forms.ChoiceField(label="Infrator", choices=OffenderKind.choices)
    infraction_code = forms.ChoiceField(label="Infração", required=False)
    infraction_group = forms.ChoiceField(label="Grupo", required=False)
    line = forms.TypedChoiceField(label="Linha", required=False, coerce=int, empty_value=None)
    drawn_up_at = forms.DateTimeField(
        label="Data e hora",
        widget=forms.DateTimeInput(
            format=DATE_TIME_FORMAT,
            attrs={"inputmode": "numeric", "placeholder": "dd/mm/aaaa hh:mm", "autocomplete": "off"},
        ),
        input_formats=[DATE_TIME_FORMAT, "%d/%m/%Y %H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text="dd/mm/aaaa hh:mm",
    )
    place = forms.CharField(label="Local", max_length=300, required=False)
    evidence_latitude = forms.DecimalField(
        label="Latitude",
        max_digits=9,
        decimal_places=6,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    evidence_longitude = forms.DecimalField(
        label="Longitude",
        max_digits=9,
        decimal_places=6,
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    description = forms.CharField(
        label="Descrição da ocorrência", widget=forms.Textarea(attrs={"rows": 3}), required=False
    )
    offender_name = forms.CharField(label="Nome do infrator", max_length=200, required=False)
    offender_document = forms.CharField(
        label="CPF ou documento do infrator",
        max_length=20,
        required=False,
        help_text="Prepostos: o CPF identifica o cadastro.",
    )
    photos = PhotoField(label="Fotos", required=False, help_text="Tire as fotos com a câmera do aparelho.")

    def __init__(self, *args: Any, jurisdiction: str, known_line: Any = None, **kwargs: Any) -> None:
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("idempotency_key", uuid.uuid4().hex)
        initial.setdefault("drawn_up_at", timezone.localtime().replace(second=0, microsecond=0))
        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        pack = pack_for(jurisdiction)
        # Maricá: the group of each conduct is the agency's (set once by the manager), never asked.
        agency_groups = pack.has(GROUPS_PARAMETER)
        groups_table = (value(jurisdiction, GROUPS_PARAMETER, today) or {}) if agency_groups else None
        rows = selectors.catalogue(jurisdiction)
        choices: list[Any] = [("", "— escolha a infração —")]
        self.groups_note = ""
        if groups_table is not None:
            grouped, missing = agency_group_choices(rows, groups_table)
            choices += grouped
            if missing:
                self.groups_note = (
                    f"A lei classifica as infrações em grupos num anexo que não acompanha o texto "
                    f"publicado ({citation(jurisdiction, GROUPS_PARAMETER, today) or 'art. 43'}); o grupo de "
                    f"cada conduta é informado pelo órgão gestor em Valores da lei. {missing} de "
                    f"{len(rows)} condutas ainda estão sem grupo: o auto delas só pode ser lavrado "
                    "depois que o gestor informar o grupo."
                )
        else:
            choices += [(r["code"], infraction_label(r["code"], r, groups_table)) for r in rows]
        self.catalogue_size = len(rows)
        code_field = self.fields["infraction_code"]
        assert isinstance(code_field, forms.ChoiceField)
        code_field.choices = choices
        code_field.widget.attrs.update({"data-picker": "infraction"})
        if self.groups_note:
            code_field.help_text = self.groups_note
        groups = selectors.groups(jurisdiction)
        if groups and not agency_groups:
            group_field = self.fields["infraction_group"]
            assert isinstance(group_field, forms.ChoiceField)
            group_field.choices = [("", "—")] + [(g["id"], g["label"]) for g in groups]
        else:
            del self.fields["infraction_group"]

        # The line: filled from the plate; asked where the law requires it and none is known.
        self.line_required = law_requires_line(jurisdiction, today)
        self.known_line = known_line
        if self.line_required:
            line_field = self.fields["line"]
            assert isinstance(line_field, forms.TypedChoiceField)
            lines = Line.objects.filter(jurisdiction_id=jurisdiction, active=True).order_by("code")
            line_field.choices = [("", "— escolha a linha —")]
            line_field.choices += [(ln.pk, f"{ln.code} — {ln.name}") for ln in lines]
            if known_line is not None and not self.is_bound:
                self.initial.setdefault("line", known_line.pk)
            self.line_citation = citation(jurisdiction, "notice.required_fields", today)
        else:
            del self.fields["line"]
            self.line_citation = ""

        # The law's required fields are marked for the browser too, so the phone asks for them
        # before sending (the service checks them again, with the article).
        required = value(jurisdiction, "notice.required_fields", today) or {}
        for name in required.get("always", []):
            if name in ("place", "description", "plate") and name in self.fields:
                self.fields[name].widget.attrs["required"] = "required"
                self.fields[name].label = f"{self.fields[name].label} *"
        self.law_citation = citation(jurisdiction, "notice.required_fields", today) if required else ""

    def clean_line(self) -> Any:
        pk = self.cleaned_data.get("line")
        if pk is None:
            return None
        found = Line.objects.filter(pk=pk).first()
        if found is None:
            raise forms.ValidationError("Linha não encontrada nesta jurisdição.")
        return found

    def fresh_key(self) -> None:
        """A new key after a refusal: the corrected form is another request."""
        data = self.data.copy() if hasattr(self.data, "copy") else dict(self.data.items())
        data["idempotency_key"] = uuid.uuid4().hex
        self.data = data
