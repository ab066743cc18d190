"""No provision twice in one message (issue 24, defect 5), over the engine's explanations as the
screens render them (`lotacao.law.citations.cited`, behind the `|citado` filter): every infraction
of every pack, for a permit holder (a company, an auxiliary driver), with and without the group
the agency assigns. The language crawl (test_language.py) checks the pages and PDFs of the loaded
demo with the same checker."""

from __future__ import annotations

from typing import Any

import pytest

from lotacao.law.citations import cited, merged
from lotacao.law.evaluate import evaluate_case
from lotacao.law.packs import available_packs, get_pack
from tests.language.crawl import repeated_citations

GROUPS = ("A", "B", "C", "1", "2", "3")
OFFENDERS = ("permit_holder", "company", "auxiliary_driver")


def _cases(pack_id: str) -> list[dict[str, Any]]:
    pack = get_pack(pack_id)
    cases = []
    for code in pack.infractions:
        infraction: dict[str, Any] = {"code": code}
        cases.append(infraction)
        if pack.infractions[code].group is None:
            cases += [{"code": code, "group": g} for g in GROUPS]
    return cases


@pytest.mark.parametrize("pack_id", available_packs())
def test_engine_explanations_as_rendered_cite_each_provision_once(pack_id: str) -> None:
    rendered = 0
    for infraction in _cases(pack_id):
        for offender in OFFENDERS:
            case = {
                "jurisdiction": pack_id,
                "kind": "penalty",
                "date": "2026-06-16",
                "offender": offender,
                "infraction": infraction,
                "history": [],
            }
            result = evaluate_case(case)
            if not result.get("explanation"):
                continue  # an offender this law does not punish, or a group it does not have
            text = cited(result["explanation"], result.get("citations", []))
            assert repeated_citations(text) == [], (infraction, offender, text)
            rendered += 1
    if get_pack(pack_id).infractions:
        assert rendered, pack_id  # the loop checked something


def test_cited_drops_what_the_message_states_and_merges_the_rest() -> None:
    law = "Lei Municipal 16.856/2003 (Recife)"
    message = f"Vencimento adiado até a decisão ({law}, art. 36, § 2º)."
    text = cited(message, [f"{law}, art. 36, § 2º", f"{law}, art. 39, § 1º; art. 41; art. 36, § 2º"])
    assert text == f"{message} ({law}, art. 39, § 1º; art. 41)"
    assert repeated_citations(text) == []
    # the old rendering (message, then every citation joined) repeated the provision
    old = message + " (" + "; ".join([f"{law}, art. 36, § 2º", f"{law}, art. 39, § 1º; art. 36, § 2º"]) + ")"
    assert repeated_citations(old) == ["art. 36, § 2º"]
    esteio = "Lei Municipal 3.839/2004 (Esteio)"
    assert cited(f"Não lista documentos ({esteio}, art. 46, V).", f"{esteio}, art. 46, V") == (
        f"Não lista documentos ({esteio}, art. 46, V)."
    )
    assert cited("Prazo (art. 19).", [f"{esteio}, Anexo I, art. 19"]) == (
        f"Prazo (art. 19). ({esteio}, Anexo I, art. 19)"
    )
    assert merged([f"{law}, art. 1º", "Portaria nº 1/2025", f"{law}, art. 2º; art. 1º"]) == [
        f"{law}, art. 1º; art. 2º",
        "Portaria nº 1/2025",
    ]
    assert cited("Sem citação.", []) == "Sem citação."
