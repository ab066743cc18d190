"""Print docs/rules.md from the packs: per law, every interpretation and every undefined value.

    python -m lotacao.law.rulesdoc > docs/rules.md

The test suite checks that the committed docs/rules.md is what this prints.
"""

from __future__ import annotations

import datetime as dt
import sys

from lotacao.law.packs import Entry, Pack, Parameter, available_packs, get_pack

HEADER = """\
# As regras de cada lei: interpretações e lacunas

Gerado a partir dos pacotes (`src/lotacao/packs/`) por `python -m lotacao.law.rulesdoc`; não edite
à mão. Para cada lei: as **interpretações** adotadas (o trecho do texto, a leitura que o motor faz e
as alternativas — cada uma é um parâmetro do pacote, que o órgão pode trocar) e os **valores
indefinidos** (o que o texto disponível deixa em aberto: o motor nunca os inventa; os resultados
que precisam deles os listam em `missing_parameters`, e o órgão pode informá-los com o ato que os
fixou).
"""


def _fmt(day: dt.date) -> str:
    return day.strftime("%d/%m/%Y")


def _period(param: Parameter, entry: Entry) -> str:
    index = param.entries.index(entry)
    if index + 1 < len(param.entries):
        end = param.entries[index + 1].start - dt.timedelta(days=1)
        return f"de {_fmt(entry.start)} a {_fmt(end)}"
    return f"desde {_fmt(entry.start)}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def rule_readings(param: Parameter) -> list[tuple[str, str]]:
    """The readings of the rules of a rule list (penalty.rules.*, penalty.measures), with their
    articles, each once, in the order of the dated entries."""
    out: dict[tuple[str, str], None] = {}
    for entry in param.entries:
        if entry.status != "value" or not isinstance(entry.value, list):
            continue
        for rule in entry.value:
            if isinstance(rule, dict) and isinstance(rule.get("reading"), str):
                cite = rule.get("cite")
                cites = "; ".join(cite) if isinstance(cite, list) else str(cite or "")
                out[(cites, rule["reading"])] = None
    return list(out)


def render_pack(pack: Pack) -> list[str]:
    out = [f"## {pack.name} — {pack.law}", ""]
    out.append(
        f"*{_one_line(pack.law_title)}.* Órgão: {pack.agency}. Vigência no pacote desde {_fmt(pack.start)}."
    )
    out.append("")
    if pack.notes:
        out += [f"> {_one_line(pack.notes)}", ""]
    params = list(pack.iter_parameters())

    interpreted = [p for p in params if p.interpretation is not None or rule_readings(p)]
    out += [f"### Interpretações ({len(interpreted)})", ""]
    if not interpreted:
        out += ["Nenhuma.", ""]
    for param in interpreted:
        interp = param.interpretation
        cites = "; ".join(dict.fromkeys(e.citation for e in param.entries))
        out.append(f"- **`{param.name}`** — {_one_line(param.description)} ({cites})")
        if interp is not None:
            out.append(f"  - Texto: “{_one_line(interp.quote)}”")
            out.append(f"  - Leitura adotada: {_one_line(interp.reading)}")
            if interp.summary:
                out.append(f"  - Em uma frase, no resultado: {_one_line(interp.summary)}")
            for alt in interp.alternatives:
                out.append(f"  - Alternativa: {_one_line(alt)}")
        for cite, reading in rule_readings(param):
            out.append(f"  - Regra ({cite}): {_one_line(reading)}")
    out.append("")

    gaps = [(p, e) for p in params for e in p.entries if e.status == "undefined"]
    out += [f"### Valores indefinidos ({len(gaps)})", ""]
    if not gaps:
        out += ["Nenhum.", ""]
    for param, entry in gaps:
        out.append(
            f"- **`{param.name}`** ({_period(param, entry)}) — {_one_line(param.description)}. "
            f"{_one_line(entry.reason or '')} ({entry.citation})"
        )
    out.append("")

    repealed = [(p, e) for p in params for e in p.entries if e.status == "repealed"]
    if repealed:
        out += [f"### Regras sem vigência em algum período ({len(repealed)})", ""]
        for param, entry in repealed:
            out.append(
                f"- **`{param.name}`** ({_period(param, entry)}) — {_one_line(entry.reason or '')} "
                f"({entry.citation})"
            )
        out.append("")

    ungrouped = sorted(code for code, row in pack.infractions.items() if row.group is None)
    if ungrouped:
        out += [
            f"### Infrações sem grupo no texto ({len(ungrouped)})",
            "",
            "O grupo destas condutas é atribuído pelo órgão (informado no caso): "
            + ", ".join(ungrouped)
            + ".",
            "",
        ]
    return out


def render(pack_ids: list[str] | None = None) -> str:
    lines = [HEADER]
    for pack_id in pack_ids or available_packs():
        lines += render_pack(get_pack(pack_id))
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
