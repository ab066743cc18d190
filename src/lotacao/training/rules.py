"""What the law says about training, read from the packs (no jurisdiction names here).

- `document_requirement(code, role, document_code, on)`: the required document a course's
  certificate stands for (`documents.<role>`: Recife art. 7º, VI; Cabo art. 6º, § 2º, c);
- `sanction_courses(code, on)`: whether the law imposes a course by final decision
  (`training.sanction_course`: Cabo's Curso Especial de Reeducação at 100 points; Maricá's curso de
  atualização, art. 52);
- `min_attendance(code, on)`: the minimum attendance (`training.min_attendance`), an agency value
  where the law leaves it open.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from lotacao.core.law import entry, pack_for
from lotacao.documents.rules import ROLE_LABELS, Requirement, requirements

SANCTION_COURSE = "training.sanction_course"
MIN_ATTENDANCE = "training.min_attendance"


def document_requirement(code: str, role: str, document_code: str, on: dt.date) -> Requirement | None:
    rules = requirements(code, role, on)
    if not rules.defined:
        return None
    return next((item for item in rules.items if item.code == document_code), None)


def training_documents(code: str, role: str, on: dt.date) -> list[Requirement]:
    """The required documents of `role` that a course certificate can stand for (the pack's
    `training_certificate` items: the law asks for a course's certificate)."""
    rules = requirements(code, role, on)
    if not rules.defined:
        return []
    return [item for item in rules.items if item.code.startswith("training_")]


def sanction_courses(code: str, on: dt.date) -> str:
    """The citation of the law's course imposed by final decision, or "" where it has none."""
    found = entry(code, SANCTION_COURSE, on)
    if found is None or found.status != "value" or not found.value:
        return ""
    return found.citation


@dataclass(frozen=True)
class MinAttendance:
    percent: int | None
    citation: str
    reason: str


def min_attendance(code: str, on: dt.date) -> MinAttendance:
    pack = pack_for(code)
    if not pack.has(MIN_ATTENDANCE):
        return MinAttendance(None, pack.law, f"A {pack.law} não trata de cursos de capacitação.")
    found = entry(code, MIN_ATTENDANCE, on)
    if found is None or found.status != "value":
        why = found.reason if found is not None and found.reason else "valor não definido"
        return MinAttendance(
            None,
            found.citation if found is not None else pack.law,
            f"A frequência mínima não está definida: {why} O gestor do órgão precisa informá-la em "
            "Valores da lei.",
        )
    return MinAttendance(int(found.value), found.citation, "")


def role_label(role: str) -> str:
    return ROLE_LABELS.get(role, role)
