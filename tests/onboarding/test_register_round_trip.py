"""Export → import into an empty agency reproduces the register: the demo's Recife (loaded once
for the module, then rolled back) exported, imported into a Recife made as tests/conftest.py makes
by `setup_agency`, with the same persons, holders, vehicles, permits, agents, notices and open
debts; a second import (through the command, `--json`) creates nothing."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction

from lotacao.billing.ledger.models import Charge
from lotacao.core.models import Jurisdiction
from lotacao.enforcement.models import InfractionNotice, PointsEntry
from lotacao.inspections.models import Inspection, InsurancePolicy, Seal
from lotacao.permits.models import Permit, PermitAgent
from lotacao.registry.models import Holder, Line, Person, Vehicle
from tests.onboarding.register_helpers import messages, run

pytestmark = pytest.mark.django_db


def _register(code: str) -> dict[str, Any]:
    """What must come back: the natural keys and the facts of each kind."""
    permits = Permit.unscoped.filter(jurisdiction_id=code).exclude(number="")
    notices = InfractionNotice.unscoped.filter(jurisdiction_id=code)
    return {
        "persons": sorted(
            Person.unscoped.filter(jurisdiction_id=code).values_list("cpf", "full_name", "birth_date")
        ),
        "holders": sorted(Holder.unscoped.filter(jurisdiction_id=code).values_list("person__cpf", flat=True)),
        "lines": sorted(Line.unscoped.filter(jurisdiction_id=code).values_list("code", "name")),
        "vehicles": sorted(
            Vehicle.unscoped.filter(jurisdiction_id=code).values_list(
                "plate", "renavam", "manufacture_year", "category", "seats", "holder__person__cpf"
            )
        ),
        "permits": sorted(
            permits.values_list(
                "number",
                "status",
                "holder__person__cpf",
                "vehicle__plate",
                "line__code",
                "granted_on",
                "valid_until",
            )
        ),
        "agents": sorted(
            PermitAgent.unscoped.filter(jurisdiction_id=code).values_list(
                "permit__number", "person__cpf", "role"
            )
        ),
        "insurance": sorted(
            InsurancePolicy.unscoped.filter(jurisdiction_id=code).values_list("vehicle__plate", "number")
        ),
        "inspections": sorted(
            Inspection.unscoped.filter(jurisdiction_id=code).values_list("vehicle__plate", "status")
        ),
        "seals": sorted(Seal.unscoped.filter(jurisdiction_id=code).values_list("number", "vehicle__plate")),
        "notices": sorted(
            notices.values_list("number", "status", "infraction_code", "holder__person__cpf", "drawn_up_at")
        ),
        "penalties": sorted((n.number, repr(n.penalty)) for n in notices),
        "points": sorted(
            PointsEntry.unscoped.filter(jurisdiction_id=code).values_list("notice__number", "points")
        ),
        "open_debts": sorted(
            Charge.unscoped.filter(jurisdiction_id=code, paid_on__isnull=True, cancelled=False).values_list(
                "holder__person__cpf", "kind", "amount", "due_on"
            )
        ),
    }


@pytest.fixture(scope="module")
def demo_export(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any
) -> tuple[Path, dict[str, Any]]:
    directory = tmp_path_factory.mktemp("recife")
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", "--quiet-logins", stdout=StringIO())
        call_command(
            "export_register", "--jurisdiction", "recife", "--dir", str(directory), stdout=StringIO()
        )
        expected = _register("recife")
        # Imported back into the very register it came from, the export finds everything there.
        same = run(directory)
        assert same.errors == [], messages(same)
        assert sum(same.created.values()) == 0, same.created
        assert _register("recife") == expected
        transaction.set_rollback(True)  # the tests start from an empty database again
    return directory, expected


def test_export_then_import_into_an_empty_recife_reproduces_the_register(
    demo_export: tuple[Path, dict[str, Any]],
) -> None:
    directory, expected = demo_export
    assert not Person.unscoped.exists()
    assert expected["permits"] and expected["notices"] and expected["vehicles"]
    # The agency comes in as a new installation's does (setup_agency), then its register.
    call_command(
        "setup_agency",
        "--jurisdiction",
        "recife",
        "--manager",
        "gestora.recife",
        "--email",
        "gestora@recife.example.gov.br",
        stdout=StringIO(),
    )
    assert Jurisdiction.objects.get(code="recife").name == "Recife"
    report = run(directory)
    assert report.errors == [], messages(report)
    assert report.saved
    assert _register("recife") == expected
    assert report.created["permissoes"] == len(expected["permits"])
    out = StringIO()
    call_command("import_register", "--jurisdiction", "recife", "--dir", str(directory), "--json", stdout=out)
    again = json.loads(out.getvalue())
    assert set(again) == {"created", "updated", "unchanged", "errors"}
    assert again["errors"] == []
    assert sum(again["created"].values()) == 0 and sum(again["updated"].values()) == 0
    assert again["unchanged"]["permissoes"] == len(expected["permits"])
    assert _register("recife") == expected
