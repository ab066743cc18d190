"""The delegation's end by a cause that is no penalty ends the permit as extinct ("Extinta"), not
as "Cassada" (Esteio Lei 3.839/2004, art. 46: the term, encampação, rescisão, the company's end,
the holder's death): no re-entry ban, the cause kept with its article, the public check saying
"extinta". The caducidade (arts. 35, VI, and 37) stays a cassação (tests/delegation/test_caducidade)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.delegation import services
from lotacao.permits import services as permits
from lotacao.permits.models import Ban, Permit
from lotacao.public.selectors import vehicle_status
from tests.delegation.conftest import TODAY

pytestmark = pytest.mark.django_db


def _rescind(contract: Any, gestor: Any) -> Any:
    return services.extinguish(
        actor=gestor,
        contract=contract,
        cause="rescisao",
        extinct_on=TODAY() - dt.timedelta(days=3),
        act="Sentença transitada em julgado no processo nº 123",
        reasons="Rescisão judicial por descumprimento do Município (art. 48).",
    )


def test_rescisao_ends_the_permit_as_extinct_with_its_cause_and_no_ban(
    contract: Any, gestor: Any, permit: Any
) -> None:
    _rescind(contract, gestor)
    permit = Permit.objects.get(pk=permit.pk)
    assert permit.status == Permit.Status.EXTINCT and permit.get_status_display() == "Extinta"
    assert permit.ends_on == TODAY() - dt.timedelta(days=3)
    assert (
        permit.extinction_cause
        == "Rescisão — Lei Municipal 3.839/2004 (Esteio), arts. 46, III, e 48 (rescisão)"
    )
    assert not Ban.objects.exists()
    event = AuditEvent.objects.get(action="permit.extinct", object_id=str(permit.pk))
    assert "Extinção da delegação por rescisão" in event.reason
    assert not AuditEvent.objects.filter(action="permit.revoked").exists()
    # an extinct permit is no longer live: it can be neither revoked nor extinguished again
    with pytest.raises(ValidationError, match="Não é possível cassar: a permissão foi extinta"):
        permits.revoke_permit(actor=gestor, permit=permit, reason="Teste", on=TODAY())


def test_encampacao_ends_the_permit_as_extinct(contract: Any, gestor: Any, permit: Any) -> None:
    services.extinguish(
        actor=gestor,
        contract=contract,
        cause="encampacao",
        extinct_on=TODAY() - dt.timedelta(days=1),
        act="Decreto nº 50/2026",
        reasons="Interesse público.",
        authorizing_law="Lei Municipal nº 9.000/2026",
        indemnity_amount=Decimal("1000.00"),
        indemnity_paid_on=TODAY() - dt.timedelta(days=2),
    )
    permit = Permit.objects.get(pk=permit.pk)
    assert permit.status == Permit.Status.EXTINCT
    assert permit.extinction_cause.startswith(
        "Encampação — Lei Municipal 3.839/2004 (Esteio), arts. 46, II, e 47"
    )


def test_the_public_check_reads_an_extinct_permit_as_extinct(
    world: Any, contract: Any, gestor: Any, permit: Any
) -> None:
    _rescind(contract, gestor)
    result = vehicle_status(permit.vehicle.plate)
    record = next(r for r in result["records"] if r.get("permit_number") == permit.number)
    assert result["authorized"] is False
    assert record["permit_status"] == "Extinta"
    assert "Permissão extinta." in record["reasons"]
    assert "Cassada" not in str(result) and "cassada" not in str(result)


def test_the_permit_page_says_extinct_and_why(
    world: Any, client: Any, contract: Any, gestor: Any, permit: Any
) -> None:
    _rescind(contract, gestor)
    client.force_login(gestor)
    answer = client.get(f"/permissoes/{permit.pk}/")
    page = answer.content.decode()
    assert answer.status_code == 200, page[:2000]
    assert (
        "Extinta" in page and "por rescisão — Lei Municipal 3.839/2004 (Esteio), arts. 46, III, e 48" in page
    )
    assert "Cassada" not in page


def test_only_the_cassacao_records_the_re_entry_ban(world: Any) -> None:
    """Where the law attaches a re-entry ban to the cassação (Recife's pack), revoking records it;
    extinguishing the permit by a cause that is no penalty does not."""
    permit = world.objects["recife"]["permits.permit"]
    actor = world.users["gestor.recife"]
    with pytest.raises(ValidationError, match="causa da extinção"):
        permits.extinguish_permit(actor=actor, permit=permit, cause=" ", reason="Fim", on=TODAY())
    permits.extinguish_permit(
        actor=actor, permit=permit, cause="Advento do termo (teste)", reason="Fim da delegação", on=TODAY()
    )
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.EXTINCT
    assert not Ban.unscoped.filter(permit=permit).exists()
    other = Permit.unscoped.get(pk=permit.pk)
    with pytest.raises(ValidationError, match="a permissão foi extinta"):
        permits.extinguish_permit(actor=actor, permit=other, cause="De novo", reason="De novo", on=TODAY())


def test_the_cassacao_still_records_its_ban(world: Any) -> None:
    permit = world.objects["recife"]["permits.permit"]
    permits.revoke_permit(actor=world.users["gestor.recife"], permit=permit, reason="Cassação", on=TODAY())
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.REVOKED
    assert Ban.unscoped.filter(permit=permit, cause=Ban.Cause.REVOCATION).exists()
