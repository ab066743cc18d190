"""Per law with councils, end to end: a line is not created or changed without the council's
resolution the law requires (the refusal cites the article, nothing changes); with it, the
approval cites the resolution in the act and in the audit record. Laws without the gate
(Cabo and Maricá for lines, Pernambuco for everything) go on without one."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.councils import gates
from lotacao.councils.testing import resolution_for
from lotacao.lines import services
from lotacao.lines.models import LineVersion, ServiceOrder
from tests.lines.conftest import approved_line, lines_db, new_line, version_kwargs  # noqa: F401

pytestmark = pytest.mark.usefixtures("lines_db")

D = dt.date(2025, 3, 1)
WEEKDAY = [{"day_type": "weekday", "first": 22 * 60, "last": 28 * 60, "headway": 30}]


def _approve(version: LineVersion, resolution: Any = None) -> LineVersion:
    return services.approve_version(
        actor=None,
        version=version,
        act="",
        approved_on=D,
        valid_from=D,
        reason="Aprovação",
        resolution=resolution,
    )


def test_recife_line_creation_and_fleet_wait_for_the_cmtt() -> None:
    line = new_line("recife")
    version = services.draft_version(
        actor=None, line=line, on=D, **version_kwargs("recife", grounds=["temporal"])
    )
    with pytest.raises(ValidationError) as refused:
        _approve(version)
    text = " ".join(refused.value.messages)
    assert "aprovação do CMTT/Recife" in text and "art. 3º, § 1º" in text and "continua rascunho" in text
    assert LineVersion.objects.get(pk=version.pk).status == LineVersion.Status.DRAFT
    later = resolution_for("recife", "line.create", D + dt.timedelta(days=1))
    with pytest.raises(ValidationError, match="posterior"):
        _approve(version, later)
    renewal = resolution_for("recife", "permit.renew", D)
    with pytest.raises(ValidationError, match="prorrogação da permissão"):
        _approve(version, renewal)
    resolution = resolution_for("recife", "line.create", D)
    done = _approve(version, resolution)
    assert done.status == LineVersion.Status.APPROVED
    assert done.approval_act == resolution.citation == "Resolução nº 3/2025 do CMTT/Recife, de 01/03/2025"
    event = AuditEvent.objects.filter(action="line_version.approved").latest("pk")
    assert resolution.citation in event.reason

    order = {
        "line": line,
        "periods": WEEKDAY,
        "valid_from": D,
        "fleet": 2,
        "trip_minutes": 30,
        "act": "OSO 1",
    }
    with pytest.raises(ValidationError, match=r"tipo ou da quantidade de veículos .*art\. 3º, § 1º"):
        services.issue_service_order(actor=None, reason="OSO", **order)
    assert not ServiceOrder.objects.filter(line=line).exists()
    fleet = resolution_for("recife", "fleet.change", D)
    services.issue_service_order(actor=None, reason="OSO", resolution=fleet, **order)
    # the same fleet again is no change: no resolution needed
    services.issue_service_order(
        actor=None, reason="Horário", **{**order, "valid_from": D + dt.timedelta(days=5)}
    )
    with pytest.raises(ValidationError, match="quantidade de veículos"):
        services.issue_service_order(
            actor=None, reason="Mais", **{**order, "fleet": 3, "valid_from": D + dt.timedelta(days=9)}
        )
    event = AuditEvent.objects.filter(action="service_order.issued").order_by("pk").first()
    assert event is not None and fleet.citation in event.reason


def test_esteio_line_change_waits_for_the_cmtt() -> None:
    line = approved_line("esteio", valid_from=D)  # creation: no council in art. 26
    assert gates.gate("esteio", "line.create") is None
    changed = services.draft_version(
        actor=None, line=line, on=D, **version_kwargs("esteio", destination="Bairro Novo")
    )
    assert changed.number == 2
    with pytest.raises(ValidationError) as refused:
        _approve(changed)
    assert "art. 26, parágrafo único" in " ".join(refused.value.messages)
    opinion = resolution_for("esteio", "line.change", D, favorable=False)
    with pytest.raises(ValidationError, match="não foi favorável"):
        _approve(changed, opinion)
    resolution = resolution_for("esteio", "line.change", D)
    done = _approve(changed, resolution)
    assert done.status == LineVersion.Status.APPROVED and "do CMTT, de 01/03/2025" in done.approval_act


@pytest.mark.parametrize("code", ["cabo", "marica"])
def test_laws_without_a_line_gate_approve_without_a_resolution(code: str) -> None:  # no database needed
    assert gates.require(code, "line.create", D, None) is None
    assert gates.require(code, "line.change", D, None) is None
    assert gates.require("pernambuco", "permit.renew", D, None) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("code", "body", "article"),
    [
        ("recife", "cdtc", "art. 39, §§ 1º a 3º"),
        ("esteio", "cip", "Anexo I, art. 23"),
        ("cabo", "council", "art. 29"),
    ],
)
def test_penalty_judgements_are_the_bodies_own_acts_not_gates(code: str, body: str, article: str) -> None:
    """Recife's CDTC (art. 39, § 1º), Esteio's CIP (Anexo II, art. 20) and Cabo's Conselho (art.
    29) decide the penalties themselves, in the enforcement due process (pack `process.bodies`):
    no gate asks them for a resolution besides, and no regulation gate waits for a service."""
    from lotacao.core import law

    bodies = {b["key"]: b for b in law.value(code, "process.bodies", D) or []}
    assert body in bodies and article in bodies[body]["cite"]
    for key in ("penalty.defence", "penalty.apply", "infraction.appeal", "regulation.issue"):
        assert gates.gate(code, key) is None
    assert gates.GATES["cabo"] == {}
