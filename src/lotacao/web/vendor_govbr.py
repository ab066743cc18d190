"""Rebuild the vendored gov.br Design System component CSS (static/govbr/core-components.min.css)
from the npm package `@govbr-ds/core` (MIT), so what we serve is the DS's own files, byte for byte,
and the way they were picked can be repeated:

    cd /tmp && npm pack @govbr-ds/core@3.7.0 && tar xzf govbr-ds-core-3.7.0.tgz
    .venv/bin/python -m lotacao.web.vendor_govbr /tmp/package

It concatenates the minified CSS of the components our screens use (COMPONENTS) and, from the
DS's base stylesheet (`core-base.css`), the element rules of plain tables (the DS draws its
tables' rows, header and padding there, not in the `br-table` component), with the source-map
comments removed. Nothing else is changed."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

COMPONENTS = ("button", "input", "textarea", "select", "table", "message", "breadcrumb")
TARGET = Path(__file__).parent / "static" / "govbr" / "core-components.min.css"
# The base stylesheet's table rules: from "table {" up to the label rules that follow them.
TABLE_START = "\ntable {\n"
TABLE_END = "\nlabel,\n.label {\n"


def build(package: Path) -> str:
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    dist = package / "dist"
    parts = [
        f"/* @govbr-ds/core {version} (MIT, SERPRO): {', '.join(COMPONENTS)} and the base table rules */"
    ]
    base = (dist / "core-base.css").read_text(encoding="utf-8")
    start, end = base.index(TABLE_START), base.index(TABLE_END)
    parts.append(re.sub(r"\s*\n\s*", " ", base[start:end]).strip())
    for name in COMPONENTS:
        css = (dist / "components" / name / f"{name}.min.css").read_text(encoding="utf-8")
        parts.append(re.sub(r"/\*# sourceMappingURL=[^*]*\*/", "", css).strip())
    return "\n".join(parts) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("uso: python -m lotacao.web.vendor_govbr <pasta do pacote @govbr-ds/core>", file=sys.stderr)
        return 2
    TARGET.write_text(build(Path(argv[0])), encoding="utf-8")
    print(f"{TARGET} ({TARGET.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
