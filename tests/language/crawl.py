"""A bounded crawl of what a person sees: every page reachable from a home by same-origin links
(GET only), and every PDF those pages link to, checked for words no person should read.

Used by test_language.py on the loaded demo; `findings` is what a page shows that is not Brazilian
Portuguese for people: snake_case or dotted identifiers, English words, "(ões)"/"(s)" plurals,
ISO dates, Python's None."""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

HIDDEN = {"script", "style", "template", "noscript", "head"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BLOCK = {
    "p",
    "div",
    "li",
    "td",
    "th",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "section",
    "br",
    "dt",
    "dd",
    "option",
    "label",
    "button",
    "summary",
    "caption",
    "nav",
    "header",
    "footer",
    "table",
    "ul",
    "ol",
    "a",
}

# Words of the code's language that have leaked into a screen before (issue 11) or would if a
# label were missing: statuses, votes, kinds, units, Python's values.
ENGLISH = {
    "uphold",
    "annul",
    "annulled",
    "reduce",
    "pending",
    "approved",
    "rejected",
    "draft",
    "submitted",
    "granted",
    "revoked",
    "suspended",
    "expired",
    "active",
    "inactive",
    "closed",
    "paid",
    "unpaid",
    "overdue",
    "holder",
    "permit",
    "permits",
    "notice",
    "notices",
    "defense",
    "appeal",
    "fine",
    "fines",
    "penalty",
    "deadline",
    "group",
    "groups",
    "business_days",
    "days",
    "months",
    "years",
    "true",
    "false",
    "null",
    "None",
    "person",
    "company",
    "vehicle",
    "vehicles",
    "driver",
    "relief",
    "auxiliary",
    "collector",
    "review",
    "accepted",
    "missing",
    "undefined",
    "value",
    "repealed",
    "eventual_driver",
    "tourism",
    "continuous",
    "students",
    "cancelled",
    "canceled",
    "settled",
    "issued",
    "served",
    "archived",
    "decided",
    "final",
    "waiting",
    "open",
    "done",
    "error",
    "warning",
    "success",
    "info",
    "debug",
    "required",
    "invalid",
    "field",
    "this",
    "the",
    "and",
    "with",
}
# Words that look like English or like identifiers but are Portuguese or the law's own.
ALLOWED_WORDS = {"final"}
# Text that names a file format's columns, which people type or read as they are (a bank statement's
# CSV header), with the reason.
ALLOWED_TEXT = {"id_transacao"}  # the bank statement CSV's column (billing/payments: the bank's layout)

SNAKE = re.compile(r"(?<![\w@/.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-])")
DOTTED = re.compile(r"(?<![\w@/.-])[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*(?![\w@/-])")
PLURAL = re.compile(r"[^\W\d]\((?:ões|s|es|is|ns|as|os|a|o)\)")
ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
WORD = re.compile(r"(?<![\w.@/-])[A-Za-z]+(?:_[A-Za-z]+)*(?![\w@/-])")
# Dotted words that are not identifiers: domains, file names and abbreviations people write.
DOTTED_OK = re.compile(r"^(?:[a-z0-9-]+\.)+(?:br|com|org|gov|net|pdf|csv|zip|xlsx|json|txt|png|jpg|txt)$")


# A citation as the screens write it (issue 24): "<act>, <provision>[; <provision>…]" or a bare
# "(<provision>)" after the act was named. Written here, apart from lotacao.law.citations (which
# writes them), so that the crawl checks that code instead of repeating it.
_ACT = r"(?:Lei|Decreto|Portaria|Resolução|Constituição)(?: [^,;()]+?)?(?: \([^()]*\))?"
_PROV = (
    r"(?:Anexo [IVXLC]+, )?(?:seção [IVXLC]+ \([^()]*\), )?arts?\. \d+[º°]?(?:-[A-Z])?"
    r"(?: (?:e|a) \d+[º°]?)?"
    r"(?:, (?:§ (?:\d+[º°]?|único)|parágrafo único|caput|[IVXLC]+(?:-\d+)?|[a-z](?![\w])"
    r"|na redação da Lei nº [\d./]+)(?: (?:a|e) (?:§ \d+[º°]?|[IVXLC]+|[a-z])(?![\w]))?)*"
)
FULL_CITATION = re.compile(rf"({_ACT}), ({_PROV}(?:; {_PROV})*)")
SHORT_CITATION = re.compile(rf"\(({_PROV}(?:; {_PROV})*)\)")
ONE_PROVISION = re.compile(_PROV)


def repeated_citations(line: str) -> list[str]:
    """The provisions one message (a line) cites more than once: "(Lei X, art. 46, V). (Lei X,
    art. 46, V)", "art. 36, § 2º; art. 39; art. 36, § 2º", or "(art. 41)" and then "Lei X, art. 41"."""
    keys: list[tuple[str | None, str]] = []
    spans: list[tuple[int, int, str]] = []
    for m in FULL_CITATION.finditer(line):
        spans.append((m.start(), m.end(), m.group(1)))
        keys += [(m.group(1), p) for p in ONE_PROVISION.findall(m.group(2))]
    for m in SHORT_CITATION.finditer(line):
        if any(start <= m.start() < end for start, end, _ in spans):
            continue
        before = [act for _, end, act in spans if end <= m.start()]
        keys += [(before[-1] if before else None, p) for p in ONE_PROVISION.findall(m.group(1))]
    seen: set[tuple[str | None, str]] = set()
    twice: list[str] = []
    for key in keys:
        if key in seen and key[1] not in twice:
            twice.append(key[1])
        seen.add(key)
    return twice


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hidden = 0
        self.parts: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN and tag not in VOID:
            self.hidden += 1
        if tag in BLOCK:
            self.parts.append("\n")
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN and self.hidden:
            self.hidden -= 1
        if tag in BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def parse_html(html: str) -> tuple[str, list[str]]:
    """The visible text (scripts, styles and attributes left out) and the links of a page."""
    page = _Page()
    page.feed(html)
    page.close()
    text = re.sub(r"[ \t\r\f\v]+", " ", "".join(page.parts))
    return re.sub(r"\n\s*\n+", "\n", text), page.links


def pdf_text(content: bytes) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def findings(text: str) -> list[str]:
    """What in `text` no person should read, each with a little of its line for context."""
    found: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue

        def add(kind: str, match: re.Match[str], line: str = line) -> None:
            found.append(f"{kind} «{match.group(0)}» em: {line[:160]}")

        for m in SNAKE.finditer(line):
            if m.group(0) not in ALLOWED_TEXT:
                add("identificador", m)
        for m in DOTTED.finditer(line):
            if not DOTTED_OK.match(m.group(0)):
                add("identificador com ponto", m)
        for m in PLURAL.finditer(line):
            add("plural entre parênteses", m)
        for m in ISO_DATE.finditer(line):
            add("data ISO", m)
        for m in WORD.finditer(line):
            word = m.group(0)
            if word in ENGLISH and word not in ALLOWED_WORDS and "_" not in word:
                add("palavra em inglês", m)
        for provision in repeated_citations(line):
            found.append(f"citação repetida «{provision}» em: {line[:300]}")
    return found


@dataclass
class Crawl:
    pages: int = 0
    pdfs: int = 0
    files: int = 0  # CSV exports of the lists, read like the pages
    broken: list[str] = field(default_factory=list)  # "url (status) ← page"
    found: dict[str, list[str]] = field(default_factory=dict)  # url -> findings
    patterns: Counter[str] = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.found.values())


