"""Page weight and time of the main screens as a browser sees them (issue 11: the gov.br look must
stay fast). Prints, per page: requests, bytes received, the same bodies gzip-compressed (what
WhiteNoise serves in production, where it precompresses static files), and the medians of the
HTML's response time, DOMContentLoaded and load, with the browser's cache off. The HTML's own size
is printed apart: the static files (CSS, fonts, script) are fetched once and then come from the
browser's cache (WhiteNoise serves them with hashed names and far-future expiry in production).

Needs a running server with the demo (`make demo`, or any `manage.py runserver` after
`load_demo`) and Debian's Chromium:

    .venv/bin/python bench/bench_page_weight.py --url http://127.0.0.1:8000 [--runs 5]
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
from typing import Any

PAGES = [
    ("-", "/publico/veiculos/"),
    ("-", "/conta/entrar/"),
    ("gestor.recife", "/"),
    ("gestor.recife", "/permissoes/"),
    ("atendente.recife", "/fila/"),
    ("fiscal.marica", "/"),
    ("fiscal.marica", "/fiscalizacao/autos/novo/"),
    ("permissionario.recife", "/"),
]
PASSWORD = "lotacao-demo"
CHROMIUM = os.environ.get("LOTACAO_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")


def _sign_in(page: Any, base: str, user: str) -> None:
    page.goto(f"{base}/conta/entrar/")
    page.fill("#id_username", user)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def measure(base: str, runs: int) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        contexts: dict[str, Any] = {}
        for user, path in PAGES:
            if user not in contexts:
                context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR")
                if user != "-":
                    _sign_in(context.new_page(), base, user)
                contexts[user] = context
            context = contexts[user]
            html, dcl, load = [], [], []
            weight: dict[str, int] = {}
            for run in range(runs):
                page = context.new_page()
                session = context.new_cdp_session(page)
                session.send("Network.setCacheDisabled", {"cacheDisabled": True})
                bodies: list[Any] = []
                if run == 0:

                    def keep(response: Any, into: list[Any] = bodies) -> None:
                        into.append(response)

                    page.on("response", keep)
                page.goto(f"{base}{path}", wait_until="load")
                timing = page.evaluate(
                    "() => { const t = performance.getEntriesByType('navigation')[0];"
                    " return [t.responseEnd - t.requestStart, t.domContentLoadedEventEnd, t.loadEventEnd]; }"
                )
                html.append(timing[0])
                dcl.append(timing[1])
                load.append(timing[2])
                if run == 0:
                    raw = packed = html_bytes = 0
                    for response in bodies:
                        try:
                            body = response.body()
                        except Exception:  # a redirect has no body
                            continue
                        raw += len(body)
                        packed += len(gzip.compress(body, 9))
                        if response.request.resource_type == "document":
                            html_bytes = len(body)
                    weight = {"requests": len(bodies), "bytes": raw, "gzip": packed, "html": html_bytes}
                page.close()
            rows.append(
                {
                    "page": f"{user} {path}",
                    **weight,
                    "html_ms": statistics.median(html),
                    "dcl_ms": statistics.median(dcl),
                    "load_ms": statistics.median(load),
                }
            )
        browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = measure(args.url.rstrip("/"), args.runs)
    print(
        f"{'página':44} {'req':>4} {'bytes':>8} {'gzip':>7} {'HTML':>6}"
        f" {'HTML ms':>8} {'DCL ms':>7} {'load ms':>8}"
    )
    for r in rows:
        print(
            f"{r['page']:44} {r['requests']:>4} {r['bytes']:>8} {r['gzip']:>7} {r['html']:>6}"
            f" {r['html_ms']:>8.0f} {r['dcl_ms']:>7.0f} {r['load_ms']:>8.0f}"
        )


if __name__ == "__main__":
    main()
