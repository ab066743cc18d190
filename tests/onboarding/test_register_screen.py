"""The manager's screen: upload, preview (nothing saved), confirm; only a gestor of the
jurisdiction; the templates and the export as ZIP files."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from lotacao.core.sample_ids import sample_cpf
from lotacao.registry.models import Person
from tests.onboarding.register_helpers import write

pytestmark = pytest.mark.django_db

CPF = sample_cpf(420_000_001)


def _client(world: Any, user: str) -> Client:
    client = Client()
    client.force_login(world.users[user])
    return client


def _upload(tmp_path: Path, rows: list[dict[str, str]]) -> SimpleUploadedFile:
    path = write(tmp_path, "pessoas", rows)
    return SimpleUploadedFile("pessoas.csv", path.read_bytes(), content_type="text/csv")


def test_gestor_previews_then_confirms(world: Any, tmp_path: Path) -> None:
    client = _client(world, "gestor.recife")
    page = client.get(reverse("onboarding:register"))
    assert page.status_code == 200 and "Importação do cadastro existente" in page.content.decode()
    upload = _upload(tmp_path, [{"CPF": CPF, "Nome completo": "Pessoa da Planilha"}])
    preview = client.post(
        reverse("onboarding:register"), {"jurisdiction": "recife", "files": [upload], "reason": "Implantação"}
    )
    body = preview.content.decode()
    assert preview.status_code == 200 and "Prévia da importação" in body and "Confirmar a importação" in body
    assert "<td>Pessoas</td><td>1</td>" in body
    assert not Person.unscoped.filter(cpf=CPF).exists()  # the preview saves nothing
    done = client.post(reverse("onboarding:register_confirm"))
    assert "Importação gravada." in done.content.decode()
    assert Person.unscoped.get(cpf=CPF).full_name == "Pessoa da Planilha"
    again = client.post(reverse("onboarding:register_confirm"))  # the preview was used
    assert again.status_code == 302


def test_preview_lists_the_errors_and_offers_no_confirmation(world: Any, tmp_path: Path) -> None:
    client = _client(world, "gestor.recife")
    upload = _upload(tmp_path, [{"CPF": "111.111.111-12", "Nome completo": "X"}])
    preview = client.post(
        reverse("onboarding:register"), {"jurisdiction": "recife", "files": [upload], "reason": "x"}
    )
    body = preview.content.decode()
    assert (
        "nada foi gravado" in body
        and "pessoas.csv, linha 2, coluna «CPF»: CPF 111.111.111-12 inválido" in body
    )
    assert "Confirmar a importação" not in body


def test_a_file_outside_the_templates_is_refused(world: Any) -> None:
    client = _client(world, "gestor.recife")
    upload = SimpleUploadedFile("planilha.csv", b"CPF\n1\n")
    page = client.post(
        reverse("onboarding:register"), {"jurisdiction": "recife", "files": [upload], "reason": "x"}
    )
    assert "Arquivo com nome fora dos modelos: planilha.csv" in page.content.decode()


@pytest.mark.parametrize("user", ["atendente.recife", "fiscal.recife", "comissao.recife"])
def test_other_roles_are_refused(world: Any, user: str) -> None:
    client = _client(world, user)
    page = client.get(reverse("onboarding:register"))
    assert page.status_code == 403
    assert "Somente o gestor do órgão pode importar ou exportar o cadastro." in page.content.decode()
    assert client.get(reverse("onboarding:register_templates") + "?formato=csv").status_code == 403


def test_a_gestor_cannot_choose_another_agency(world: Any, tmp_path: Path) -> None:
    client = _client(world, "gestor.recife")
    upload = _upload(tmp_path, [{"CPF": CPF, "Nome completo": "X"}])
    page = client.post(
        reverse("onboarding:register"), {"jurisdiction": "esteio", "files": [upload], "reason": "x"}
    )
    assert "Faça uma escolha válida" in page.content.decode()
    assert client.get(reverse("onboarding:register_export") + "?orgao=esteio&formato=csv").status_code == 403


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_templates_and_export_download(world: Any, fmt: str) -> None:
    client = _client(world, "gestor.recife")
    response = client.get(reverse("onboarding:register_templates") + f"?formato={fmt}")
    assert response["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert f"pessoas.{fmt}" in names and f"autos.{fmt}" in names and len(names) == 11
    export = client.get(reverse("onboarding:register_export") + f"?orgao=recife&formato={fmt}")
    archive = zipfile.ZipFile(io.BytesIO(export.content))
    assert f"veiculos.{fmt}" in archive.namelist()
    if fmt == "csv":
        assert "ABA1C23" in archive.read("veiculos.csv").decode()


def test_the_pages_read_in_portuguese(world: Any, tmp_path: Path) -> None:
    """The language crawl's checker on the import page, a preview with errors and the refusal."""
    from tests.language.crawl import findings, parse_html

    for name in ("gestor.recife", "atendente.recife"):  # the header shows a user by name
        world.users[name].first_name = "Servidora"
        world.users[name].save()
    client = _client(world, "gestor.recife")
    pages = [client.get(reverse("onboarding:register")).content.decode()]
    upload = _upload(tmp_path, [{"CPF": "111.111.111-12", "Nome completo": "X"}])
    pages.append(
        client.post(
            reverse("onboarding:register"), {"jurisdiction": "recife", "files": [upload], "reason": "x"}
        ).content.decode()
    )
    pages.append(_client(world, "atendente.recife").get(reverse("onboarding:register")).content.decode())
    for html in pages:
        text, _links = parse_html(html)
        assert findings(text) == [], findings(text)
