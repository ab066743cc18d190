"""The two errors of the engine: a bad case (the caller's fault) and a bad pack (ours)."""

from __future__ import annotations


class CaseError(Exception):
    """A case the engine cannot answer: `code` (stable id), `message` (pt-BR), `field` (dotted path)."""

    def __init__(self, code: str, message: str, field: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "field": self.field}

    def __repr__(self) -> str:
        return f"CaseError({self.code!r}, {self.message!r}, {self.field!r})"


class PackError(Exception):
    """A pack that breaks the format of docs/packs.md: the file, the line (1-based; 0 if unknown)."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file = file
        self.line = line
        self.message = message
