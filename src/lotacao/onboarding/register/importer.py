"""The import: the folder's files kind by kind in one transaction — all or nothing per run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import transaction

from lotacao.audit.services import record
from lotacao.core.models import Jurisdiction
from lotacao.onboarding.register import other_kinds, permit_kinds, registry_kinds
from lotacao.onboarding.register.files import FileError, find_file, sha256
from lotacao.onboarding.register.run import Report, Run
from lotacao.onboarding.register.spec import KINDS

DEFAULT_REASON = "Importação do cadastro existente"

WRITERS: dict[str, Callable[[Run, Path], None]] = {
    "pessoas": registry_kinds.import_persons,
    "empresas": registry_kinds.import_companies,
    "permissionarios": registry_kinds.import_holders,
    "linhas": other_kinds.import_lines,
    "veiculos": registry_kinds.import_vehicles,
    "seguros": other_kinds.import_insurance,
    "permissoes": permit_kinds.import_permits,
    "prepostos": other_kinds.import_agents,
    "vistorias": other_kinds.import_inspections,
    "autos": other_kinds.import_notices,
    "debitos": other_kinds.import_debts,
}


class _Rollback(Exception):
    pass


def import_register(
    *,
    jurisdiction: Jurisdiction,
    directory: Path,
    actor: Any,
    reason: str = DEFAULT_REASON,
    dry_run: bool = False,
) -> Report:
    """Read every kind's file in `directory` and write what it holds into `jurisdiction`.

    Nothing is saved on a dry run or when any row is refused: the report then says what would be
    created, updated and left unchanged, and every error with its file, row and column."""
    report = Report(dry_run=dry_run)
    if not reason.strip():
        reason = DEFAULT_REASON
    paths: list[tuple[str, Path]] = []
    for kind in KINDS:
        try:
            path = find_file(directory, kind)
        except FileError as error:
            report.errors.append(_file_problem(kind.name, str(error)))
            continue
        if path is not None:
            paths.append((kind.name, path))
    if not paths and not report.errors:
        names = ", ".join(f"{k.name}.csv" for k in KINDS)
        report.errors.append(
            _file_problem("", f"Nenhum arquivo do cadastro na pasta (esperados: {names}, ou .xlsx / .ods).")
        )
    if report.errors:
        return report
    try:
        with transaction.atomic():
            run = Run(jurisdiction=jurisdiction, actor=actor, reason=reason, report=report)
            for name, path in paths:
                run.kind = next(k for k in KINDS if k.name == name)
                run.file = path.name
                run.file_hash = sha256(path)
                report.files[path.name] = run.file_hash
                report.start(name)
                try:
                    WRITERS[name](run, path)
                except FileError as error:
                    run.error(None, "", str(error))
            if report.errors or dry_run:
                raise _Rollback
            record(
                actor=run.actor,
                action="register.imported",
                instance=jurisdiction,
                reason=reason,
                after={"arquivos": report.files, **report.as_json()},
            )
            report.saved = True
    except _Rollback:
        pass
    return report


def _file_problem(name: str, message: str) -> Any:
    from lotacao.onboarding.register.run import Problem

    return Problem(name, None, "", message)
