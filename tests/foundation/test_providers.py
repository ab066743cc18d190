"""Links between apps fail loudly: a missing provider stops start-up, a failing one never clears."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from lotacao.core import providers


def test_every_seam_has_its_providers_at_start_up() -> None:
    assert providers.check_providers() == []
    names = {seam.name for seam in providers.seams()}
    assert {"public_vehicle_info", "work_items", "vehicle_permit"} <= names
    for seam in providers.seams():
        assert [name for name, _ in providers.providers(seam.name)][: len(seam.expected)] == list(
            seam.expected
        )


def test_a_missing_provider_stops_manage_py_check(monkeypatch: Any) -> None:
    seam = next(s for s in providers.seams() if s.name == "public_vehicle_info")
    without = {k: v for k, v in seam.providers.items() if k != "enforcement.measures"}
    monkeypatch.setattr(seam, "providers", without)
    with pytest.raises(SystemCheckError) as info:
        call_command("check")
    assert "lotacao.E001" in str(info.value)
    assert "enforcement.measures" in str(info.value)
    # Asked at run time, the seam refuses instead of answering with what it has.
    with pytest.raises(providers.MissingProvider):
        providers.providers("public_vehicle_info")


def test_providing_an_undeclared_seam_is_an_error() -> None:
    with pytest.raises(providers.MissingProvider):
        providers.provide("no_such_seam", "permits", lambda: None)
    with pytest.raises(ValueError, match="declared twice"):
        providers.declare("work_items", expected=("permits",), doc="")


def test_a_failing_provider_makes_the_public_check_fail_not_authorize(world: Any, monkeypatch: Any) -> None:
    from lotacao.public.selectors import vehicle_status

    seam = next(s for s in providers.seams() if s.name == "public_vehicle_info")

    def broken(vehicle: Any, on: Any) -> dict[str, Any]:
        raise RuntimeError("medidas indisponíveis")

    def permitted(vehicle: Any, on: Any) -> dict[str, Any]:
        return {"authorized": True}

    for name in seam.expected:
        monkeypatch.setitem(seam.providers, name, permitted)
    monkeypatch.setitem(seam.providers, "enforcement.measures", broken)
    # the read model asks many vehicles at once (public_vehicle_info_many): broken there too
    many = next(s for s in providers.seams() if s.name == "public_vehicle_info_many")

    def broken_many(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("medidas indisponíveis")

    monkeypatch.setitem(many.providers, "enforcement.measures", broken_many)
    with pytest.raises(RuntimeError, match="medidas indisponíveis"):
        vehicle_status("ABA1C23")  # the world's vehicle in Recife, its answer not yet computed
