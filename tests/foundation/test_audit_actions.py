"""Every audit action is declared once with its Portuguese label; an undeclared one is refused."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

from lotacao.audit import actions
from lotacao.audit.models import AuditEvent
from lotacao.audit.services import record
from lotacao.core.models import Jurisdiction

SRC = pathlib.Path(actions.__file__).resolve().parents[1]
SNAKE = re.compile(r"[a-z]+_[a-z_]+|[a-z]+\.[a-z]+")


@pytest.mark.django_db
def test_writing_an_undeclared_action_is_refused_and_writes_nothing() -> None:
    jurisdiction = Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU")
    before = AuditEvent.unscoped.count()
    with pytest.raises(actions.UndeclaredAuditAction):
        record(actor=None, action="enforcement.something_new", instance=jurisdiction, reason="teste")
    assert AuditEvent.unscoped.count() == before


def test_generic_actions_are_declared_for_every_model_and_no_other() -> None:
    assert actions.label("vehicle.created") == "cadastro"
    assert actions.label("permit.updated") == "alteração"
    assert not actions.is_declared("nosuchmodel.created")


def test_labels_are_plain_portuguese() -> None:
    for action, text in actions.choices():
        assert text and not SNAKE.search(text.replace("gov.br", "govbr")), (action, text)  # a name
    assert len({a for a, _ in actions.choices()}) == len(actions.choices())


def test_every_action_literal_in_the_code_is_declared() -> None:
    """A static walk: each `action="…"` keyword in src/ that looks like an audit action."""
    found: dict[str, str] = {}
    for path in SRC.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.keyword) and node.arg == "action":
                value = node.value
                if isinstance(value, ast.Constant) and isinstance(value.value, str) and "." in value.value:
                    found[value.value] = str(path)
    assert found, "the walk found no action at all"
    undeclared = {a: p for a, p in found.items() if not actions.is_declared(a)}
    assert not undeclared, undeclared
