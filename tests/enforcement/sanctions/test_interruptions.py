"""Maricá (Lei 2.627/2015, art. 38): interruption of the service on the holder's request, up to 30
days a year; beyond that it is desistência and leads to revocation (art. 58, IV)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.accounts.models import StaffMembership, User
from lotacao.enforcement.models import InterruptionRequest, RevocationProcess
from lotacao.enforcement.sanctions import interruptions
from tests.enforcement.sanctions.effect_helpers import _place

pytestmark = pytest.mark.django_db
Status = InterruptionRequest.Status


def _staff(j: Any, role: str) -> User:
    user = User.objects.create_user(f"{role}.{j.code}", password="senha-de-teste-123")
    StaffMembership.objects.create(user=user, jurisdiction=j, role=role)
    return user


def _ask(permit: Any, start: str, end: str) -> InterruptionRequest:
    return interruptions.request_interruption(
        actor=None,
        permit=permit,
        starts_on=dt.date.fromisoformat(start),
        ends_on=dt.date.fromisoformat(end),
        reason="Reforma do veículo",
    )


def test_up_to_thirty_days_a_year_then_desistencia_and_the_manager_opens_the_revocation(world: Any) -> None:
    place = _place(world, "marica")
    permit = place["permit"]
    first = _ask(permit, "2025-03-01", "2025-03-20")  # 20 days
    assert first.status == Status.REQUESTED and first.year_days == 20
    interruptions.decide(
        actor=None,
        request=first,
        authorize=True,
        decided_on=dt.date(2025, 2, 20),
        note="Despacho 1",
        reason="x",
    )
    second = _ask(permit, "2025-08-01", "2025-08-10")  # 10 more: 30, the limit
    assert second.status == Status.REQUESTED and second.year_days == 30
    interruptions.decide(
        actor=None,
        request=second,
        authorize=True,
        decided_on=dt.date(2025, 7, 20),
        note="Despacho 2",
        reason="x",
    )
    third = _ask(permit, "2025-11-03", "2025-11-07")  # 35 in 2025: refused, recorded for the manager
    assert third.status == Status.OVER_LIMIT and third.year_days == 35
    assert "desistência" in third.explanation and "art. 58, IV" in third.explanation
    (item,) = [
        i
        for i in interruptions.interruption_items(dt.date(2025, 11, 1))
        if i.key == f"interruption:{third.pk}"
    ]
    assert item.kind == interruptions.OVER_LIMIT_KIND and "abra o processo de cassação" in item.title
    with pytest.raises(ValidationError, match="Descreva a interrupção"):
        interruptions.open_revocation(
            actor=None, request=third, on=dt.date(2025, 11, 20), fact="", reason="x"
        )
    process = interruptions.open_revocation(
        actor=None,
        request=third,
        on=dt.date(2025, 11, 20),
        fact="Veículo fora de operação de 03/11 a 19/11 (relatório da fiscalização nº 7)",
        reason="Desistência",
    )
    third.refresh_from_db()
    assert third.status == Status.REVOCATION_OPENED and third.revocation == process
    assert process.status == RevocationProcess.Status.OPEN and process.permit == permit
    assert any("art. 58, IV" in c for c in process.citations)
    assert not [
        i
        for i in interruptions.interruption_items(dt.date(2025, 11, 21))
        if i.key == f"interruption:{third.pk}"
    ]
    # a new calendar year starts again from zero (the pack's reading of "por ano")
    assert _ask(permit, "2026-01-05", "2026-01-25").status == Status.REQUESTED


def test_the_manager_cannot_authorize_beyond_the_limit_and_other_laws_have_no_request(world: Any) -> None:
    place = _place(world, "marica")
    permit = place["permit"]
    a = _ask(permit, "2025-03-01", "2025-03-20")
    b = _ask(permit, "2025-04-01", "2025-04-15")  # each within, together 35
    interruptions.decide(
        actor=None, request=a, authorize=True, decided_on=dt.date(2025, 2, 20), note="D", reason="x"
    )
    with pytest.raises(ValidationError, match="Não é possível autorizar"):
        interruptions.decide(
            actor=None, request=b, authorize=True, decided_on=dt.date(2025, 3, 25), note="D", reason="x"
        )
    recife = world.objects["recife"]["permits.permit"]
    # Recife has the interruption as a prior authorization without a yearly limit (art. 13,
    # XXXVII; art. 14, § 2º, II): the request belongs to the register of lotacao.duties.
    with pytest.raises(ValidationError, match="autorização prévia, sem limite anual"):
        _ask(recife, "2025-03-01", "2025-03-05")


def test_the_screen_records_the_request_and_refuses_beyond_the_limit(world: Any, client: Any) -> None:
    place = _place(world, "marica")
    permit, j = place["permit"], place["j"]
    url = f"/fiscalizacao/permissoes/{permit.pk}/interrupcoes/"
    client.force_login(_staff(j, "atendente"))
    page = client.get(url).content.decode()
    assert "até 30 dias por ano" in page
    ok = client.post(
        url, {"action": "request", "starts_on": "2025-03-01", "ends_on": "2025-03-10", "reason": "Reforma"}
    )
    assert ok.status_code == 302
    refused = client.post(
        url, {"action": "request", "starts_on": "2025-05-01", "ends_on": "2025-05-31", "reason": "Viagem"}
    )
    body = refused.content.decode()
    assert refused.status_code == 422 and "desistência" in body and "Recusada: além do limite anual" in body
    row = InterruptionRequest.objects.get(permit=permit, status=Status.REQUESTED)
    assert (
        client.post(
            url, {"action": "authorize", "request": row.pk, "on": "2025-02-25", "note": "D"}
        ).status_code
        == 403
    )
    client.force_login(_staff(j, "gestor"))
    assert (
        client.post(
            url, {"action": "authorize", "request": row.pk, "on": "2025-02-25", "note": "D"}
        ).status_code
        == 302
    )
    client.force_login(world.users["atendente.recife"])
    recife = world.objects["recife"]["permits.permit"]
    page = client.get(f"/fiscalizacao/permissoes/{recife.pk}/interrupcoes/").content.decode()
    assert "não prevê a interrupção" not in page
    assert "somente com autorização prévia" in page and "art. 13, XXXVII; art. 14, § 2º, II" in page
    assert "/deveres/autorizacoes/nova/" in page


def test_one_yearly_count_sees_both_registers_of_interruptions(world: Any) -> None:
    """Maricá's 30 days a year (art. 38) are counted once: days authorized on the enforcement
    page count against a prior authorization (lotacao.duties) and the other way round."""
    from lotacao.duties import services as duties
    from lotacao.duties.models import Authorization
    from lotacao.permits.models import Permit
    from tests import clock

    place = _place(world, "marica")
    permit, holder = place["permit"], place["holder"]
    year = clock.today().year + 1
    Permit.objects.filter(pk=permit.pk).update(valid_until=dt.date(year + 2, 12, 31))
    permit.refresh_from_db()
    first = _ask(permit, f"{year}-03-01", f"{year}-03-20")  # 20 days on the enforcement page
    interruptions.decide(
        actor=None, request=first, authorize=True, decided_on=clock.today(), note="Despacho 1", reason="x"
    )

    def authorization(start: str, end: str) -> Authorization:
        return duties.request_authorization(
            actor=None,
            holder=holder,
            kind="interruption",
            starts_on=dt.date.fromisoformat(start),
            ends_on=dt.date.fromisoformat(end),
            purpose="Reforma do veículo.",
        )

    with pytest.raises(ValidationError, match="além do que a lei permite"):
        authorization(f"{year}-06-01", f"{year}-06-11")  # 20 + 11 = 31
    ten = authorization(f"{year}-06-01", f"{year}-06-10")  # 20 + 10 = 30: the limit
    duties.decide_authorization(actor=None, authorization=ten, grant=True, reasons="ok", citation="art. 38")
    over = _ask(permit, f"{year}-09-01", f"{year}-09-01")  # one more day on the enforcement page
    assert over.status == Status.OVER_LIMIT and over.year_days == 31
    # a request in decision is not counted twice against itself, in either register
    pending = _ask(permit, f"{year + 1}-02-01", f"{year + 1}-02-25")
    assert interruptions.check(permit, pending.starts_on, pending.ends_on, exclude=pending.pk)["total"] == 25
    interruptions.decide(
        actor=None, request=pending, authorize=True, decided_on=clock.today(), note="Despacho 2", reason="x"
    )
    with pytest.raises(ValidationError, match="além do que a lei permite"):
        authorization(f"{year + 1}-05-01", f"{year + 1}-05-06")  # 25 + 6
