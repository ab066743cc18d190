"""The gov.br Design System's own components (issue 24): forms rendered anywhere carry the DS's
classes (br-input, br-select, br-textarea, the danger state and feedback), the pages' plain buttons
and tables get br-button and br-table as their templates are read, the frame draws br-breadcrumb and
br-message, and the DS's component CSS is one of our own static files (no CDN, strict CSP)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django import forms
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

from lotacao.web.template_loaders import govbr_markup

pytestmark = pytest.mark.django_db


class _Form(forms.Form):
    name = forms.CharField(label="Nome")
    kind = forms.ChoiceField(label="Tipo", choices=[("a", "Primeiro"), ("b", "Segundo")])
    note = forms.CharField(label="Observação", widget=forms.Textarea, required=False)
    when = forms.DateField(label="Data", widget=forms.DateInput(attrs={"type": "date"}))
    agree = forms.BooleanField(label="Concordo", required=False)


def test_a_form_renders_its_fields_in_the_ds_wrappers_with_its_errors_in_the_ds_feedback() -> None:
    clean = str(_Form().as_p())
    assert '<span class="br-input"><input type="text" name="name"' in clean
    assert '<span class="br-select"><span class="br-input"><select name="kind"' in clean
    assert '<span class="br-textarea"><textarea name="note"' in clean
    assert '<span class="br-input"><input type="date" name="when"' in clean
    # A checkbox keeps Django's markup (the DS's needs its own label layout).
    assert re.search(r'(?<!br-input">)<input type="checkbox" name="agree"', clean)
    bound = _Form(data={"kind": "z"})
    html = str(bound.as_p())
    assert '<span class="br-input danger"><input type="text" name="name"' in html
    assert '<span class="br-select"><span class="br-input danger"><select name="kind"' in html
    # Django's accessibility stays: aria-invalid, the error list tied to the field, its text.
    assert 'aria-invalid="true"' in html and 'aria-describedby="id_name_error"' in html
    assert '<ul class="errorlist br-feedback" id="id_name_error"><li class="feedback danger">' in html
    assert "Este campo é obrigatório." in html


def test_plain_buttons_links_and_tables_of_a_template_get_the_ds_classes() -> None:
    source = (
        '<form><button type="submit">Salvar</button><button type="submit" class="secondary">Voltar</button>'
        '<button class="enf-secondary" hidden>Outra</button><button class="br-button circle">x</button>'
        '<button class="menu-toggle" type="button">Menu</button></form>'
        '<a class="button" href="/x/">Novo</a><table><tr><td>1</td></tr></table>'
    )
    out = govbr_markup(source)
    assert '<button class="br-button primary" type="submit">Salvar</button>' in out
    assert '<button type="submit" class="br-button secondary">Voltar</button>' in out
    assert '<button class="br-button secondary enf-secondary" hidden>' in out
    assert '<button class="br-button circle">' in out and '<button class="menu-toggle" type="button">' in out
    assert '<a class="br-button primary button" href="/x/">' in out
    assert '<div class="br-table"><table><tr><td>1</td></tr></table></div>' in out
    # An unpaired table (opened in one template, closed in another) is left unwrapped.
    assert govbr_markup("<table><tr><td>1</td></tr>") == "<table><tr><td>1</td></tr>"


def test_real_pages_carry_the_ds_components(world: Any, client: Any) -> None:
    login = client.get("/conta/entrar/").content.decode()
    assert 'class="br-input' in login and 'class="br-button primary"' in login
    client.force_login(world.users["gestor.recife"])
    page = client.get("/cadastro/pessoas/").content.decode()
    assert '<div class="br-table"><table' in page
    assert 'class="br-breadcrumb"' in page and 'aria-current="page"' in page
    form = client.get("/cadastro/pessoas/nova/").content.decode()
    assert 'class="br-input' in form and "br-button" in form
    refused = client.post("/cadastro/pessoas/nova/", {}).content.decode()
    assert "br-input danger" in refused and "feedback danger" in refused and 'aria-invalid="true"' in refused


@dataclass
class _Message:
    text: str
    tags: str

    def __str__(self) -> str:
        return self.text


def test_messages_are_ds_messages_and_errors_are_alerts() -> None:
    html = render_to_string(
        "web/_messages.html", {"messages": [_Message("Salvo.", "success"), _Message("Recusado.", "error")]}
    )
    assert '<div class="br-message success" role="status">' in html
    assert '<div class="br-message danger" role="alert">' in html and "Recusado." in html


def test_the_ds_component_css_is_our_own_static_file_with_its_licence() -> None:
    found = finders.find("govbr/core-components.min.css")
    assert found, "govbr/core-components.min.css não está entre os arquivos estáticos"
    css = Path(found).read_text(encoding="utf-8")
    for component in (
        ".br-button",
        ".br-input",
        ".br-table",
        ".br-message",
        ".br-breadcrumb",
        ".br-textarea",
    ):
        assert component + "{" in css or component + " " in css, component
    assert "@govbr-ds/core 3.7.0" in css and "sourceMappingURL" not in css and "http" not in css
    folder = Path(found).parent
    assert "MIT" in (folder / "LICENSE").read_text(encoding="utf-8")
    assert "3.7.0" in (folder / "README.md").read_text(encoding="utf-8")
    assets = render_to_string("web/_assets.html")
    assert (
        assets.index("core-tokens.min.css")
        < assets.index("core-components.min.css")
        < assets.index("app.css")
    )


def test_hand_written_fields_of_a_template_get_the_ds_wrappers() -> None:
    source = (
        '<label>Motivo <input type="text" name="reason" required></label><input name="q">'
        '<input type="hidden" name="next"><input type="checkbox" name="x"><input type="file" name="f">'
        '<select name="kind"><option>1</option></select><textarea name="t"></textarea>'
    )
    out = govbr_markup(source)
    assert (
        '<label>Motivo <span class="br-input"><input type="text" name="reason" required></span></label>'
        in out
    )
    assert '<span class="br-input"><input name="q"></span>' in out
    for kept in (
        '<input type="hidden" name="next">',
        '<input type="checkbox" name="x">',
        '<input type="file" name="f">',
    ):
        assert kept in out and f'<span class="br-input">{kept}' not in out
    assert (
        '<span class="br-select"><span class="br-input"><select name="kind"><option>1</option></select>'
        "</span></span>" in out
    )
    assert '<span class="br-textarea"><textarea name="t"></textarea></span>' in out
