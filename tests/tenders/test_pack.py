"""What the packs say about tenders (values the workflow reads; no engine kind evaluates them)."""

from __future__ import annotations

import datetime as dt

from lotacao.law.packs import get_pack

DAY = dt.date(2025, 6, 16)


def test_esteio_gives_the_incumbent_preference_and_the_draw() -> None:
    pack = get_pack("esteio")
    preference = pack.resolve("tender.incumbent_preference", DAY)
    assert preference.value is True and preference.citation.endswith("art. 8º, parágrafo único, II")
    draw = pack.resolve("tender.tie_break", DAY)
    assert draw.value == "draw" and draw.citation.endswith("art. 8º, parágrafo único, III")


def test_marica_ends_provisional_permits_and_may_count_their_time() -> None:
    pack = get_pack("marica")
    assert pack.resolve("tender.ends_provisional", DAY).citation.endswith("art. 76, § 1º")
    assert pack.resolve("tender.provisional_time_may_count", DAY).citation.endswith("art. 76, § 2º")
    assert pack.resolve("permit.selection_criteria", DAY).value == ["service_time", "infractions"]


def test_recife_and_cabo_have_no_tender_values_of_their_own() -> None:
    for code in ("recife", "cabo"):
        assert not [name for name in get_pack(code).parameters if name.startswith("tender.")]
    assert get_pack("cabo").resolve("permit.selection_criteria", DAY).value == [
        "existing_operator",
        "association",
    ]
