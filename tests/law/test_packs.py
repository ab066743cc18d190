"""The strict pack loader: it refuses what docs/packs.md does not allow, naming file and line."""

from __future__ import annotations

import datetime as dt
import shutil
import textwrap
from pathlib import Path

import pytest
from tests import clock

from lotacao.law.deadline import COUNTINGS
from lotacao.law.errors import CaseError, PackError
from lotacao.law.packs import PACKS_DIR, available_packs, get_pack, load_pack

PACK_YAML = """\
id: demo
name: Demo
state: PE
law: Lei Municipal 1/2000 (Demo)
law_title: "Lei nº 1, de 1º de janeiro de 2000"
agency: Órgão
calendar: {country: BR, subdivision: PE}
timezone: America/Recife
start: 2000-01-01
"""

INFRACTIONS = """\
groups:
  "1": {label: "Grupo 1", cite: "art. 10, I"}
infractions:
  G1-a: {group: "1", description: "Uma conduta", cite: "Anexo, a"}
accepts_group_only: false
"""

GOOD_PARAM = """\
description: Valor base
type: money
unit: BRL
values:
  2000-01-01:
    value: "50.00"
    cite: art. 36
  2010-01-01:
    undefined: "O texto remete a um anexo ausente."
    cite: art. 37
"""


def make_pack(tmp_path: Path, params: dict[str, str], infractions: str | None = INFRACTIONS) -> Path:
    root = tmp_path / "demo"
    (root / "parameters").mkdir(parents=True)
    (root / "pack.yaml").write_text(PACK_YAML, encoding="utf-8")
    if infractions is not None:
        (root / "infractions.yaml").write_text(infractions, encoding="utf-8")
    for name, text in params.items():
        file = root / "parameters" / (name.replace(".", "/") + ".yaml")
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def refusal(root: Path) -> PackError:
    with pytest.raises(PackError) as info:
        load_pack(root)
    return info.value


@pytest.mark.parametrize("pack_id", ["recife", "cabo", "esteio", "marica", "pernambuco"])
def test_it_loads_each_of_the_five_packs(pack_id: str) -> None:
    pack = load_pack(PACKS_DIR / pack_id)
    assert pack.id == pack_id
    assert pack.parameters, "a pack without parameters"
    assert pack.law and pack.start <= clock.today()
    for param in pack.parameters.values():
        for entry in param.entries:
            assert entry.citation.startswith(("Lei", "Decreto")), entry.citation


def test_the_five_packs_are_available() -> None:
    assert {"recife", "cabo", "esteio", "marica", "pernambuco"} <= set(available_packs())


def test_it_loads_a_good_pack_and_resolves_dates(tmp_path: Path) -> None:
    pack = load_pack(make_pack(tmp_path, {"penalty.base_fine": GOOD_PARAM}))
    entry = pack.resolve("penalty.base_fine", dt.date(2009, 12, 31))
    assert (entry.status, entry.value) == ("value", "50.00")
    assert entry.citation == "Lei Municipal 1/2000 (Demo), art. 36"
    later = pack.resolve("penalty.base_fine", dt.date(2010, 1, 1))
    assert later.status == "undefined" and later.reason
    with pytest.raises(CaseError):
        pack.resolve("penalty.base_fine", dt.date(1999, 12, 31))


def test_it_refuses_an_unknown_key(tmp_path: Path) -> None:
    bad = GOOD_PARAM.replace("unit: BRL", "unit: BRL\nunits: BRL")
    err = refusal(make_pack(tmp_path, {"penalty.base_fine": bad}))
    assert err.file.endswith("penalty/base_fine.yaml")
    assert err.line == 4 and "units" in err.message


def test_it_refuses_an_unknown_key_in_an_entry(tmp_path: Path) -> None:
    bad = GOOD_PARAM.replace("    cite: art. 36", "    cite: art. 36\n    source: DOM")
    err = refusal(make_pack(tmp_path, {"penalty.base_fine": bad}))
    assert err.line == 8 and "source" in err.message


