"""The documents each role must present, read from the pack (`documents.<role>`; docs/packs.md).

Each parameter `documents.<role>` is a mapping from a document code to its description:

    cnh:
      label: Carteira Nacional de Habilitação — categoria "D"   # Portuguese, as people say it
      cite: art. 15, II                                         # relative to the pack's law
      expires: true          # the document has a validity date (recorded when it is received)
      sensitive: false       # criminal-record certificates, medical reports: access is restricted and logged
      validity: {years: 1}   # optional: the validity the law gives, counted from the issue date
      person_field: cnh      # optional: satisfied by the person's CNH fields, not by an upload
      categories: [D, E]     # optional (with person_field: cnh): the CNH categories admitted
      note: "…"              # optional, Portuguese

A value the law leaves undefined is `undefined` with the reason, like any parameter.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from dateutil.relativedelta import relativedelta

from lotacao.core.law import pack_for

ROLES = ("holder", "auxiliary_driver", "relief_driver", "fare_collector", "vehicle")
ROLE_LABELS = {
    "holder": "permissionário",
    "auxiliary_driver": "condutor auxiliar",
    "relief_driver": "condutor eventual",
    "fare_collector": "cobrador",
    "vehicle": "veículo",
}
ITEM_KEYS = frozenset(
    {"label", "cite", "expires", "sensitive", "validity", "person_field", "categories", "note"}
)
PERSON_FIELDS = frozenset({"cnh"})


class RulesError(ValueError):
    """A `documents.<role>` parameter that does not follow the format above (a pack bug)."""


@dataclass(frozen=True)
class Requirement:
    code: str
    label: str
    citation: str
    expires: bool
    sensitive: bool
    validity: dict[str, int] | None = None
    person_field: str | None = None
    categories: tuple[str, ...] | None = None
    note: str | None = None

    def default_valid_until(self, issued_on: dt.date | None) -> dt.date | None:
        """The end of validity the law gives, counted from the issue date (None if it gives none)."""
        if not self.validity or issued_on is None:
            return None
        return issued_on + relativedelta(**self.validity)  # type: ignore[arg-type]


@dataclass(frozen=True)
class RoleRequirements:
    role: str
    parameter: str
    status: str  # value | undefined | repealed | absent
    citation: str
    reason: str | None
    items: tuple[Requirement, ...] = ()

    @property
    def defined(self) -> bool:
        return self.status == "value"


def parameter_name(role: str) -> str:
    return f"documents.{role}"


def requirements(jurisdiction_code: str, role: str, on: dt.date) -> RoleRequirements:
    if role not in ROLES:
        raise ValueError(f"Papel desconhecido: {role!r} (use {', '.join(ROLES)}).")
    pack = pack_for(jurisdiction_code)
    name = parameter_name(role)
    if not pack.has(name):
        return RoleRequirements(
            role=role,
            parameter=name,
            status="absent",
            citation=pack.law,
            reason=f"O pacote de {pack.name} não declara os documentos do {ROLE_LABELS[role]}.",
        )
    entry = pack.resolve(name, on)
    if entry.status != "value":
        return RoleRequirements(
            role=role, parameter=name, status=entry.status, citation=entry.citation, reason=entry.reason
        )
    items = tuple(_item(pack, name, code, raw) for code, raw in dict(entry.value).items())
    return RoleRequirements(
        role=role, parameter=name, status="value", citation=entry.citation, reason=None, items=items
    )


def _item(pack: Any, name: str, code: str, raw: Any) -> Requirement:
    if not isinstance(raw, dict) or not raw.get("label") or not raw.get("cite"):
        raise RulesError(f"{pack.id}: {name}.{code}: cada documento precisa de label e cite.")
    unknown = set(raw) - ITEM_KEYS
    if unknown:
        raise RulesError(f"{pack.id}: {name}.{code}: chaves desconhecidas {sorted(unknown)}.")
    for flag in ("expires", "sensitive"):
        if not isinstance(raw.get(flag), bool):
            raise RulesError(f"{pack.id}: {name}.{code}: {flag} deve ser true ou false.")
    person_field = raw.get("person_field")
    if person_field is not None and person_field not in PERSON_FIELDS:
        raise RulesError(f"{pack.id}: {name}.{code}: person_field desconhecido {person_field!r}.")
    validity = raw.get("validity")
    if validity is not None and (
        not isinstance(validity, dict)
        or len(validity) != 1
        or next(iter(validity)) not in ("days", "months", "years")
        or not isinstance(next(iter(validity.values())), int)
    ):
        raise RulesError(f"{pack.id}: {name}.{code}: validity deve ser {{days|months|years: N}}.")
    categories = raw.get("categories")
    return Requirement(
        code=code,
        label=str(raw["label"]),
        citation=pack.cite(str(raw["cite"])),
        expires=raw["expires"],
        sensitive=raw["sensitive"],
        validity=dict(validity) if validity else None,
        person_field=person_field,
        categories=tuple(str(c) for c in categories) if categories else None,
        note=raw.get("note"),
    )


def document_types(
    jurisdiction_code: str, on: dt.date, *, owner: str = "person", with_cnh: bool = True
) -> dict[str, Requirement]:
    """Every document type the pack knows for an owner kind (person/company: the people roles;
    vehicle: the vehicle role). The CNH is a person's upload too: its number and validity are
    typed on the person's record, but only its file, reviewed, makes it valid (issue 24); a company
    has none (and `with_cnh=False` leaves it out)."""
    roles = ("vehicle",) if owner == "vehicle" else tuple(r for r in ROLES if r != "vehicle")
    found: dict[str, Requirement] = {}
    for role in roles:
        for item in requirements(jurisdiction_code, role, on).items:
            if item.person_field is None or (with_cnh and owner == "person"):
                found.setdefault(item.code, item)
    return found


def sensitive_codes(jurisdiction_code: str, on: dt.date) -> set[str]:
    return {
        item.code
        for role in ROLES
        for item in requirements(jurisdiction_code, role, on).items
        if item.sensitive
    }
