"""Portuguese everywhere (issue 11): each demo role's pages and PDFs, crawled from its home, show
no identifier, English word, "(ões)" plural or ISO date, and every link they show leads somewhere.

One test per role keeps the failure readable; the demo is loaded once per test (the crawl of a
role is bounded: a few pages of each URL shape, GET only)."""

from __future__ import annotations

import os
import time
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from lotacao.accounts.models import User
from tests.language.crawl import crawl, findings, parse_html

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]
ROLES = ["gestor", "atendente", "fiscal", "comissao", "ouvidor", "permissionario"]
PUBLIC = ["/", "/conta/entrar/", "/publico/veiculos/", "/publico/fretamento/", "/dados/"] + [
    f"/publico/linhas/{code}/" for code in CODES
]


# Findings accepted for a while, each with its owner and reason (none today: the phone form's ISO
# dates were the last). The test fails on anything not listed here; the count is printed.
KNOWN: list[tuple[str, str, str]] = []  # (page address prefix, finding, owner and reason)


def _unknown(result: Any) -> int:
    """Drop the known findings from `result` (in place); how many were dropped."""
    dropped = 0
    for url in list(result.found):
        kept = [p for p in result.found[url] if not any(url.startswith(u) and k in p for u, k, _ in KNOWN)]
        dropped += len(result.found[url]) - len(kept)
        if kept:
            result.found[url] = kept
        else:
            del result.found[url]
    return dropped


def _report(result: Any) -> str:
    lines = [
        f"{result.pages} páginas, {result.pdfs} PDFs, {result.files} exportações CSV, "
        f"{result.count} achados, {len(result.broken)} links quebrados"
    ]
    lines += [f"  quebrado: {b}" for b in result.broken[:40]]
    for url, problems in list(result.found.items())[:60]:
        lines.append(f"  {url}")
        lines += [f"    {p}" for p in problems[:8]]
    return "\n".join(lines)


@pytest.fixture
def demo(db: Any) -> None:
    call_command("load_demo", "--quiet-logins", stdout=StringIO())


def test_every_page_and_pdf_of_every_role_reads_in_portuguese(demo: None) -> None:
    """All 25 staff and holder logins and the public pages, on one loaded demo (loading it is the
    slow part). The counts are printed (`-s`) and, with LOTACAO_CRAWL_REPORT=<file>, every
    finding is written there."""
    totals = {"pages": 0, "pdfs": 0, "files": 0, "findings": 0, "known": 0, "broken": 0}
    reports: list[str] = []
    failed: list[str] = []
    logins: list[tuple[str, Client]] = [("público", Client())]
    for code in CODES:
        for role in ROLES:
            client = Client()
            client.force_login(User.objects.get(username=f"{role}.{code}"))
            logins.append((f"{role}.{code}", client))
    out = os.environ.get("LOTACAO_CRAWL_REPORT")
    for name, client in logins:
        started = time.monotonic()
        result = crawl(client, PUBLIC if name == "público" else ["/"])
        totals["pages"] += result.pages
        totals["pdfs"] += result.pdfs
        totals["files"] += result.files
        totals["known"] += _unknown(result)
        totals["findings"] += result.count
        totals["broken"] += len(result.broken)
        report = f"== {name} ({time.monotonic() - started:.0f} s): " + _report(result)
        reports.append(report)
        if out:
            with open(out, "a", encoding="utf-8") as handle:
                handle.write(report + "\n")
        if result.pages < 3 or result.found or result.broken:
            failed.append(report)
    summary = "Rastreamento: " + ", ".join(f"{k} {v}" for k, v in totals.items())
    print(summary)
    if out:
        with open(out, "a", encoding="utf-8") as handle:
            handle.write(summary + "\n")
    assert not failed, summary + "\n" + "\n".join(failed)[:20000]


# The checker itself: each kind of finding is caught, and ordinary Portuguese is not.
@pytest.mark.parametrize(
    "text",
    [
        "Interpretação adotada (penalty.recidivism_window)",
        "O prazo (appeal_minor) termina",
        "votos: uphold: 3, annul: 1",
        "1 infração(ões)",
        "Vence em 2027-10-30",
        "Situação: pending",
        "Valor: None",
    ],
)
def test_the_checker_catches_internal_words(text: str) -> None:
    assert findings(text), text


@pytest.mark.parametrize(
    "text",
    [
        # the grant's checklist (Esteio) and a fine's "Por quê" (Recife), as they read before issue 24
        "Documentos do permissionário: remete à lei (Lei Municipal 3.839/2004 (Esteio), art. 46, V)."
        " (Lei Municipal 3.839/2004 (Esteio), art. 46, V)",
        "adiado até a decisão (Lei Municipal 16.856/2003 (Recife), art. 36, § 2º). (Lei Municipal 16.856/2003"
        " (Recife), art. 39, § 1º; art. 41; art. 42; art. 36, § 2º)",
        "Sem defesa (Lei Municipal 16.856/2003 (Recife), art. 36, § 2º). Prazo (art. 41, § 1º): 30 dias. "
        "(Lei Municipal 16.856/2003 (Recife), art. 41, § 1º)",
        "retenção: falha corrigida (art. 54); autorização do Presidente (art. 54).",
    ],
)
def test_the_checker_catches_a_citation_printed_twice(text: str) -> None:
    assert any("citação repetida" in f for f in findings(text)), text


def test_the_checker_lets_distinct_provisions_pass() -> None:
    for text in (
        "Lei Municipal 16.856/2003 (Recife), art. 17, I; art. 17, I a III; art. 17, II",
        "Prazo (art. 41, § 1º) e vencimento (art. 41) (Lei Municipal 16.856/2003 (Recife), art. 36)",
        "(Lei Municipal 3.839/2004 (Esteio), Anexo I, art. 19; art. 19)",
    ):
        assert not [f for f in findings(text) if "citação repetida" in f], text


def test_the_checker_passes_portuguese_and_skips_what_is_not_visible() -> None:
    html = (
        "<html><head><title>Auto</title><style>.a_b{}</style></head><body data-x='a_b'>"
        "<script>var x = 'penalty.recidivism_window';</script>"
        "<p>Vence em 30/10/2027, art. 42, XV, a — R$ 1.234,56 — www.gov.br — 2 infrações</p>"
        "<a href='/x/?status=pending'>ver</a></body></html>"
    )
    text, links = parse_html(html)
    assert findings(text) == []
    assert links == ["/x/?status=pending"]
