"""A procedure's state table, shared by the procedures that are one table of transitions: each
transition's button, the verb of its refusal, who may take it and the statuses it starts from; what
each status means when an action is refused ("Não é possível aprovar a escala: a escala já foi
aprovada."). The procedures' own modules (`rosters/states.py`, `tenders/states.py`…) declare their
transitions and phrases and ask a `StateTable` the three questions every screen and service asks:
why not, may it, and which buttons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError


@dataclass(frozen=True)
class Transition:
    name: str
    label: str  # the button
    doing: str  # "Não é possível {doing}: …"
    roles: tuple[str, ...]  # who may take it by hand
    sources: tuple[str, ...]  # the statuses it may start from
    target: str = ""  # "" where the status stays
    button: bool = True  # a button on the record's page


class StateTable:
    """The transitions of one procedure and the phrase each status is refused with; `subject`
    ("a escala") opens the phrase where the phrases do not name the record themselves."""

    def __init__(
        self, transitions: Iterable[Transition], phrases: Mapping[Any, str], subject: str = ""
    ) -> None:
        self.transitions = tuple(transitions)
        self.by_name = {t.name: t for t in self.transitions}
        self.phrases: dict[str, str] = dict(phrases)
        self.subject = subject

    def why_not(self, status: str, action: str) -> str:
        """What the status is, said in the refusal ("" when `action` may start from it)."""
        if status in self.by_name[action].sources:
            return ""
        phrase = self.phrases[status]
        return f"{self.subject} {phrase}" if self.subject else phrase

    def refusal(self, status: str, action: str) -> str:
        """The whole refusal of `action` from `status` ("" when it may start)."""
        why = self.why_not(status, action)
        return f"Não é possível {self.by_name[action].doing}: {why}." if why else ""

    def require(self, status: str, action: str) -> Transition:
        if action not in self.by_name:
            raise ValidationError("Ação desconhecida.")
        why = self.refusal(status, action)
        if why:
            raise ValidationError(why)
        return self.by_name[action]

    def actions(self, status: str, roles: set[str]) -> list[Transition]:
        """The transitions a user with `roles` may take now (the page's buttons)."""
        return [t for t in self.transitions if t.button and status in t.sources and set(t.roles) & roles]
