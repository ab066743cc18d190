"""The gov.br Design System's classes on the plain buttons, link buttons and tables of every page
template, given where the templates are read (once: the loaders are cached), so the ~140 buttons
and ~80 tables written as plain HTML in the wings' templates get the DS's component CSS
(static/govbr/core-components.min.css) without each template repeating the DS's classes:

- `<button>` without a class becomes `<button class="br-button primary">`; a button with its own
  classes gets `br-button` beside them (and `primary` unless it is a secondary one);
- `<a class="button …">` gets `br-button primary` (or `secondary`) beside its classes;
- a hand-written text-like `<input>` (no type, text, date, number, e-mail…) is wrapped in the
  DS's `<span class="br-input">`, a `<select>` in `br-select`/`br-input`, a `<textarea>` in
  `br-textarea`, as the form renderer does for Django's forms (lotacao.web.forms_renderer);
  checkboxes, radios, hidden, file and submit inputs keep their markup;
- `<table>` is wrapped in the DS's `<div class="br-table">…</div>` (only in a template whose
  `<table` and `</table>` are paired, so the wrapper never breaks the markup).

A tag already carrying a `br-` class is left alone, as are templates outside our apps (the admin,
Django's own). Text is never touched: only the opening tags' class attribute and the wrapper."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.template.loaders import app_directories

BUTTON = re.compile(r"<button\b([^>]*)>")
LINK_BUTTON = re.compile(r"(<a\b[^>]*?\bclass=\")(button\b[^\"]*\")")
CLASS = re.compile(r"\bclass=\"([^\"]*)\"")
INPUT = re.compile(r"<input\b[^>]*>")
TEXT_LIKE = {
    "text",
    "date",
    "datetime-local",
    "time",
    "month",
    "week",
    "number",
    "email",
    "password",
    "search",
    "tel",
    "url",
}
INPUT_TYPE = re.compile(r"\btype=\"([^\"]*)\"")
PAIRS = (  # (opening, closing, wrapper start, wrapper end)
    (
        re.compile(r"<select\b"),
        re.compile(r"</select>"),
        '<span class="br-select"><span class="br-input">',
        "</span></span>",
    ),
    (re.compile(r"<textarea\b"), re.compile(r"</textarea>"), '<span class="br-textarea">', "</span>"),
)
TABLE_OPEN = re.compile(r"<table\b")
TABLE_CLOSE = re.compile(r"</table>")
OUR_APPS = Path(__file__).resolve().parents[1]  # src/lotacao


def _kind(classes: str) -> str:
    return "secondary" if re.search(r"(?:^|[\s-])secondary\b", classes) else "primary"


def _button(match: re.Match[str]) -> str:
    attrs = match.group(1)
    found = CLASS.search(attrs)
    if found is None:
        return f'<button class="br-button primary"{attrs}>'
    classes = found.group(1)
    if "br-" in classes or "menu-toggle" in classes:
        return match.group(0)
    kind = "" if re.search(r"(?:^|\s)(?:primary|secondary)\b", classes) else f"{_kind(classes)} "
    new = f'class="br-button {kind}{classes}"'
    return f"<button{attrs[: found.start()]}{new}{attrs[found.end() :]}>"


def _link_button(match: re.Match[str]) -> str:
    classes = match.group(2)
    return f"{match.group(1)}br-button {_kind(classes)} {classes}"


def _input(match: re.Match[str]) -> str:
    tag = match.group(0)
    kind = INPUT_TYPE.search(tag)
    if kind is not None and kind.group(1) not in TEXT_LIKE:
        return tag
    return f'<span class="br-input">{tag}</span>'


def _wrap(source: str, opening: re.Pattern[str], closing: re.Pattern[str], start: str, end: str) -> str:
    """Wrap each element between `opening` and `closing`, when the template pairs them."""
    opened, closed = len(opening.findall(source)), len(closing.findall(source))
    if not opened or opened != closed:
        return source
    source = opening.sub(lambda m: start + m.group(0), source)
    return closing.sub(lambda m: m.group(0) + end, source)


def govbr_markup(source: str) -> str:
    """`source` (a template's text) with the DS's classes on its plain buttons, fields and tables."""
    source = BUTTON.sub(_button, source)
    source = LINK_BUTTON.sub(_link_button, source)
    source = INPUT.sub(_input, source)
    for opening, closing, start, end in PAIRS:
        source = _wrap(source, opening, closing, start, end)
    return _wrap(source, TABLE_OPEN, TABLE_CLOSE, '<div class="br-table">', "</div>")


class Loader(app_directories.Loader):
    """Django's app-directories loader, with `govbr_markup` applied to our apps' HTML templates."""

    def get_contents(self, origin: Any) -> str:
        contents = super().get_contents(origin)
        path = Path(str(origin.name))
        if path.suffix == ".html" and path.resolve().is_relative_to(OUR_APPS):
            return govbr_markup(contents)
        return contents