def test_it_refuses_a_value_without_citation(tmp_path: Path) -> None:
    bad = GOOD_PARAM.replace("    cite: art. 36\n", "")
    err = refusal(make_pack(tmp_path, {"penalty.base_fine": bad}))
    assert err.line == 6 and "cite" in err.message


def test_it_refuses_an_empty_citation(tmp_path: Path) -> None:
    bad = GOOD_PARAM.replace("cite: art. 36", 'cite: ""')
    err = refusal(make_pack(tmp_path, {"penalty.base_fine": bad}))
    assert err.line == 7


def test_it_refuses_unordered_dates(tmp_path: Path) -> None:
    text = """\
    description: x
    type: integer
    values:
      2000-01-01: {value: 1, cite: art. 1}
      2005-01-01: {value: 2, cite: art. 2}
      2003-01-01: {value: 3, cite: art. 3}
    """
    err = refusal(make_pack(tmp_path, {"law.x": text}))
    assert err.line == 6 and "fora de ordem" in err.message


def test_it_refuses_overlapping_dates(tmp_path: Path) -> None:
    text = """\
    description: x
    type: integer
    values:
      2000-01-01: {value: 1, cite: art. 1}
      2000-01-01: {value: 2, cite: art. 2}
    """
    err = refusal(make_pack(tmp_path, {"law.x": text}))
    assert err.line == 5 and "repetida" in err.message


def test_it_refuses_a_first_date_after_the_law_start(tmp_path: Path) -> None:
    text = """\
    description: x
    type: integer
    values:
      2001-01-01: {value: 1, cite: art. 1}
    """
    err = refusal(make_pack(tmp_path, {"law.x": text}))
    assert err.line == 4 and "repealed" in err.message


def test_it_refuses_two_statuses_in_one_entry(tmp_path: Path) -> None:
    text = """\
    description: x
    type: integer
    values:
      2000-01-01: {value: 1, undefined: "?", cite: art. 1}
    """
    err = refusal(make_pack(tmp_path, {"law.x": text}))
    assert err.line == 4


def test_it_refuses_a_value_of_the_wrong_type(tmp_path: Path) -> None:
    bad = GOOD_PARAM.replace('value: "50.00"', "value: 50.00")
    err = refusal(make_pack(tmp_path, {"penalty.base_fine": bad}))
    assert err.line == 6 and "decimal" in err.message


def test_it_refuses_an_undefined_group_in_the_catalogue(tmp_path: Path) -> None:
    bad = INFRACTIONS.replace('group: "1"', 'group: "2"')
    err = refusal(make_pack(tmp_path, {}, bad))
    assert err.file.endswith("infractions.yaml") and err.line == 4 and "2" in err.message


def test_it_refuses_an_undefined_code_referenced_by_a_parameter(tmp_path: Path) -> None:
    text = """\
    description: Infrações sem reincidência
    type: list
    schema: infractions
    values:
      2000-01-01:
        value: [G1-a, G9-z]
        cite: art. 5
    """
    err = refusal(make_pack(tmp_path, {"penalty.no_recidivism": text}))
    assert err.line == 6 and "G9-z" in err.message


def test_it_refuses_an_undefined_group_referenced_by_a_parameter(tmp_path: Path) -> None:
    text = """\
    description: Multiplicador por grupo
    type: mapping
    schema: groups
    values:
      2000-01-01:
        value: {"1": 1, "7": 7}
        cite: art. 5
    """
    err = refusal(make_pack(tmp_path, {"penalty.multiplier": text}))
    assert err.line == 6 and "7" in err.message


def test_it_refuses_an_unknown_measure(tmp_path: Path) -> None:
    bad = INFRACTIONS.replace('cite: "Anexo, a"}', 'cite: "Anexo, a", measures: [jail]}')
    err = refusal(make_pack(tmp_path, {}, bad))
    assert err.line == 4 and "jail" in err.message


