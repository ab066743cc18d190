"""Every row lock runs inside a transaction (issue 24, defect kind "500 on the database").

`select_for_update()` outside `transaction.atomic` is a `TransactionManagementError` on PostgreSQL
only: SQLite has no row locks, so Django lets it pass there, and the tests that run inside a test
transaction never see it. A clerk issuing a CRC on PostgreSQL got "Erro no sistema" that way. This
test reads the source: a function that locks must be atomic itself, or be called (by name) only
from code that is atomic — directly, in a `with transaction.atomic()` block, or from a function
that is itself safe by the same rule."""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import lotacao

SOURCE = Path(lotacao.__file__).parent


@dataclass
class Function:
    where: str
    atomic: bool
    locks: list[int] = field(default_factory=list)


def _is_atomic(node: ast.expr) -> bool:
    return "atomic" in ast.unparse(node)


class _Reader:
    """One pass over one module: its functions, their unprotected locks and their call sites."""

    def __init__(
        self,
        path: Path,
        functions: dict[str, list[Function]],
        calls: dict[str, list[tuple[str | None, bool]]],
    ):
        self.path, self.functions, self.calls = path, functions, calls
        self.stack: list[tuple[str, Function]] = []
        self.atomic_blocks: list[bool] = []

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = Function(
                where=f"{self.path.relative_to(SOURCE.parent)}:{node.lineno} {node.name}",
                atomic=any(_is_atomic(d) for d in node.decorator_list),
            )
            self.functions[node.name].append(function)
            self.stack.append((node.name, function))
            self._children(node)
            self.stack.pop()
            return
        if isinstance(node, (ast.With, ast.AsyncWith)):
            self.atomic_blocks.append(any(_is_atomic(item.context_expr) for item in node.items))
            self._children(node)
            self.atomic_blocks.pop()
            return
        protected = any(self.atomic_blocks) or any(f.atomic for _, f in self.stack)
        if isinstance(node, ast.Attribute) and node.attr == "select_for_update" and not protected:
            if not self.stack:
                raise AssertionError(f"{self.path}:{node.lineno}: row lock at module level")
            self.stack[-1][1].locks.append(node.lineno)
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name:
                self.calls[name].append((self.stack[-1][0] if self.stack else None, protected))
        self._children(node)

    def _children(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            self.visit(child)


def _read() -> tuple[dict[str, list[Function]], dict[str, list[tuple[str | None, bool]]]]:
    functions: dict[str, list[Function]] = defaultdict(list)
    calls: dict[str, list[tuple[str | None, bool]]] = defaultdict(list)
    for path in sorted(SOURCE.rglob("*.py")):
        _Reader(path, functions, calls).visit(ast.parse(path.read_text(encoding="utf-8")))
    return functions, calls


def _unprotected_paths(
    name: str,
    calls: dict[str, list[tuple[str | None, bool]]],
    functions: dict[str, list[Function]],
    depth: int,
) -> list[str]:
    """The call chains that reach `name` from code that is not in a transaction: each call site of
    `name` is protected, or its caller is atomic, or (up to `depth` callers up) every call site of
    the caller is protected in turn. A function nobody calls by name (a view, a hook) is a root."""
    sites = calls.get(name, [])
    if not sites:
        return [name]
    if depth == 0:
        return [f"{name} (cadeia longa demais para ler)"]
    found: list[str] = []
    for caller, protected in sites:
        if protected:
            continue
        if caller is None:
            found.append(f"{name} <- módulo")
            continue
        if functions.get(caller) and all(f.atomic for f in functions[caller]):
            continue
        found += [f"{name} <- {chain}" for chain in _unprotected_paths(caller, calls, functions, depth - 1)]
    return found


def test_every_row_lock_is_inside_a_transaction() -> None:
    functions, calls = _read()
    problems = []
    for name, fs in sorted(functions.items()):
        for f in fs:
            chains = _unprotected_paths(name, calls, functions, depth=4) if f.locks and not f.atomic else []
            if chains:  # the first chain tells where; the rest are often the same name elsewhere
                problems.append(f"{f.where} (linha {', '.join(map(str, f.locks))}): {chains[0]}")
    assert not problems, "select_for_update fora de transação:\n" + "\n".join(problems)
