"""Tenancy: one mechanism that scopes every query of a tenant-owned model.

Every tenant-owned model derives from `TenantModel` and so has a `jurisdiction` and a default
manager whose querysets are filtered by the *scope* active in the current context:

- in a web request, `TenancyMiddleware` activates the signed-in user's scope before any view
  runs: staff see the rows of the jurisdictions where they hold a role; a permit holder sees only
  the rows that lead to their own holder record (each model says how, in `holder_path`); the
  anonymous public sees nothing through these managers (public pages use explicit selectors);
- outside requests (management commands, nightly jobs, migrations, tests), no scope is active and
  queries are unrestricted: those are the system's own work. `scoped()` activates a scope there.

Views never filter by jurisdiction themselves, so no view can forget to.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar

from django.db import models

ALL_HOLDERS = "*"


@dataclass(frozen=True)
class Scope:
    """What the current user may see. `jurisdictions=None` means every jurisdiction."""

    jurisdictions: frozenset[str] | None
    holder_id: int | None = None  # set for a permit holder's account: only their own rows

    @property
    def is_unrestricted(self) -> bool:
        return self.jurisdictions is None and self.holder_id is None


NOTHING = Scope(jurisdictions=frozenset())
EVERYTHING = Scope(jurisdictions=None)

_current: ContextVar[Scope | None] = ContextVar("lotacao_scope", default=None)


def current_scope() -> Scope | None:
    return _current.get()


@contextmanager
def scoped(scope: Scope) -> Iterator[Scope]:
    token = _current.set(scope)
    try:
        yield scope
    finally:
        _current.reset(token)


class TenantQuerySet(models.QuerySet[Any]):
    def apply_scope(self, scope: Scope | None) -> TenantQuerySet:
        if scope is None or scope.is_unrestricted:
            return self
        qs = self
        if scope.jurisdictions is not None:
            qs = qs.filter(**{self.model.jurisdiction_path + "__in": scope.jurisdictions})
        if scope.holder_id is not None:
            path = self.model.holder_path
            if path is None:
                return qs.none()
            if path != ALL_HOLDERS:
                qs = qs.filter(**{path: scope.holder_id}).distinct()
        return qs


class TenantManager(models.Manager[Any]):
    """The default manager of tenant-owned models: applies the active scope to every query."""

    _queryset_class = TenantQuerySet

    def get_queryset(self) -> TenantQuerySet:
        qs = TenantQuerySet(self.model, using=self._db)
        return qs.apply_scope(current_scope())


class TenantModel(models.Model):
    """A row that belongs to one jurisdiction."""

    jurisdiction = models.ForeignKey(
        "core.Jurisdiction", on_delete=models.PROTECT, related_name="+", verbose_name="jurisdição"
    )

    # How to reach the jurisdiction id and, for a permit holder's account, the holder id.
    jurisdiction_path: ClassVar[str] = "jurisdiction_id"
    holder_path: ClassVar[str | None] = None  # None: not visible to permit holders

    objects = TenantManager()
    unscoped = models.Manager()  # system work only (jobs, public selectors); never in staff views

    class Meta:
        abstract = True
        base_manager_name = "unscoped"