def test_it_refuses_a_duplicate_key(tmp_path: Path) -> None:
    bad = INFRACTIONS + '  G1-a: {group: "1", description: "Outra", cite: "Anexo, b"}\n'
    bad = bad.replace("accepts_group_only: false\n", "") + "accepts_group_only: false\n"
    err = refusal(make_pack(tmp_path, {}, bad))
    assert err.line == 5 and "repetida" in err.message


def test_it_refuses_a_pack_id_other_than_its_folder(tmp_path: Path) -> None:
    root = make_pack(tmp_path, {})
    (root / "pack.yaml").write_text(PACK_YAML.replace("id: demo", "id: other"), encoding="utf-8")
    err = refusal(root)
    assert err.file.endswith("pack.yaml") and err.line == 1


def test_it_reports_yaml_syntax_errors_with_a_line(tmp_path: Path) -> None:
    err = refusal(make_pack(tmp_path, {"law.x": "description: x\ntype: [integer\nvalues: {}\n"}))
    assert err.line >= 2 and "YAML" in err.message


def test_a_broken_copy_of_a_real_pack_names_the_file(tmp_path: Path) -> None:
    root = tmp_path / "recife"
    shutil.copytree(PACKS_DIR / "recife", root)
    file = root / "parameters" / "fee" / "second_copy.yaml"
    file.write_text(
        file.read_text(encoding="utf-8").replace('    cite: "art. 25, § 1º, II"\n', ""), encoding="utf-8"
    )
    err = refusal(root)
    assert err.file == str(file)


def test_agency_overrides_layer_on_the_law(tmp_path: Path) -> None:
    pack = load_pack(make_pack(tmp_path, {"penalty.base_fine": GOOD_PARAM}))
    layered = pack.with_overrides(
        {
            "penalty.base_fine": [
                {"from": "2012-03-01", "value": "80.00", "by": "CTTU", "cite": "Portaria 1/2012"}
            ]
        }
    )
    assert layered.resolve("penalty.base_fine", dt.date(2012, 2, 29)).status == "undefined"
    entry = layered.resolve("penalty.base_fine", dt.date(2012, 3, 1))
    assert (entry.value, entry.by, entry.citation) == ("80.00", "CTTU", "Portaria 1/2012")
    assert pack.resolve("penalty.base_fine", dt.date(2012, 3, 1)).status == "undefined"  # untouched
    with pytest.raises(CaseError) as info:
        pack.with_overrides({"penalty.base_fine": [{"from": "2012-03-01", "value": 80, "cite": "Portaria"}]})
    assert info.value.field == "overrides.penalty.base_fine.0.value"
    with pytest.raises(CaseError):
        pack.with_overrides({"penalty.base_fine": [{"from": "2012-03-01", "value": "80.00"}]})


@pytest.mark.parametrize("pack_id", ["recife", "cabo", "esteio", "marica", "pernambuco"])
def test_deadline_parameters_are_well_formed(pack_id: str) -> None:
    pack = get_pack(pack_id)
    for name, param in pack.parameters.items():
        if not name.startswith("deadline."):
            continue
        for entry in param.entries:
            if entry.status == "value":
                assert set(entry.value) == {"days", "counting"}, name
                assert entry.value["counting"] in COUNTINGS, name
                assert isinstance(entry.value["days"], int) and entry.value["days"] > 0, name


@pytest.mark.parametrize("pack_id", ["recife", "cabo", "esteio", "marica", "pernambuco"])
def test_interpretations_quote_the_law(pack_id: str) -> None:
    pack = get_pack(pack_id)
    for name, param in pack.parameters.items():
        if param.interpretation is not None:
            assert len(param.interpretation.quote) >= 15, name
            assert len(param.interpretation.reading) >= 15, name
