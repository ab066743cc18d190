"""The form renderer of every form (settings.FORM_RENDERER): Django's own templates, with the
gov.br Design System's wrappers around the fields people type in (form_templates/): a text-like
input sits in `<span class="br-input">`, a textarea in `br-textarea`, a native select in
`br-select` (the DS's own select is a script-built list; the native one stays, keyboard and screen
reader friendly, and is drawn like the DS's input by lotacao/app.css). A field with errors gets the
DS's `danger` state, and its errors the DS's `feedback danger` look, beside Django's `errorlist`
and the `aria-invalid`/`aria-describedby` Django already sets. Checkboxes, radios, hidden and file
inputs keep Django's markup (the DS's versions need their own label layout or script)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

import django.forms
from django.forms.renderers import DjangoTemplates

OURS = Path(__file__).parent / "form_templates"
DJANGO = Path(django.forms.__file__).parent / "templates"


class GovBrFormRenderer(DjangoTemplates):
    @cached_property
    def engine(self) -> Any:
        return self.backend({"APP_DIRS": True, "DIRS": [OURS, DJANGO], "NAME": "govbrforms", "OPTIONS": {}})

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        widget = context.get("widget")
        if isinstance(widget, dict):
            widget["br_danger"] = str(widget.get("attrs", {}).get("aria-invalid", "")) == "true"
        return super().render(template_name, context, request)
