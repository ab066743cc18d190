"""YAML with line numbers: the reader behind the pack loader's "file, line: problem" errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lotacao.law.errors import PackError


class LineDict(dict[Any, Any]):
    """A YAML mapping that remembers its own line and the line of each key (1-based)."""

    line: int
    lines: dict[Any, int]

    def line_of(self, key: Any) -> int:
        return self.lines.get(key, self.line)


_LOADER: Any = None


def _loader_class() -> Any:
    """The YAML loader (imported on first use: a cached pack needs no YAML at all)."""
    global _LOADER
    if _LOADER is None:
        import yaml

        base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

        class _Loader(base):  # type: ignore[misc]
            pass

        _Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
        _LOADER = _Loader
    return _LOADER


def _construct_mapping(loader: Any, node: Any) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise PackError(
                str(node.start_mark.name), key_node.start_mark.line + 1, "chave não pode ser lista/mapa"
            ) from None
        if key in result:
            raise PackError(
                str(node.start_mark.name), key_node.start_mark.line + 1, f"chave repetida: {key!r}"
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def read_yaml(path: Path) -> Any:
    """Parse one YAML file; mappings become :class:`LineDict`. Syntax errors become PackError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PackError(str(path), 0, f"não foi possível ler o arquivo: {exc.strerror}") from None
    import yaml

    try:
        loader = _loader_class()(text)
        loader.name = str(path)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except PackError as exc:
        raise PackError(str(path), exc.line, exc.message) from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 0
        raise PackError(str(path), line, f"YAML inválido: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise PackError(str(path), 0, f"YAML inválido: {exc}") from None
