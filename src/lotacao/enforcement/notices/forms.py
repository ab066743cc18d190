"""The inspector's notice form: choices from the pack's catalogue, place and time prefilled."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils import timezone

from lotacao.core.law import citation, value
from lotacao.enforcement.models import OffenderKind
from lotacao.enforcement.notices import selectors


class NoticeForm(forms.Form):
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=200)
    plate = forms.CharField(label="Placa", max_length=8, required=False)
    offender_kind = forms.ChoiceField(label="Infrator", choices=OffenderKind.choices)
    infraction_code = forms.ChoiceField(label="Infração (busque pela descrição)", required=False)
    infraction_group = forms.ChoiceField(label="Grupo", required=False)
    drawn_up_at = forms.DateTimeField(
        label="Data e hora",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    place = forms.CharField(label="Local", max_length=300, required=False)
    description = forms.CharField(
        label="Descrição da ocorrência", widget=forms.Textarea(attrs={"rows": 3}), required=False
    )
    offender_name = forms.CharField(label="Nome do infrator", max_length=200, required=False)
    offender_document = forms.CharField(
        label="CPF/documento do infrator",
        max_length=20,
        required=False,
        help_text="Prepostos: o CPF identifica o cadastro.",
    )
    evidence_image = forms.CharField(label="Referência da imagem", max_length=300, required=False)
    evidence_latitude = forms.DecimalField(
        label="Latitude (GPS)", max_digits=9, decimal_places=6, required=False
    )
    evidence_longitude = forms.DecimalField(
        label="Longitude (GPS)", max_digits=9, decimal_places=6, required=False
    )

    def __init__(self, *args: Any, jurisdiction: str, **kwargs: Any) -> None:
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("idempotency_key", uuid.uuid4().hex)
        initial.setdefault("drawn_up_at", timezone.localtime().replace(second=0, microsecond=0))
        super().__init__(*args, **kwargs)
        rows = selectors.catalogue(jurisdiction)
        choices = [("", "— escolha a infração —")]
        choices += [(r["code"], f"{r['code']} — {r['description']}") for r in rows]
        code_field = self.fields["infraction_code"]
        assert isinstance(code_field, forms.ChoiceField)
        code_field.choices = choices
        self.fields["infraction_code"].widget.attrs.update(
            {"class": "searchable", "data-search": "infraction"}
        )
        groups = selectors.groups(jurisdiction)
        if groups:
            group_field = self.fields["infraction_group"]
            assert isinstance(group_field, forms.ChoiceField)
            group_field.choices = [("", "—")] + [(g["id"], g["label"]) for g in groups]
        else:
            del self.fields["infraction_group"]

        # The law's required fields are marked for the browser too, so the phone asks for them
        # before sending (the service checks them again, with the article).
        required = value(jurisdiction, "notice.required_fields", timezone.localdate()) or {}
        for name in required.get("always", []):
            if name in ("place", "description", "plate") and name in self.fields:
                self.fields[name].widget.attrs["required"] = "required"
                self.fields[name].label = f"{self.fields[name].label} *"
        self.law_citation = (
            citation(jurisdiction, "notice.required_fields", timezone.localdate()) if required else ""
        )

    def fresh_key(self) -> None:
        """A new key after a refusal: the corrected form is another request."""
        data = dict(self.data.items())
        data["idempotency_key"] = uuid.uuid4().hex
        self.data = data
