"""The register's import: what it creates, that a second run creates nothing, and each refusal
with its Portuguese message, its file, row and column — and nothing half-saved."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from lotacao.audit.models import AuditEvent
from lotacao.billing.ledger.models import Account
from lotacao.core.sample_ids import sample_cpf, sample_renavam
from lotacao.enforcement.models import InfractionNotice
from lotacao.enforcement.notices import services as notices
from lotacao.enforcement.notices.penalty import offender_history
from lotacao.onboarding.register.files import write_templates
from lotacao.permits.models import Ban, Permit
from lotacao.registry.models import Holder, Person, Vehicle
from tests.onboarding.register_helpers import jurisdiction, messages, run, write

pytestmark = pytest.mark.django_db

CPF = [sample_cpf(410_000_000 + n) for n in range(8)]


def _register(directory: Path, *, n: int = 2, code: str = "recife") -> None:
    """n persons, each a holder with a van and a live permit."""
    write(
        directory,
        "pessoas",
        [
            {"CPF": CPF[i], "Nome completo": f"Pessoa {i}", "Data de nascimento": "01/02/1980"}
            for i in range(n)
        ],
    )
    write(directory, "permissionarios", [{"CPF ou CNPJ": CPF[i]} for i in range(n)])
    write(
        directory,
        "veiculos",
        [
            {
                "Placa": f"KGM{i}D23",
                "RENAVAM": sample_renavam(500 + i),
                "Ano de fabricação": "2024",
                "Categoria": "Van / kombi",
                "Lugares (com motorista e cobrador)": "16",
                "Portas": "4",
                "CPF ou CNPJ do permissionário": CPF[i],
            }
            for i in range(n)
        ],
    )
    write(
        directory,
        "permissoes",
        [
            {
                "Número": f"{i + 1:03d}/2024",
                "CPF ou CNPJ do permissionário": CPF[i],
                "Placa": f"KGM{i}D23",
                "Situação": "Ativa",
                "Outorgada em": "01/03/2024",
                "Válida até": "28/02/2034",
            }
            for i in range(n)
        ],
    )


def test_import_creates_the_register_and_a_second_run_creates_nothing(tmp_path: Path) -> None:
    _register(tmp_path)
    first = run(tmp_path)
    assert first.errors == [] and first.saved
    assert first.created == {"pessoas": 2, "permissionarios": 2, "veiculos": 2, "permissoes": 2}
    permit = Permit.unscoped.get(number="001/2024")
    assert permit.status == "active" and permit.vehicle is not None and permit.vehicle.plate == "KGM0D23"
    assert permit.holder.person is not None and permit.holder.person.cpf == CPF[0]
    assert Account.unscoped.filter(holder=permit.holder).exists()  # enrolled for the fees, as a grant does
    person = Person.unscoped.get(cpf=CPF[0])
    assert person.name_search == "pessoa 0"
    events = AuditEvent.objects.filter(action="person.imported", object_id=str(person.pk))
    assert events.count() == 1 and "pessoas.csv (SHA-256 " in events.get().reason
    assert AuditEvent.objects.filter(action="register.imported").count() == 1

    second = run(tmp_path)
    assert second.errors == []
    assert sum(second.created.values()) == 0 and sum(second.updated.values()) == 0
    assert second.unchanged == {"pessoas": 2, "permissionarios": 2, "veiculos": 2, "permissoes": 2}
    assert Person.unscoped.count() == 2 and Permit.unscoped.count() == 2


def test_dry_run_counts_and_saves_nothing_then_an_edit_is_an_update(tmp_path: Path) -> None:
    _register(tmp_path)
    preview = run(tmp_path, dry_run=True)
    assert preview.created["permissoes"] == 2 and not preview.saved
    assert Person.unscoped.count() == 0 and AuditEvent.objects.count() == 0
    run(tmp_path)
    write(
        tmp_path,
        "pessoas",
        [
            {"CPF": CPF[0], "Nome completo": "Pessoa Zero Renomeada", "Data de nascimento": "01/02/1980"},
            {"CPF": CPF[1], "Nome completo": "Pessoa 1", "Data de nascimento": "01/02/1980"},
        ],
    )
    again = run(tmp_path)
    assert again.updated["pessoas"] == 1 and again.unchanged["pessoas"] == 1
    person = Person.unscoped.get(cpf=CPF[0])
    assert person.full_name == "Pessoa Zero Renomeada" and person.name_search == "pessoa zero renomeada"
    event = AuditEvent.objects.get(action="person.import_updated")
    assert event.before == {"full_name": "Pessoa 0", "name_search": "pessoa 0"}


def _refused(tmp_path: Path, expected: str, **kwargs: Any) -> list[str]:
    report = run(tmp_path, **kwargs)
    found = messages(report)
    assert any(expected in m for m in found), found
    assert not report.saved
    return found


def test_bad_cpf_is_refused_by_file_row_and_column_and_nothing_is_saved(tmp_path: Path) -> None:
    _register(tmp_path)
    write(
        tmp_path,
        "pessoas",
        [
            {"CPF": CPF[0], "Nome completo": "Boa"},
            {"CPF": CPF[1], "Nome completo": "Boa também"},
            {"CPF": "123.456.789-00", "Nome completo": "Ruim"},
        ],
    )
    found = _refused(
        tmp_path,
        "pessoas.csv, linha 4, coluna «CPF»: CPF 123.456.789-00 inválido: dígito verificador não confere.",
    )
    assert len(found) == 1
    assert Person.unscoped.count() == 0 and Vehicle.unscoped.count() == 0 and AuditEvent.objects.count() == 0


def test_duplicate_plate_in_the_file_and_against_the_database(tmp_path: Path) -> None:
    _register(tmp_path)
    assert run(tmp_path).saved
    write(
        tmp_path / "b",
        "veiculos",
        [
            {
                "Placa": "QWE1R23",
                "Ano de fabricação": "2024",
                "Categoria": "Van / kombi",
                "Lugares (com motorista e cobrador)": "16",
                "Portas": "4",
            },
            {
                "Placa": "QWE-1R23",
                "Ano de fabricação": "2023",
                "Categoria": "Van / kombi",
                "Lugares (com motorista e cobrador)": "16",
                "Portas": "4",
            },
            {
                "Placa": "KGM0D23",
                "RENAVAM": sample_renavam(999),
                "Ano de fabricação": "2024",
                "Categoria": "Van / kombi",
                "Lugares (com motorista e cobrador)": "16",
                "Portas": "4",
            },
        ],
    )
    found = _refused(
        tmp_path / "b", "veiculos.csv, linha 3, coluna «Placa»: Placa QWE1R23 repetido neste arquivo."
    )
    assert any(
        m.startswith(
            "veiculos.csv, linha 4, coluna «Placa»: "
            "A placa KGM0D23 já está cadastrada em Recife com outro RENAVAM"
        )
        for m in found
    ), found
    assert not Vehicle.unscoped.filter(plate="QWE1R23").exists()


def test_unknown_and_missing_columns(tmp_path: Path) -> None:
    write(tmp_path, "pessoas", [{"CPF": CPF[0], "Apelido": "Zé"}], headers=["CPF", "Apelido"])
    found = _refused(tmp_path, "pessoas.csv, linha 1, coluna «Apelido»: Coluna desconhecida.")
    assert "pessoas.csv, linha 1, coluna «Nome completo»: Coluna obrigatória ausente." in found
    assert Person.unscoped.count() == 0


def test_a_bad_date_names_the_format(tmp_path: Path) -> None:
    _register(tmp_path)
    write(
        tmp_path,
        "pessoas",
        [
            {"CPF": CPF[0], "Nome completo": "A", "Data de nascimento": "31/02/1980"},
            {"CPF": CPF[1], "Nome completo": "B"},
        ],
    )
    _refused(
        tmp_path,
        "pessoas.csv, linha 2, coluna «Data de nascimento»: "
        "Data 31/02/1980 inválida: use o formato dd/mm/aaaa",
    )
    assert Person.unscoped.count() == 0 and Permit.unscoped.count() == 0


def test_a_permit_for_a_banned_person_is_refused(tmp_path: Path) -> None:
    _register(tmp_path, n=1)
    (tmp_path / "permissoes.csv").unlink()  # the holder first, without the permit
    assert run(tmp_path).saved
    person = Person.unscoped.get(cpf=CPF[0])
    Ban.unscoped.create(
        jurisdiction_id="recife",
        person=person,
        cause="revocation",
        starts_on=dt.date(2023, 1, 1),
        ends_on=dt.date(2028, 1, 1),
        citation="art. 40 (teste)",
    )
    _register(tmp_path, n=1)
    found = _refused(
        tmp_path,
        "permissoes.csv, linha 2, coluna «CPF ou CNPJ do permissionário»: "
        "CPF em período de impedimento até 01/01/2028",
    )
    assert "art. 40 (teste)" in found[0]
    assert Permit.unscoped.count() == 0


def test_a_permit_beyond_the_quota_is_refused(tmp_path: Path) -> None:
    """Esteio: at most 5 permits per holder (art. 21, parágrafo único) — the sixth row is refused."""
    write(
        tmp_path,
        "pessoas",
        [{"CPF": CPF[0], "Nome completo": "Frotista", "Data de nascimento": "01/01/1970"}],
    )
    write(tmp_path, "permissionarios", [{"CPF ou CNPJ": CPF[0]}])
    write(
        tmp_path,
        "veiculos",
        [
            {
                "Placa": f"IJK{i}A23",
                "Ano de fabricação": "2024",
                "Categoria": "Van / kombi",
                "Lugares (com motorista e cobrador)": "16",
                "Portas": "4",
                "CPF ou CNPJ do permissionário": CPF[0],
            }
            for i in range(6)
        ],
    )
    write(
        tmp_path,
        "permissoes",
        [
            {
                "Número": f"E-{i}",
                "CPF ou CNPJ do permissionário": CPF[0],
                "Placa": f"IJK{i}A23",
                "Situação": "Ativa",
                "Outorgada em": "01/03/2024",
                "Válida até": "28/02/2034",
            }
            for i in range(6)
        ],
    )
    found = _refused(tmp_path, "permissoes.csv, linha 7, coluna «Situação»: Cota atingida:", code="esteio")
    assert len(found) == 1 and "art. 21" in found[0]
    assert Permit.unscoped.count() == 0 and Holder.unscoped.count() == 0


def test_holder_kind_the_law_does_not_allow(tmp_path: Path) -> None:
    write(tmp_path, "empresas", [{"CNPJ": "11.222.333/0001-81", "Razão social": "Empresa Ltda."}])
    write(tmp_path, "permissionarios", [{"CPF ou CNPJ": "11.222.333/0001-81"}])
    _refused(
        tmp_path,
        "permissionarios.csv, linha 2, coluna «CPF ou CNPJ»: "
        "Em Recife, pessoa jurídica não pode ter permissão",
    )


def test_imported_final_notices_count_as_the_offenders_history(tmp_path: Path) -> None:
    """Esteio, art. 18, parágrafo único: clandestine transport is doubled on recidivism (same
    plate); the imported final decision is the earlier offence."""
    kwargs: dict[str, Any] = {
        "actor": None,
        "jurisdiction": jurisdiction("esteio"),
        "offender_kind": "unlicensed",
        "plate": "KLM2N34",
        "offender_name": "Sem Cadastro",
        "place": "Rodoviária",
        "drawn_up_at": dt.datetime(2025, 7, 16, 10, 0, tzinfo=dt.UTC),
    }
    before = notices.prepare_notice(**{k: v for k, v in kwargs.items() if k != "actor"})
    assert before.penalty["penalties"] == [{"type": "fine", "units": "2000", "unit": "UFRM"}]
    write(
        tmp_path,
        "autos",
        [
            {
                "Número": "ANTIGO-1",
                "Data e hora": "16/06/2025 09:00",
                "Infrator": "Transporte clandestino",
                "Placa": "KLM-2N34",
                "Nome do infrator": "Sem Cadastro",
                "Local": "Rodoviária",
                "Situação": "Decisão definitiva",
                "Notificado em": "17/06/2025",
            },
        ],
    )
    report = run(tmp_path, code="esteio")
    assert report.errors == [] and report.created == {"autos": 1}
    imported = InfractionNotice.unscoped.get(number="ANTIGO-1")
    assert imported.status == "decided_final" and imported.inspector is None
    again = notices.draw_up_notice(**kwargs)
    assert [h["status"] for h in offender_history(again)] == ["final"]
    assert again.penalty["penalties"] == [{"type": "fine", "units": "4000", "unit": "UFRM"}]
    assert run(tmp_path, code="esteio").unchanged == {"autos": 1}


def test_command_json_prints_exactly_the_counts(tmp_path: Path) -> None:
    jurisdiction()
    _register(tmp_path)
    out = StringIO()
    call_command(
        "import_register",
        "--jurisdiction",
        "recife",
        "--dir",
        str(tmp_path),
        "--dry-run",
        "--json",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    assert set(data) == {"created", "updated", "unchanged", "errors"}
    assert data["created"]["permissoes"] == 2 and data["errors"] == []
    assert Person.unscoped.count() == 0
    write(tmp_path, "pessoas", [{"CPF": "1", "Nome completo": "X"}])
    out = StringIO()
    with pytest.raises(CommandError, match="nada foi gravado"):
        call_command(
            "import_register", "--jurisdiction", "recife", "--dir", str(tmp_path), "--json", stdout=out
        )
    error = json.loads(out.getvalue())["errors"][0]
    assert error == {
        "file": "pessoas.csv",
        "row": 2,
        "column": "CPF",
        "message": "CPF 1 inválido: deve ter 11 dígitos.",
    }


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_templates_import_in_every_format(tmp_path: Path, fmt: str) -> None:
    """The downloadable templates' example rows are themselves a valid register (a dry run)."""
    write_templates(tmp_path, fmt)
    report = run(tmp_path, dry_run=True)
    assert report.errors == [], messages(report)
    assert all(n == 1 for name, n in report.created.items() if name != "permissionarios"), report.created
