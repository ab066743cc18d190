"""Esteio (Lei 3.839/2004): the other causes of extinction (art. 46), the encampação with its
authorizing law and prior indemnity (art. 47), the immediate suspension on interruption (art. 27),
the reversible assets (art. 46, § 1º) and the indemnity's 180-day deadline (art. 46, § 2º)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.delegation import services
from lotacao.delegation.models import Contract, Extinction, Interruption, ReversibleAsset
from lotacao.permits.models import Permit
from tests.delegation.conftest import TODAY

pytestmark = pytest.mark.django_db


def _days(n: int) -> dt.date:
    return TODAY() - dt.timedelta(days=n)


def _encampar(contract: Any, gestor: Any, **kw: Any) -> Extinction:
    args: dict[str, Any] = {
        "actor": gestor,
        "contract": contract,
        "cause": "encampacao",
        "extinct_on": _days(1),
        "act": "Decreto nº 50/2026",
        "reasons": "Retomada por interesse público: integração tarifária.",
        "authorizing_law": "Lei Municipal nº 9.000/2026",
        "indemnity_amount": Decimal("150000.00"),
        "indemnity_paid_on": _days(2),
    }
    args.update(kw)
    return services.extinguish(**args)


def test_encampacao_needs_the_authorizing_law_and_the_prior_indemnity(
    contract: Any, gestor: Any, permit: Any
) -> None:
    with pytest.raises(ValidationError, match="lei autorizativa"):
        _encampar(contract, gestor, authorizing_law="")
    with pytest.raises(ValidationError, match="prévio pagamento da indenização"):
        _encampar(contract, gestor, indemnity_paid_on=None)
    with pytest.raises(ValidationError, match="prévio pagamento da indenização"):
        _encampar(contract, gestor, indemnity_amount=None)
    with pytest.raises(ValidationError, match="exige o pagamento prévio"):
        _encampar(contract, gestor, indemnity_paid_on=TODAY())
    assert not Extinction.objects.exists()
    assert Permit.objects.get(pk=permit.pk).status == Permit.Status.ACTIVE
    extinction = _encampar(contract, gestor)
    contract.refresh_from_db()
    assert contract.status == Contract.Status.EXTINCT
    assert extinction.authorizing_law == "Lei Municipal nº 9.000/2026"
    assert services.indemnity_state(extinction).startswith("paga em")
    permit = Permit.objects.get(pk=permit.pk)
    assert permit.status == Permit.Status.EXTINCT and permit.ends_on == _days(1)  # no penalty: art. 46
    with pytest.raises(ValidationError, match="o contrato já foi extinto"):
        _encampar(contract, gestor)


def test_the_term_is_not_reached_before_its_end(contract: Any, gestor: Any) -> None:
    with pytest.raises(ValidationError, match="não houve advento do termo"):
        services.extinguish(
            actor=gestor, contract=contract, cause="term", extinct_on=TODAY(), act="Certidão", reasons="Fim"
        )


def test_death_waits_for_the_successors_window(contract: Any, gestor: Any, permit: Any) -> None:
    with pytest.raises(ValidationError, match="Os sucessores podem se habilitar até"):
        services.extinguish(
            actor=gestor,
            contract=contract,
            cause="death",
            extinct_on=TODAY(),
            event_on=_days(30),
            act="Certidão de óbito",
            reasons="Falecimento",
        )
    with pytest.raises(ValidationError, match="pessoa jurídica"):
        services.extinguish(
            actor=gestor,
            contract=contract,
            cause="bankruptcy",
            extinct_on=TODAY(),
            act="Sentença",
            reasons="R",
        )


def test_rescisao_records_the_indemnity_deadline_and_its_payment(contract: Any, gestor: Any) -> None:
    extinction = services.extinguish(
        actor=gestor,
        contract=contract,
        cause="rescisao",
        extinct_on=_days(10),
        act="Sentença transitada em julgado no processo nº 123",
        reasons="Rescisão judicial",
    )
    assert extinction.indemnity_due is not None
    assert extinction.indemnity_due >= _days(10) + dt.timedelta(days=180)
    assert services.indemnity_state(extinction).startswith("prazo até")
    assert services.indemnity_state(
        extinction, on=extinction.indemnity_due + dt.timedelta(days=1)
    ).startswith("vencida em")
    with pytest.raises(ValidationError, match="valor pago"):
        services.record_indemnity_payment(
            actor=gestor, extinction=extinction, amount=Decimal("0"), paid_on=TODAY()
        )
    services.record_indemnity_payment(
        actor=gestor, extinction=extinction, amount=Decimal("10.00"), paid_on=TODAY()
    )
    with pytest.raises(ValidationError, match="já foi registrada como paga"):
        services.record_indemnity_payment(
            actor=gestor, extinction=extinction, amount=Decimal("10.00"), paid_on=TODAY()
        )


def test_reversible_assets_return_only_after_the_extinction(contract: Any, gestor: Any) -> None:
    asset = services.add_asset(
        actor=gestor,
        contract=contract,
        kind="garage",
        description="Garagem da Rua A, 100",
        appraised_value=None,
    )
    with pytest.raises(ValidationError, match="só retornam ao Município com a extinção"):
        services.return_asset(actor=gestor, asset=asset, returned_on=TODAY())
    with pytest.raises(ValidationError, match="tipo do bem"):
        services.add_asset(actor=gestor, contract=contract, kind="boat", description="Barco")
    _encampar(contract, gestor)
    services.return_asset(actor=gestor, asset=asset, returned_on=TODAY())
    assert ReversibleAsset.objects.get(pk=asset.pk).returned_on == TODAY()


def test_interruption_suspends_the_permit_at_once(contract: Any, gestor: Any, permit: Any) -> None:
    with pytest.raises(ValidationError, match="greve não enseja a suspensão"):
        services.record_interruption(
            actor=gestor,
            contract=contract,
            interrupted_on=_days(1),
            facts="Paralisação",
            until=TODAY() + dt.timedelta(days=30),
            excuse="strike",
        )
    assert not Interruption.objects.exists()
    services.record_interruption(
        actor=gestor,
        contract=contract,
        interrupted_on=_days(1),
        facts="Linha sem viagens das 6h às 12h sem motivo.",
        until=TODAY() + dt.timedelta(days=30),
    )
    permit = Permit.objects.get(pk=permit.pk)
    assert permit.status == Permit.Status.SUSPENDED
    assert permit.suspended_until == TODAY() + dt.timedelta(days=30)
    with pytest.raises(ValidationError, match="Não é possível suspender"):  # the permits' state machine
        services.record_interruption(
            actor=gestor,
            contract=contract,
            interrupted_on=TODAY(),
            facts="De novo",
            until=TODAY() + dt.timedelta(days=40),
        )
