"""Dates in date inputs (issue 24, defect 3): a browser's `<input type="date">` takes its value as
ISO (2026-12-01); under pt-BR Django wrote 01/12/2026, which the browser rejects, so required
dates came up blank (`/fiscalizacao/julgamento/orgaos/<id>/`, `/sessoes/<id>/`).

Every form of the system is walked: each date or date-and-time field drawn as a browser date
input writes ISO in its value, shown fresh or again after an error with what was typed, and reads
both ISO and dd/mm/aaaa back to the same day."""

from __future__ import annotations

import datetime as dt
import importlib
import pkgutil
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django import forms
from django.utils import timezone, translation

import lotacao

DAY = dt.date(2026, 12, 1)
MOMENT = dt.datetime(2026, 12, 1, 9, 30)
INPUT = re.compile(r'<input type="(date|datetime-local)"[^>]*>')


def _form_modules() -> Iterator[str]:
    for info in pkgutil.walk_packages(lotacao.__path__, "lotacao."):
        leaf = info.name.rsplit(".", 1)[-1]
        if ".migrations" in info.name or ".config." in info.name:
            continue
        if "form" in leaf or "view" in leaf:
            yield info.name


def _subclasses(cls: type[Any]) -> Iterator[type[Any]]:
    sub: type[Any]
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def date_fields() -> list[tuple[str, str, forms.Field]]:
    for name in _form_modules():
        importlib.import_module(name)
    found = []
    for form in set(_subclasses(forms.BaseForm)):
        if not form.__module__.startswith("lotacao."):
            continue
        for field_name, field in getattr(form, "base_fields", {}).items():
            if getattr(field.widget, "input_type", "") in ("date", "datetime-local"):
                found.append((f"{form.__module__}.{form.__qualname__}", field_name, field))
    return sorted(found, key=lambda f: (f[0], f[1]))


FIELDS = date_fields()


def value_of(html: str) -> str:
    match = re.search(r'value="([^"]*)"', html)
    return match.group(1) if match else ""


def test_the_walk_finds_the_forms_of_the_defect() -> None:
    names = {(form.rsplit(".", 1)[-1], field) for form, field, _ in FIELDS}
    assert {("MemberForm", "starts_on"), ("SessionForm", "held_on")} <= names
    assert len(FIELDS) > 30


@pytest.mark.parametrize(("form", "name", "field"), FIELDS, ids=[f"{f}.{n}" for f, n, _ in FIELDS])
def test_every_date_input_round_trips(form: str, name: str, field: forms.Field) -> None:
    is_moment = field.widget.input_type == "datetime-local"
    iso = "2026-12-01T09:30" if is_moment else "2026-12-01"
    typed = "01/12/2026 09:30" if is_moment else "01/12/2026"
    with translation.override("pt-br"):
        # shown fresh (an initial), and again after an error with what the person typed
        initial = timezone.make_aware(MOMENT) if is_moment else DAY
        assert value_of(field.widget.render(name, initial)) == iso, f"{form}.{name}"
        assert value_of(field.widget.render(name, typed)) == iso, f"{form}.{name}"
        assert value_of(field.widget.render(name, iso)) == iso, f"{form}.{name}"
        # read back: what the browser sends, and dd/mm/aaaa typed by hand
        for text in (iso, typed):
            value: Any = field.clean(text)
            if is_moment:
                assert timezone.localtime(value).replace(tzinfo=None) == MOMENT, f"{form}.{name}"
            else:
                assert value == DAY, f"{form}.{name}"


def test_a_bad_date_is_refused_in_portuguese() -> None:
    from lotacao.core.dateinputs import DateField

    with pytest.raises(forms.ValidationError) as refused:
        DateField().clean("31/02/2026")
    assert refused.value.messages == ["Informe uma data válida (dd/mm/aaaa)."]


def test_the_judging_body_page_prefills_its_dates_for_the_browser(world: Any, client: Any) -> None:
    from lotacao.enforcement.due_process import judging

    today = timezone.localdate()
    body = judging.ensure_bodies("esteio", today)[0]
    client.force_login(world.users["comissao.esteio"])
    page = client.get(f"/fiscalizacao/julgamento/orgaos/{body.pk}/").content.decode()
    inputs = INPUT.findall(page)
    assert inputs, "the page has its date inputs"
    values = [value_of(tag) for tag in re.findall(r'<input type="date"[^>]*>', page)]
    assert today.isoformat() in values  # the mandate's start and the session's day: today
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) for v in values if v), values