SKIP = re.compile(
    r"^/(?:conta/sair|admin/|static/|media/|api/)|/sair/?$|/logout|[?&](?:formato|format)=(?:xlsx|ods|json|gtfs|zip)"
    r"|\.(?:csv|xlsx|zip|json|txt|png|jpe?g)$"
)


def pattern(url: str) -> str:
    """The URL's shape: ids and query values as placeholders, so one template is visited a few times."""
    path, _, query = url.partition("?")
    shape = re.sub(r"\d+", "N", path)
    keys = sorted(p.split("=", 1)[0] for p in query.split("&") if p)
    return shape + ("?" + "&".join(keys) if keys else "")


def crawl(client: Any, starts: list[str], *, per_pattern: int = 1, limit: int = 250) -> Crawl:
    """Visit pages breadth-first from `starts` with a logged-in (or anonymous) test client."""
    result = Crawl()
    queue: list[tuple[str, str]] = [(s, "(início)") for s in starts]
    seen: set[str] = set(starts)
    while queue and result.pages + result.pdfs < limit:
        url, source = queue.pop(0)
        shape = pattern(url)
        if result.patterns[shape] >= per_pattern:
            continue
        result.patterns[shape] += 1
        try:
            response = client.get(url)
        except Exception as error:
            result.broken.append(f"{url} (500: {type(error).__name__}: {error}) ← {source}")
            continue
        status = response.status_code
        if status in (301, 302, 303, 307, 308):
            target = urljoin(url, response["Location"])
            if urlsplit(target).netloc in ("", "testserver") and target not in seen:
                seen.add(target)
                queue.append((urlsplit(target)._replace(scheme="", netloc="").geturl(), url))
            continue
        if status == 403:
            continue  # a page the role may see a link to but not open is judged elsewhere
        if status >= 400:
            result.broken.append(f"{url} ({status}) ← {source}")
            continue
        kind = response.get("Content-Type", "")
        if "application/pdf" in kind:
            result.pdfs += 1
            problems = findings(pdf_text(b"".join(response) if response.streaming else response.content))
            if problems:
                result.found[url] = problems
            continue
        if "text/csv" in kind:  # a list's export (its XLSX and ODS have the same cells: not fetched)
            result.files += 1
            data = b"".join(response) if response.streaming else response.content
            problems = findings(data.decode("utf-8-sig").replace(";", " ; "))
            if problems:
                result.found[url] = problems
            continue
        if "text/html" not in kind:
            continue
        result.pages += 1
        text, links = parse_html(response.content.decode())
        problems = findings(text)
        if problems:
            result.found[url] = problems
        for href in links:
            href = urldefrag(urljoin(url, href))[0]
            parts = urlsplit(href)
            if parts.scheme not in ("", "http", "https") or parts.netloc not in ("", "testserver"):
                continue
            local = parts._replace(scheme="", netloc="").geturl()
            if not local.startswith("/") or SKIP.search(local) or local in seen:
                continue
            seen.add(local)
            queue.append((local, url))
    return result
