"""The one search in the header: a plate in any format, a CPF or CNPJ with or without
punctuation, a name with or without accents, a notice or permit number — across only the records
the user may see (the tenant managers apply the scope: staff their agencies', a holder their own).

The query's shape says where to look, so each lookup is an indexed one: digits go to the CPF and
CNPJ prefix indexes (an exact match when they are a valid CPF or CNPJ, stdnum), a plate-shaped
query to the plate prefix index, words to the folded names (`name_search`, a trigram index on
PostgreSQL; bench/bench_search.py), and anything with a digit to the notice and permit numbers.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import quote

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.urls import reverse
from stdnum.br import cnpj as stdnum_cnpj
from stdnum.br import cpf as stdnum_cpf

from lotacao.core.text import fold_words
from lotacao.core.validators import format_cnpj, format_cpf
from lotacao.enforcement.models import InfractionNotice
from lotacao.permits.models import Permit
from lotacao.registry.models import Company, Person, Vehicle

MAX_LENGTH = 100
LIMIT = 10
_DOCUMENT_SYMBOLS = re.compile(r"[\s.\-/]")
_PLATE = re.compile(r"[A-Z]{3}[0-9][0-9A-Z]?[0-9]{0,2}")
_NUMBER = re.compile(r"[\w\-/.]+")


@dataclass
class Hit:
    label: str
    detail: str
    url: str


@dataclass
class Group:
    title: str
    hits: list[Hit] = field(default_factory=list)
    more_url: str = ""


def clean(raw: str | None) -> str:
    """The query as typed, trimmed; refused (in Portuguese) when it holds control characters such
    as a NUL byte or is longer than anything worth searching."""
    query = (raw or "").strip()
    if any(unicodedata.category(c) in {"Cc", "Cs", "Co"} for c in query):
        raise ValidationError("A busca contém caracteres inválidos: digite placa, CPF, CNPJ, nome ou número.")
    if len(query) > MAX_LENGTH:
        raise ValidationError(f"A busca aceita até {MAX_LENGTH} caracteres.")
    return query


def _documents(digits: str) -> tuple[Q, Q]:
    """(persons, companies) conditions for a query of digits: exact for a valid CPF or CNPJ,
    a prefix otherwise."""
    if len(digits) == 11 and stdnum_cpf.is_valid(digits):
        return Q(cpf=digits), Q(pk__in=[])
    if len(digits) == 14 and stdnum_cnpj.is_valid(digits):
        return Q(pk__in=[]), Q(cnpj=digits)
    return Q(cpf__startswith=digits), Q(cnpj__startswith=digits)


def _names(words: list[str]) -> Q:
    condition = Q()
    for word in words:
        condition &= Q(name_search__contains=word)
    return condition


def search(query: str) -> list[Group]:
    """The groups of records found, each with at most LIMIT hits and a link to the full list."""
    query = clean(query)
    if not query:
        return []
    groups: list[Group] = []
    digits = _DOCUMENT_SYMBOLS.sub("", query)
    plate = re.sub(r"[\s\-]", "", query).upper()
    words = fold_words(query)
    has_letters = any(c.isalpha() for c in query)

    person_q: Q | None = None
    company_q: Q | None = None
    if digits.isdigit() and len(digits) >= 3:
        person_q, company_q = _documents(digits)
    elif has_letters and words and len("".join(words)) >= 2:
        person_q = company_q = _names(words)
    if person_q is not None:
        # No ORDER BY in the database: with one, a common name ("jose": 3% of 100,000) makes
        # PostgreSQL read and sort every match; without, it stops at the tenth (bench_search.py).
        # The ten are put in order here; the full list (the link) is ordered by name.
        people = sorted(Person.objects.filter(person_q).order_by()[:LIMIT], key=lambda p: p.full_name)
        groups.append(
            Group(
                "Pessoas",
                [Hit(p.full_name, format_cpf(p.cpf), reverse("people:person", args=[p.pk])) for p in people],
                f"{reverse('registry:persons')}?q={_quoted(query)}",
            )
        )
    if company_q is not None:
        companies = sorted(Company.objects.filter(company_q).order_by()[:LIMIT], key=lambda c: c.legal_name)
        groups.append(
            Group(
                "Pessoas jurídicas",
                [Hit(str(c), format_cnpj(c.cnpj), reverse("people:company", args=[c.pk])) for c in companies],
                f"{reverse('people:companies')}?q={_quoted(query)}",
            )
        )
    if _PLATE.fullmatch(plate):
        vehicles = Vehicle.objects.filter(plate__startswith=plate).select_related(
            "holder__person", "holder__company"
        )[:LIMIT]
        groups.append(
            Group(
                "Veículos",
                [
                    Hit(
                        v.plate_display,
                        str(v.holder) if v.holder else "sem permissionário",
                        reverse("vehicles:file", args=[v.pk]),
                    )
                    for v in vehicles
                ],
                f"{reverse('registry:vehicles')}?q={_quoted(plate)}",
            )
        )
    numbered = any(c.isdigit() or c in "-/" for c in query)
    if numbered and _NUMBER.fullmatch(query):
        notices = InfractionNotice.objects.filter(number__istartswith=query).order_by("-drawn_up_at")[:LIMIT]
        groups.append(
            Group(
                "Autos de infração",
                [Hit(f"Auto {n.number}", n.get_status_display(), n.get_absolute_url()) for n in notices],
            )
        )
        permits = (
            Permit.objects.filter(number__istartswith=query)
            .select_related("holder__person", "holder__company")
            .order_by("number")[:LIMIT]
        )
        groups.append(
            Group(
                "Permissões",
                [Hit(str(p), _permit_detail(p), reverse("permits:detail", args=[p.pk])) for p in permits],
            )
        )
    return [g for g in groups if g.hits]


def _permit_detail(permit: Permit) -> str:
    status = str(permit.get_status_display())
    return f"{status} — {permit.holder}" if permit.holder_id else status


def _quoted(value: str) -> str:
    return quote(value)
