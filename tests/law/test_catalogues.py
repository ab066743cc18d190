"""The infraction catalogues (infractions.yaml) and law texts (text.md) of the five packs.

The catalogues are read with PyYAML directly, so these checks do not depend on the loader; the
strict loader (lotacao.law.packs) is also run on each pack when it is available.
"""

from __future__ import annotations

import importlib.util
import re
import string
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

PACKS_DIR = Path(__file__).resolve().parents[2] / "src" / "lotacao" / "packs"
PACK_IDS = ["recife", "cabo", "esteio", "marica", "pernambuco"]
MEASURES = {
    "vehicle_retention",
    "vehicle_removal",
    "vehicle_seizure",
    "document_seizure",
    "staff_removal",
    "permit_suspension",
    "credit_offset",
}
ROMAN = [
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
]


def catalogue(pack_id: str) -> dict[str, Any]:
    data = yaml.safe_load((PACKS_DIR / pack_id / "infractions.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def codes_by_group(pack_id: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for code, row in catalogue(pack_id)["infractions"].items():
        out.setdefault(row["group"], []).append(code)
    return out


def letters(first: str, last: str) -> list[str]:
    a = string.ascii_lowercase
    return list(a[a.index(first) : a.index(last) + 1])


def anchors(pack_id: str) -> set[str]:
    text = (PACKS_DIR / pack_id / "text.md").read_text(encoding="utf-8")
    ids = re.findall(r'<a id="([^"]+)"></a>', text)
    assert len(ids) == len(set(ids)), f"{pack_id}: duplicated anchors"
    return set(ids)


# --- exact code sets ---------------------------------------------------------------------------


def test_recife_codes_follow_the_anexo_unico() -> None:
    expected = {
        "1": [f"G1-{x}" for x in letters("a", "m")],
        "2": [f"G2-{x}" for x in letters("a", "z")],
        "3": [f"G3-{x}" for x in letters("a", "s")],
        "4": [f"G4-{x}" for x in letters("a", "q")],
    }
    assert codes_by_group("recife") == expected
    assert {g: len(c) for g, c in expected.items()} == {"1": 13, "2": 26, "3": 19, "4": 17}


def test_esteio_rows_per_group() -> None:
    groups = codes_by_group("esteio")
    assert {g: len(c) for g, c in groups.items()} == {"I": 4, "II": 27, "III": 31, "IV": 17, "V": 4}
    expected = {
        "I": [f"I-{n:02d}" for n in range(1, 5)],
        "II": [f"II-{n:02d}" for n in range(1, 28)],
        # the row without a code (between III-16 and III-17) is recorded as III-18
        "III": [f"III-{n:02d}" for n in [*range(1, 17), 18, 17, *range(19, 32)]],
        "IV": [f"IV-{n:02d}" for n in range(1, 18)],
        "V": [f"V-{n:02d}" for n in range(1, 5)],
    }
    assert groups == expected
    assert "note" in catalogue("esteio")["infractions"]["III-18"]


def test_pernambuco_codes_follow_anexo_i() -> None:
    expected = {
        "I": [f"I-{x}" for x in letters("a", "c")],
        "II": [f"II-{x}" for x in letters("a", "f")],
        "III": [f"III-{x}" for x in letters("a", "e")],
        "IV": [f"IV-{x}" for x in letters("a", "j")],
    }
    assert codes_by_group("pernambuco") == expected


def test_marica_conducts_of_art_42_have_no_group() -> None:
    data = catalogue("marica")
    assert data["accepts_group_only"] is True
    assert set(data["groups"]) == {"A", "B", "C"}
    assert {g: v["points"] for g, v in data["groups"].items()} == {"A": 1, "B": 2, "C": 4}
    subs = {"XIII": "abcd", "XV": "abcdef", "XIX": "abcd"}
    expected = []
    for r in ROMAN:
        expected += [f"art42-{r}-{x}" for x in subs[r]] if r in subs else [f"art42-{r}"]
    assert list(data["infractions"]) == expected
    for code, row in data["infractions"].items():
        assert row["group"] is None, code
        assert row.get("note"), code


def test_cabo_has_groups_only() -> None:
    data = catalogue("cabo")
    assert data["infractions"] == {}
    assert data["accepts_group_only"] is True
    assert set(data["groups"]) == {"leve", "media", "grave", "gravissima"}
    assert data.get("notes")


# --- row contents ------------------------------------------------------------------------------


def test_esteio_rows_are_complete() -> None:
    rows = catalogue("esteio")["infractions"]
    durations = {"months", "years"}
    for code, row in rows.items():
        for key in ("incidence", "recidivism", "measure_text", "measures"):
            assert key in row, (code, key)
        assert row["incidence"] or code == "II-05", code  # II-05: the column is empty in the text
        rec = row["recidivism"]
        assert rec is None or (isinstance(rec, dict) and set(rec) <= durations), code
        assert row["measure_text"], code
        assert set(row["measures"]) <= MEASURES, code
        if re.match(r"Não (se|de) ap[il]ica$", row["measure_text"]):
            assert row["measures"] == [], code
        else:
            assert row["measures"], code
        if "permit_suspension" in row["measures"] and re.search(r"\d+", row["measure_text"]):
            assert row["measure_days"] == int(re.search(r"(\d+)", row["measure_text"]).group(1))


def test_esteio_known_rows() -> None:
    rows = catalogue("esteio")["infractions"]
    assert rows["II-06"]["recidivism"] == {"months": 6}
    assert rows["II-06"]["measures"] == ["permit_suspension"]
    assert rows["II-06"]["measure_days"] == 30
    assert rows["IV-16"]["measure_days"] == 60
    assert rows["III-08"]["description"] == "Transportar passageiros em pé."
    assert rows["III-08"]["measures"] == ["vehicle_retention"]
    assert rows["III-22"]["measures"] == ["vehicle_retention", "staff_removal"]
    assert rows["IV-02"]["measures"] == ["credit_offset", "permit_suspension"]
    assert rows["IV-11"]["recidivism"] is None  # "Não se apiica"
    assert rows["III-15"]["recidivism"] == {"years": 1}
    assert rows["V-04"]["measures"] == ["vehicle_seizure"]


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_catalogue_entries_are_well_formed(pack_id: str) -> None:
    data = catalogue(pack_id)
    groups = data["groups"]
    for gid, g in groups.items():
        assert isinstance(gid, str) and g["label"] and g["cite"], gid
    for code, row in data["infractions"].items():
        assert row["group"] is None or row["group"] in groups, code
        assert isinstance(row["description"], str) and row["description"].strip(), code
        assert row["cite"].strip(), code
        for key in ("description", "measure_text", "note"):
            value = row.get(key) or ""
            assert "LeisMunicipais" not in value, (code, key)
            assert "  " not in value and "|" not in value, (code, key)
    assert "LeisMunicipais" not in yaml.safe_dump(data, allow_unicode=True)


def _loader() -> Any:
    if importlib.util.find_spec("lotacao.law.packs") is None:
        return None
    from lotacao.law import packs

    return packs


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_strict_loader_accepts_the_catalogue(pack_id: str) -> None:
    packs = _loader()
    if packs is None:
        pytest.skip("lotacao.law.packs not written yet")
    if not (PACKS_DIR / pack_id / "pack.yaml").exists():
        pytest.skip("pack.yaml not written yet")
    pack = packs.get_pack(pack_id)
    assert set(pack.infractions) == set(catalogue(pack_id)["infractions"])
    assert set(pack.groups) == set(catalogue(pack_id)["groups"])


# --- text.md anchors ---------------------------------------------------------------------------


def _articles(part: str) -> list[str]:
    """Article numbers a citation part names: 'art. 36, § 1º' -> ['36']; 'arts. 5º a 9º' -> ['5', '9']."""
    out: list[str] = []
    for m in re.finditer(r"\barts?\.\s*(.*?)(?=\barts?\.|$)", part):
        body = m.group(1)
        numbers = [
            n + (f"-{suffix.lower()}" if suffix else "")
            for n, suffix in re.findall(r"(?<!§ )(?<!\d)(\d+)(?:º|°)?(?:-([A-Z]))?", body)
        ]
        out += numbers if m.group(0).startswith("arts.") else numbers[:1]
    return out


def required_anchors(cite: str) -> set[str]:
    """The anchors a citation needs in text.md (article level, and the annex row or item)."""
    need: set[str] = set()
    for part in (p.strip() for p in cite.split(";")):
        if not part or part.startswith(("Lei", "Decreto")):
            continue
        prefix = "anexo-i-" if re.match(r"Anexo I,\s*arts?\.", part) else ""
        need |= {f"{prefix}art-{n}" for n in _articles(part)}
        if m := re.match(r"Anexo II, ([IV]+-\d\d)$", part):
            need.add(f"anexo-ii-{m.group(1)}")
        if m := re.match(r"Anexo II, Grupo ([IV]+)", part):
            need.add(f"anexo-ii-grupo-{m.group(1).lower()}")
        if m := re.match(r"Anexo Único, Grupo (\d), ([a-z])$", part):
            need.add(f"anexo-unico-G{m.group(1)}-{m.group(2)}")
        if m := re.match(r"Anexo I, ([IV]+)(?:, ([a-z]))?$", part):
            need.add(f"anexo-i-{m.group(1)}" + (f"-{m.group(2)}" if m.group(2) else ""))
    return need


def test_required_anchors_parses_citations() -> None:
    assert required_anchors("art. 36, § 1º, III") == {"art-36"}
    assert required_anchors("Anexo I, art. 7º, IV; art. 18, b") == {"anexo-i-art-7", "art-18"}
    assert required_anchors("arts. 31, 33, 34 e 45") == {"art-31", "art-33", "art-34", "art-45"}
    assert required_anchors("Anexo I, arts. 4º, parágrafo único, e 16; Anexo II") == {
        "anexo-i-art-4",
        "anexo-i-art-16",
    }
    assert required_anchors("art. 3º, § 4º, e art. 5º, I") == {"art-3", "art-5"}
    assert required_anchors("art. 29-A") == {"art-29-a"}
    assert required_anchors("Anexo II, III-08") == {"anexo-ii-III-08"}
    assert required_anchors("Anexo Único, Grupo 2, k") == {"anexo-unico-G2-k"}
    assert required_anchors("Anexo I, IV, g") == {"anexo-i-IV-g"}
    assert required_anchors("Lei Federal 9.784/1999, art. 66") == set()


def _cites(node: Any) -> list[str]:
    out: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "cite":
                out += [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
            else:
                out += _cites(value)
    elif isinstance(node, list):
        for value in node:
            out += _cites(value)
    return out


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_text_has_an_anchor_for_every_cited_article(pack_id: str) -> None:
    ids = anchors(pack_id)
    cites = _cites(catalogue(pack_id))
    for f in sorted((PACKS_DIR / pack_id).glob("parameters/**/*.yaml")):
        cites += _cites(yaml.safe_load(f.read_text(encoding="utf-8")))
    assert cites
    missing = {c: sorted(required_anchors(c) - ids) for c in cites if required_anchors(c) - ids}
    assert not missing, f"{pack_id}: text.md lacks anchors {missing}"


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_text_is_clean(pack_id: str) -> None:
    text = (PACKS_DIR / pack_id / "text.md").read_text(encoding="utf-8")
    assert "LeisMunicipais.com.br -" not in text
    body = text.split("\n\n", 2)[2]  # after the title and the note on the source
    assert "LeisMunicipais" not in body
    assert not re.search(r"^\d+/7$", text, flags=re.M)
    assert Counter(re.findall(r'<a id="(art-\d+)"></a>', text))  # at least one article


def test_every_catalogue_row_has_its_own_anchor() -> None:
    for code in catalogue("esteio")["infractions"]:
        assert f"anexo-ii-{code}" in anchors("esteio")
    for code in catalogue("recife")["infractions"]:
        assert f"anexo-unico-{code}" in anchors("recife")
    for code in catalogue("pernambuco")["infractions"]:
        assert f"anexo-i-{code}" in anchors("pernambuco")
    ids = anchors("marica")
    for code in catalogue("marica")["infractions"]:
        assert "art-42-" + code.removeprefix("art42-") in ids


def test_amended_wordings_are_kept() -> None:
    esteio = anchors("esteio")
    assert {"art-21", "art-21-v2", "anexo-i-art-23", "anexo-i-art-23-v2", "anexo-i-art-23-v3"} <= esteio
    text = (PACKS_DIR / "esteio" / "text.md").read_text(encoding="utf-8")
    assert text.count("(Redação dada pela Lei nº 3984/2005)") == 4
    cabo = anchors("cabo")
    assert {"art-3", "art-3-v2", "art-7", "art-13", "art-26", "secao-ii-da-permissao"} <= cabo
    assert {f"art-{n}" for n in range(1, 33)} <= cabo
