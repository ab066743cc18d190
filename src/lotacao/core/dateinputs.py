"""The one date (and date-and-time) field of every form (issue 24, defect 3).

A browser's `<input type="date">` takes and sends its value as ISO 8601 (`2026-12-01`) and shows it
to the person in their own locale (01/12/2026 in Brazil). Django's `DateInput` without a `format`
writes the value in the active locale's first input format — `01/12/2026` under pt-BR — which the
browser rejects as invalid, so a form shown again (an error, an edit) came up with its required
dates blank. Here the value attribute is always ISO, and what comes back is read as ISO or as
dd/mm/aaaa (typed by hand where the browser has no date picker, a script, a test), with a
Portuguese message otherwise.

    from lotacao.core.dateinputs import DateField, DateTimeField
    decided_on = DateField(label="Data da decisão")
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms

ISO_DATE = "%Y-%m-%d"
ISO_MOMENT = "%Y-%m-%dT%H:%M"
DATE_INPUT_FORMATS = [ISO_DATE, "%d/%m/%Y"]
MOMENT_INPUT_FORMATS = [
    ISO_MOMENT,
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M",
    "%d/%m/%Y %H:%M:%S",
]


def _parsed(text: str, formats: list[str]) -> dt.datetime | None:
    for fmt in formats:
        try:
            return dt.datetime.strptime(text.strip(), fmt)  # noqa: DTZ007 (a form value: the field makes it aware)
        except ValueError:
            continue
    return None


class DateInput(forms.DateInput):
    """`<input type="date">` whose value is ISO, whatever the locale — also when the form is shown
    again with what was typed (01/12/2026 comes back as 2026-12-01) or with a text initial."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_DATE)

    def format_value(self, value: Any) -> Any:
        if isinstance(value, str) and (moment := _parsed(value, DATE_INPUT_FORMATS)) is not None:
            value = moment.date()
        return super().format_value(value)


class DateTimeInput(forms.DateTimeInput):
    """`<input type="datetime-local">` whose value is ISO (minutes), whatever the locale."""

    input_type = "datetime-local"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_MOMENT)

    def format_value(self, value: Any) -> Any:
        if isinstance(value, str) and (moment := _parsed(value, MOMENT_INPUT_FORMATS)) is not None:
            value = moment
        return super().format_value(value)


class DateField(forms.DateField):
    widget = DateInput
    input_formats = DATE_INPUT_FORMATS
    default_error_messages = {"invalid": "Informe uma data válida (dd/mm/aaaa)."}


class DateTimeField(forms.DateTimeField):
    widget = DateTimeInput
    input_formats = MOMENT_INPUT_FORMATS
    default_error_messages = {"invalid": "Informe uma data e hora válidas (dd/mm/aaaa hh:mm)."}
