"""Every other refusal the laws imply (and bad input): a Portuguese message, nothing written."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.lines import places, services
from lotacao.lines.models import LineVersion, Place, ServiceOrder
from tests.lines.conftest import (
    agency_value,
    approved_line,
    new_line,
    permit,
    resolution_if_gated,
    version_kwargs,
)

D = dt.date(2025, 3, 1)
WEEKDAY = [{"day_type": "weekday", "first": 360, "last": 600, "headway": 30}]


def text(error: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(error.value.messages)


def test_recife_approval_needs_the_feasibility_study(lines_db: Any) -> None:
    version = services.draft_version(
        actor=None, line=new_line("recife"), on=D, **version_kwargs("recife", study="")
    )
    with pytest.raises(ValidationError) as refused:
        services.approve_version(
            actor=None,
            version=version,
            act="Res. 1",
            approved_on=D,
            valid_from=D,
            reason="x",
            resolution=resolution_if_gated("recife", "line.create", D),
        )
    assert "estudo de viabilidade" in text(refused) and "art. 4º, parágrafo único" in text(refused)
    assert LineVersion.objects.get(pk=version.pk).status == "draft"


def test_recife_line_needs_its_grounds(lines_db: Any) -> None:
    with pytest.raises(ValidationError) as refused:
        services.draft_version(
            actor=None, line=new_line("recife"), on=D, **version_kwargs("recife", grounds=[])
        )
    assert "Indique o fundamento da linha" in text(refused) and "art. 1º, §§ 2º a 4º" in text(refused)


def test_marica_regions_wait_for_the_agency_then_must_be_known(lines_db: Any) -> None:
    version = services.draft_version(actor=None, line=new_line("marica"), on=D, **version_kwargs("marica"))
    assert version.checks[0]["severity"] == "missing"  # the draft keeps what the agency must supply
    with pytest.raises(ValidationError) as refused:
        services.approve_version(
            actor=None, version=version, act="EPT 1", approved_on=D, valid_from=D, reason="x"
        )
    assert "Valores da lei" in text(refused) and "art. 9º" in text(refused)
    agency_value("marica", "lines.regions", ["Centro", "Inoã"])
    with pytest.raises(ValidationError) as refused:
        services.draft_version(
            actor=None, line=new_line("marica"), on=D, **version_kwargs("marica", region="Lua")
        )
    assert "Região Lua desconhecida (use: Centro, Inoã)" in text(refused)


def test_bad_drawings_are_refused(lines_db: Any) -> None:
    line = new_line("esteio")
    for over, words in (
        ({"itinerary": [[-51.1, -29.8]]}, "pelo menos dois pontos"),
        ({"itinerary": [[-51.1, -29.8], [-51.1, -29.8]]}, "dois pontos distintos"),
        ({"itinerary": [[-251.1, -29.8], [-51.1, -29.9]]}, "fora do globo"),
        ({"stops": [{"name": "A", "lat": -29.8, "lon": -51.1}]}, "ao menos dois pontos"),
        (
            {"stops": [{"name": "", "lat": -29.8, "lon": -51.1}, {"name": "B", "lat": -29.8, "lon": -51.0}]},
            "nome",
        ),
        ({"shape": "zigue-zague"}, "Tipo de linha desconhecido"),
        ({"reason": " "}, "motivo"),
    ):
        with pytest.raises(ValidationError) as refused:
            services.draft_version(actor=None, line=line, on=D, **version_kwargs("esteio", **over))
        assert words in text(refused)
    assert not LineVersion.objects.filter(line=line).exists()


def test_service_order_refusals(lines_db: Any) -> None:
    line = approved_line("esteio", valid_from=D)
    base = {"actor": None, "line": line, "fleet": 1, "trip_minutes": 30, "act": "OSO 1", "reason": "x"}
    cases = [
        ({"periods": WEEKDAY, "valid_from": dt.date(2024, 12, 1)}, "não tem versão aprovada em vigor"),
        ({"periods": WEEKDAY, "valid_from": D, "act": ""}, "Informe o ato que emite a ordem de serviço"),
        ({"periods": WEEKDAY, "valid_from": D, "kind": "temporary"}, "precisa do motivo"),
        ({"periods": [], "valid_from": D}, "ao menos um período"),
        (
            {"periods": [{"day_type": "weekday", "first": 360, "last": 600}], "valid_from": D},
            "intervalo ou as partidas",
        ),
        (
            {"periods": [{"day_type": "lua", "first": 1, "last": 2, "headway": 1}], "valid_from": D},
            "desconhecido",
        ),
        (
            {"periods": WEEKDAY, "valid_from": D, "vehicles": [permit("esteio").vehicle]},
            "não tem vaga na linha",
        ),
    ]
    for over, words in cases:
        with pytest.raises(ValidationError) as refused:
            services.issue_service_order(**{**base, **over})
        assert words in text(refused), over
    assert not ServiceOrder.objects.filter(line=line).exists()


def test_one_line_per_holder_and_moves_need_the_act(lines_db: Any) -> None:
    line, other = approved_line("recife", valid_from=D), approved_line("recife", valid_from=D)
    first = permit("recife", line)
    place = places.assign_place(actor=None, permit=first, line=line, starts_on=D, reason="x")
    with pytest.raises(ValidationError) as refused:
        places.assign_place(actor=None, permit=first, line=other, starts_on=D, reason="x")
    assert "uma única vaga" in text(refused)
    second = permit("recife", other)  # same holder, another permit, another line
    second.holder = first.holder
    second.save()
    with pytest.raises(ValidationError) as refused:
        places.assign_place(actor=None, permit=second, line=other, starts_on=D, reason="x")
    assert "art. 2º, § 5º" in text(refused)
    with pytest.raises(ValidationError) as refused:
        places.move_place(actor=None, place=place, line=other, on=dt.date(2025, 4, 1), act="", reason="x")
    assert "autorização prévia e expressa" in text(refused) and "Anexo Único, Grupo 4, b" in text(refused)
    moved = places.move_place(
        actor=None, place=place, line=other, on=dt.date(2025, 4, 1), act="Portaria 3", reason="x"
    )
    assert moved.line == other and Place.objects.get(pk=place.pk).ends_on == dt.date(2025, 3, 31)
    with pytest.raises(ValidationError):
        places.assign_place(
            actor=None, permit=permit("recife", line, status="revoked"), line=line, starts_on=D, reason="x"
        )
