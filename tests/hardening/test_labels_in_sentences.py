"""A label put inside a sentence keeps its acronyms (issue 24, defect 11): "Aguardando autorização
da EPTI" read "(aguardando autorização da epti)" on the road check because the code called
`.lower()` on it. Labels go through `lotacao.core.formats.lower_first` (templates: `|minuscula`);
neither `str.lower()` on a choice's label nor Django's `|lower` filter is used anywhere."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "lotacao"
PY = re.compile(r"(_display\(\)|\.label|effective_status_label\([^()]*\))\.lower\(\)")
TEMPLATE = re.compile(r"\|lower\b")


def test_no_label_is_lowered_whole_in_python() -> None:
    found = [
        f"{path.relative_to(SRC)}:{n}"
        for path in SRC.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PY.search(line)
    ]
    assert found == [], "use lower_first(label), which keeps EPTI, CRC, CNH: " + ", ".join(found)


def test_no_template_uses_the_lower_filter() -> None:
    found = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("templates/**/*.html")
        if TEMPLATE.search(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "use |minuscula, which keeps acronyms: " + ", ".join(found)
