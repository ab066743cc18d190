"""The bank's Pix notification (the Banco Central's Pix API webhook shape): a token bound to one
jurisdiction with the `pix_webhook` scope, idempotent on endToEndId, unknown txids to the queue,
errors as Portuguese problem details."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from lotacao.accounts.models import User
from lotacao.accounts.tokens import create_token
from lotacao.billing.ledger import services
from lotacao.billing.ledger.models import Payment
from lotacao.billing.payments.models import ReconciliationItem

URL = "/api/billing/pix-webhook/{}/pix"


def _token(world: Any, code: str = "recife") -> str:
    bank = User.objects.create_user(f"banco.{code}", password="senha-de-teste-123")
    jurisdiction = world.a if code == world.a.code else world.b
    return create_token(actor=None, user=bank, label="Pix", scope="pix_webhook", jurisdiction=jurisdiction)


def _pix(e2e: str, txid: str, valor: str) -> dict[str, str]:
    return {"endToEndId": e2e, "txid": txid, "valor": valor, "horario": "2027-03-16T13:05:00.000Z"}


E2E = "E00038166202703161305abcdefghijk"


def _post(client: Any, code: str, body: Any, token: str | None) -> Any:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(URL.format(code), body, content_type="application/json", **headers)


def test_a_pix_notification_pays_its_charge_once_and_queues_unknown_txids(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    charge = services.issue_charge(
        actor=None,
        holder=holder,
        kind="fee",
        description="Taxa",
        amount="50.00",
        due_on=dt.date(2027, 3, 20),
        reason="t",
    )
    token = _token(world)
    body = {"pix": [_pix(E2E, charge.slip_code, "50.00"), _pix(E2E[:-1] + "z", "REC000000009999", "12.34")]}
    first = _post(client, "recife", body, token)
    assert first.status_code == 200, first.content
    assert first.json() == {"received": 2, "matched": 1, "partial": 0, "queued": 1, "duplicates": 0}
    charge.refresh_from_db()
    assert charge.paid_on == dt.date(2027, 3, 16)
    assert charge.payments.get().bank_transaction == f"pix:{E2E}"
    queued = ReconciliationItem.objects.get()
    assert queued.source == "pix" and queued.amount == Decimal("12.34") and queued.code == "REC000000009999"
    replay = _post(client, "recife", body, token)
    assert replay.json() == {"received": 2, "matched": 0, "partial": 0, "queued": 0, "duplicates": 2}
    assert Payment.objects.count() == 1 and ReconciliationItem.objects.count() == 1


def test_the_webhook_refuses_without_the_agencys_scoped_token(world: Any, client: Any) -> None:
    body = {"pix": [_pix(E2E, "REC000000000001", "1.00")]}
    no_token = _post(client, "recife", body, None)
    assert no_token.status_code == 401 and no_token["Content-Type"] == "application/problem+json"
    assert "Autenticação necessária" in no_token.json()["detail"]
    # a whole-API token (even the operator's) does not open the webhook, nor the webhook's the API
    operator = User.objects.create_superuser("operador.pix", password="senha-de-teste-123")
    assert (
        _post(client, "recife", body, create_token(actor=None, user=operator, label="x")).status_code == 401
    )
    esteio = _token(world, world.b.code)
    wrong = _post(client, "recife", body, esteio)
    assert (
        wrong.status_code == 403
        and wrong.json()["detail"] == "Este token não é da jurisdição desta notificação."
    )
    assert client.get("/api/billing/charges", HTTP_AUTHORIZATION=f"Bearer {esteio}").status_code == 401
    assert not Payment.objects.exists() and not ReconciliationItem.objects.exists()


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"endToEndId": "E123"}, "pix[1].endToEndId: identificador fim a fim inválido"),
        ({"valor": "12,30"}, "pix[1].valor: valor positivo com duas casas decimais"),
        ({"horario": "ontem"}, "pix[1].horario: data e hora ISO 8601"),
    ],
)
def test_a_bad_entry_refuses_the_whole_notification(
    world: Any, client: Any, entry: dict[str, str], message: str
) -> None:
    token = _token(world)
    body = {"pix": [_pix(E2E, "SEMGUIA", "1.00"), {**_pix(E2E[:-1] + "y", "SEMGUIA", "2.00"), **entry}]}
    response = _post(client, "recife", body, token)
    assert response.status_code == 422 and response["Content-Type"] == "application/problem+json"
    assert message in response.json()["detail"]
    assert not ReconciliationItem.objects.exists()
