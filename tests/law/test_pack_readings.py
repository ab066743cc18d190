"""What the packs say that no `evaluate` case reaches: values the Django workflows read (people,
revocation grounds, appeal routes), and the pack format's new keys, refused when malformed."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from lotacao.law.errors import PackError
from lotacao.law.packs import PACKS_DIR, get_pack, load_pack
from lotacao.law.penalty_config import compile_config

DAY = dt.date(2025, 6, 16)


def test_marica_auxiliary_driver_is_21_because_the_cnh_d_is_given_only_from_21() -> None:
    """Art. 36, § 2º → art. 15, II (CNH D or E) → CTB, art. 145, I (over 21)."""
    pack = get_pack("marica")
    entry = pack.resolve("agents.min_age", DAY)
    assert entry.value == 21
    assert entry.citation == "Lei Federal 9.503/1997, art. 145, I"
    interp = pack.parameters["agents.min_age"].interpretation
    assert interp is not None and "art. 15, II" in interp.reading and interp.summary


def test_marica_lists_every_ground_of_revocation_with_who_verifies_it() -> None:
    grounds = get_pack("marica").resolve("permit.revocation_grounds", DAY).value
    cites = {g["id"]: g["cite"] for g in grounds}
    for item in ("III", "IV", "V", "VI", "VII"):
        assert any(f"art. 58, {item}" in (c if isinstance(c, str) else " ".join(c)) for c in cites.values())
    by = {g["id"]: g["by"] for g in grounds}
    assert by["criminal_conviction"] == by["irregular_transfer"] == "agency"
    assert by["interruption_beyond_authorized"] == "engine"
    assert "age_limit_commitment" in by


def test_marica_appeal_routes_for_retention_and_seizure() -> None:
    (appeal,) = get_pack("marica").resolve("process.instances", DAY).value
    assert appeal["body_by_measure"] == {
        "vehicle_retention": "transport_head",
        "vehicle_seizure": "ept_president",
    }
    assert appeal["deadline_by_measure"] == {
        "vehicle_retention": "appeal_minor",
        "vehicle_seizure": "appeal_major",
    }


def test_cabo_retention_is_released_once_the_fine_is_paid() -> None:
    release = get_pack("cabo").resolve("measure.release", dt.date(2010, 6, 16))
    assert [r["id"] for r in release.value["vehicle_retention"]] == ["fine_paid"]
    assert release.citation.endswith("art. 23, parágrafo único")


def test_rule_readings_release_and_charges_compile() -> None:
    marica = compile_config(get_pack("marica"), DAY)
    (over_age,) = [r for r in marica.measure_rules if r.codes == frozenset({"art42-XV-d"})]
    assert over_age.reading and over_age.param == "penalty.measures"
    assert over_age.release is not None and over_age.release[0].id == "retirement_commitment"
    esteio = compile_config(get_pack("esteio"), DAY)
    assert {c for r in esteio.rules["unlicensed"] for c in r.charges} == {
        "removal_and_storage_costs",
        "fine_equal_to_costs",
    }


def _copy(tmp_path: Path, pack_id: str) -> Path:
    target = tmp_path / pack_id
    shutil.copytree(PACKS_DIR / pack_id, target)
    return target


def test_the_loader_refuses_a_choice_of_one_measure(tmp_path: Path) -> None:
    pack = _copy(tmp_path, "esteio")
    text = (pack / "infractions.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "measures: [vehicle_retention]\n    measure_text",
        "measures: [vehicle_retention]\n    measure_choice: true\n    measure_text",
        1,
    )
    (pack / "infractions.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(PackError, match="measure_choice"):
        load_pack(pack)


def test_the_rule_reader_refuses_a_malformed_release(tmp_path: Path) -> None:
    pack = _copy(tmp_path, "marica")
    rules = pack / "parameters" / "penalty" / "measures.yaml"
    rules.write_text(
        rules.read_text(encoding="utf-8").replace("{id: dues_paid, label:", "{id: dues_paid, etiqueta:"),
        encoding="utf-8",
    )
    with pytest.raises(PackError, match="condição de liberação inválida"):
        compile_config(load_pack(pack), DAY)


def test_the_loader_reads_an_interpretation_summary_and_refuses_an_empty_one(tmp_path: Path) -> None:
    assert get_pack("recife").parameters["penalty.recidivism_scope"].interpretation.summary  # type: ignore[union-attr]
    pack = _copy(tmp_path, "recife")
    param = pack / "parameters" / "penalty" / "recidivism_scope.yaml"
    text = param.read_text(encoding="utf-8")
    start = text.index("  summary:")
    end = text.index("\n", start)
    param.write_text(text[:start] + '  summary: ""' + text[end:], encoding="utf-8")
    with pytest.raises(PackError, match="summary"):
        load_pack(pack)
