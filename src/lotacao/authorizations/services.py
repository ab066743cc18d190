"""Write services of the authorizations (Esteio Lei 3.839/2004, arts. 12 to 17 and 52):
keyword-only, atomic, validated (Portuguese messages naming the article), audited. Every status
change goes through `lotacao.authorizations.states`; what the law and the agency say is read
through `lotacao.authorizations.rules`.

The procedure:

1. a request (`request_authorization`) for a kind the agency turned on, a holder (a person or a
   company of the registry) and a vehicle of the registry that serves no live permit and no other
   open authorization; a taxi with fewer doors than the law asks at replacement is refused when it
   replaces another vehicle, and otherwise only stays included if acquired before the regulation
   of the law (art. 52);
2. the decision (`grant` with the agency's act, the number and the start — the validity is the
   agency's value with its act, never a number of ours — or `refuse`);
3. what follows: `suspend`, `reinstate`, `revoke`, `withdraw`, `expire` (the date passed); the
   grant of a replacement closes the authorization of the replaced vehicle (`replaced`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.authorizations import rules, states
from lotacao.authorizations.models import Authorization
from lotacao.core.formats import br_date, lower_first
from lotacao.permits.models import Permit
from lotacao.permits.rules import add
from lotacao.registry.models import Company, Person, Vehicle

S = Authorization.Status


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _text(value: str, message: str) -> str:
    if not value or not value.strip():
        raise ValidationError(message)
    return value.strip()


def _fresh(authorization: Authorization) -> Authorization:
    return Authorization.unscoped.select_for_update().get(pk=authorization.pk)


def check_vehicle_free(*, vehicle: Vehicle, on: dt.date, exclude: int | None = None) -> None:
    """Refuse a vehicle that serves a live permit or another open authorization, or was
    deregistered (one vehicle, one service)."""
    if vehicle.deregistered_on is not None and vehicle.deregistered_on <= on:
        raise ValidationError(f"O veículo {vehicle} foi baixado do serviço: não pode ser autorizado.")
    permit = Permit.unscoped.filter(vehicle=vehicle, status__in=Permit.LIVE).first()
    if permit is not None:
        raise ValidationError(
            f"O veículo {vehicle} está vinculado à {permit} do transporte coletivo: um veículo serve a "
            "um só serviço."
        )
    other = Authorization.unscoped.filter(vehicle=vehicle, status__in=Authorization.OPEN)
    if exclude is not None:
        other = other.exclude(pk=exclude)
    found = other.first()
    if found is not None:
        raise ValidationError(
            f"O veículo {vehicle} já está na {found} ({lower_first(found.get_kind_display())}, "
            f"{lower_first(found.get_status_display())}): um veículo serve a uma só autorização."
        )


def check_doors(
    *, code: str, kind: str, vehicle: Vehicle, acquired_on: dt.date | None, replacement: bool, on: dt.date
) -> str:
    """Art. 52: a taxi must have four doors when it replaces another vehicle; the two-door ones
    acquired before the regulation of the law stay included. Refuses otherwise; returns the
    sentence the authorization shows when the guarantee applies ("" when no question arises).

    Interpretation: a taxi with fewer doors that is not a replacement is included only under the
    guarantee (acquired before the regulation); while the agency has not informed the date of the
    regulation, the guarantee cannot be checked and the request is refused saying so."""
    if kind not in (Authorization.Kind.TAXI_COMMON, Authorization.Kind.TAXI_SPECIAL):
        return ""
    minimum, citation = rules.doors_rule(code, on)
    if minimum is None or vehicle.doors >= minimum:
        return ""
    if replacement:
        raise ValidationError(
            f"Na substituição do veículo do táxi, o novo veículo deve ter {minimum} portas ({citation}); "
            f"o veículo {vehicle} tem {vehicle.doors}."
        )
    if acquired_on is None:
        raise ValidationError(
            f"O veículo {vehicle} tem {vehicle.doors} portas: informe a data de aquisição, pois só "
            f"continuam incluídos os veículos de duas portas adquiridos antes da regulamentação ({citation})."
        )
    regulation = rules.regulation_date(code, on)
    if regulation is None:
        raise ValidationError(
            f"O veículo {vehicle} tem {vehicle.doors} portas e só continua incluído se adquirido antes da "
            f"regulamentação da lei ({citation}), cuja data o órgão ainda não informou: o gestor precisa "
            "registrá-la em Valores da lei."
        )
    if acquired_on >= regulation:
        raise ValidationError(
            f"O veículo {vehicle} tem {vehicle.doors} portas e foi adquirido em {br_date(acquired_on)}, "
            f"depois da regulamentação da lei ({br_date(regulation)}): o táxi deve ter {minimum} portas "
            f"({citation})."
        )
    return (
        f"Veículo de {vehicle.doors} portas adquirido em {br_date(acquired_on)}, antes da regulamentação "
        f"da lei ({br_date(regulation)}): continua incluído ({citation})."
    )


def doors_note(authorization: Authorization, on: dt.date | None = None) -> str:
    """The art. 52 sentence for the screen ("" when the question does not arise)."""
    try:
        return check_doors(
            code=authorization.jurisdiction_id,
            kind=authorization.kind,
            vehicle=authorization.vehicle,
            acquired_on=authorization.vehicle_acquired_on,
            replacement=authorization.replaces_id is not None,
            on=authorization.requested_on,
        )
    except ValidationError as error:
        return " ".join(error.messages)


# --------------------------------------------------------------------------- the request


@transaction.atomic
def request_authorization(
    *,
    actor: Any,
    jurisdiction_code: str,
    kind: str,
    vehicle: Vehicle,
    person: Person | None = None,
    company: Company | None = None,
    requested_on: dt.date | None = None,
    vehicle_acquired_on: dt.date | None = None,
    replaces: Authorization | None = None,
    reason: str = "Pedido de autorização recebido",
) -> Authorization:
    """Record a request of authorization (art. 17) for a kind the agency turned on."""
    on = _today(requested_on)
    code = jurisdiction_code
    rules.require_kind(code, kind, on)
    reason = _text(reason, "Informe o motivo.")
    if (person is None) == (company is None):
        raise ValidationError(
            "Escolha o autorizatário: uma pessoa física ou uma pessoa jurídica do cadastro."
        )
    party: Any = person or company
    if party.jurisdiction_id != code or vehicle.jurisdiction_id != code:
        raise ValidationError("O autorizatário e o veículo devem estar no cadastro desta jurisdição.")
    if vehicle_acquired_on is not None and vehicle_acquired_on > on:
        raise ValidationError("A data de aquisição do veículo não pode ser posterior ao pedido.")
    if replaces is not None:
        if replaces.jurisdiction_id != code or replaces.status not in Authorization.LIVE:
            raise ValidationError("Só se substitui o veículo de uma autorização em vigor ou suspensa.")
        if replaces.kind != kind:
            raise ValidationError("A substituição do veículo mantém o serviço da autorização substituída.")
        if (replaces.person_id, replaces.company_id) != (
            getattr(person, "pk", None),
            getattr(company, "pk", None),
        ):
            raise ValidationError("A substituição do veículo é pedida pelo próprio autorizatário.")
        if replaces.vehicle_id == vehicle.pk:
            raise ValidationError("Na substituição, escolha o novo veículo (diferente do atual).")
    check_vehicle_free(vehicle=vehicle, on=on)
    check_doors(
        code=code,
        kind=kind,
        vehicle=vehicle,
        acquired_on=vehicle_acquired_on,
        replacement=replaces is not None,
        on=on,
    )
    return create_audited(
        actor=actor,
        instance=Authorization(
            jurisdiction_id=code,
            kind=kind,
            person=person,
            company=company,
            vehicle=vehicle,
            vehicle_acquired_on=vehicle_acquired_on,
            replaces=replaces,
            requested_on=on,
        ),
        reason=reason,
        action="authorization.requested",
    )


# --------------------------------------------------------------------------- the decision


@transaction.atomic
def grant(
    *,
    actor: Any,
    authorization: Authorization,
    number: str,
    act: str,
    starts_on: dt.date,
    reason: str = "Autorização concedida",
) -> Authorization:
    """Grant the authorization by the agency's act (art. 17), with its number, its start and the
    validity the agency fixed (an agency value with its act: the law gives no term)."""
    row = _fresh(authorization)
    states.require(row, "grant")
    code = row.jurisdiction_id
    rules.require_kind(code, row.kind, starts_on)
    number = _text(number, "Informe o número da autorização.")
    act = _text(act, "Informe o ato do órgão que concede a autorização (ex.: Portaria SMOVT nº 12/2026).")
    if starts_on < row.requested_on:
        raise ValidationError("O início da autorização não pode ser anterior ao pedido.")
    if Authorization.unscoped.filter(jurisdiction_id=code, number=number).exclude(pk=row.pk).exists():
        raise ValidationError(f"Já existe a autorização nº {number} nesta jurisdição.")
    duration, citation = rules.validity(code, starts_on)
    if duration is None:
        raise ValidationError(rules.validity_missing(code))
    check_vehicle_free(vehicle=row.vehicle, on=starts_on, exclude=row.pk)
    check_doors(
        code=code,
        kind=row.kind,
        vehicle=row.vehicle,
        acquired_on=row.vehicle_acquired_on,
        replacement=row.replaces_id is not None,
        on=row.requested_on,
    )
    if row.replaces_id is not None:
        old = _fresh(row.replaces)  # type: ignore[arg-type]
        states.require(old, "replace")
        update_audited(
            actor=actor,
            instance=old,
            changes={"status": S.REPLACED, "ended_on": starts_on, "last_act": act},
            reason=f"Veículo substituído: {row.vehicle} na autorização nº {number}",
            action="authorization.replaced",
        )
    return update_audited(
        actor=actor,
        instance=row,
        changes={
            "status": S.GRANTED,
            "number": number,
            "act": act,
            "starts_on": starts_on,
            "valid_until": add(starts_on, duration) - dt.timedelta(days=1),
            "validity_citation": citation,
            "last_act": act,
        },
        reason=_text(reason, "Informe o motivo."),
        action="authorization.granted",
    )


def _decide(
    *,
    actor: Any,
    authorization: Authorization,
    action: str,
    audit: str,
    act: str,
    reasons: str,
    changes: dict[str, Any],
) -> Authorization:
    row = _fresh(authorization)
    transition = states.require(row, action)
    reasons = _text(reasons, "Informe as razões da decisão.")
    changes = {"status": transition.target, "last_reasons": reasons, **changes}
    if act:
        changes["last_act"] = act
    return update_audited(actor=actor, instance=row, changes=changes, reason=reasons, action=audit)


@transaction.atomic
def refuse(*, actor: Any, authorization: Authorization, reasons: str, act: str = "") -> Authorization:
    return _decide(
        actor=actor,
        authorization=authorization,
        action="refuse",
        audit="authorization.refused",
        act=act.strip(),
        reasons=reasons,
        changes={"ended_on": timezone.localdate()},
    )


@transaction.atomic
def suspend(
    *,
    actor: Any,
    authorization: Authorization,
    act: str,
    reasons: str,
    until: dt.date | None = None,
    on: dt.date | None = None,
) -> Authorization:
    """Suspend the authorization by the agency's act (until a date, or until lifted)."""
    act = _text(act, "Informe o ato da suspensão.")
    if until is not None and until <= _today(on):
        raise ValidationError("A data final da suspensão deve ser posterior a hoje.")
    return _decide(
        actor=actor,
        authorization=authorization,
        action="suspend",
        audit="authorization.suspended",
        act=act,
        reasons=reasons,
        changes={"suspended_until": until},
    )


@transaction.atomic
def reinstate(*, actor: Any, authorization: Authorization, reasons: str) -> Authorization:
    return _decide(
        actor=actor,
        authorization=authorization,
        action="reinstate",
        audit="authorization.reinstated",
        act="",
        reasons=reasons,
        changes={"suspended_until": None},
    )


@transaction.atomic
def revoke(
    *, actor: Any, authorization: Authorization, act: str, reasons: str, on: dt.date | None = None
) -> Authorization:
    """Revoke (cassar) the authorization by the agency's act."""
    act = _text(act, "Informe o ato da cassação.")
    return _decide(
        actor=actor,
        authorization=authorization,
        action="revoke",
        audit="authorization.revoked",
        act=act,
        reasons=reasons,
        changes={"ended_on": _today(on), "suspended_until": None},
    )


@transaction.atomic
def withdraw(
    *, actor: Any, authorization: Authorization, reasons: str, on: dt.date | None = None
) -> Authorization:
    """The holder gives the authorization (or the request) up."""
    return _decide(
        actor=actor,
        authorization=authorization,
        action="withdraw",
        audit="authorization.withdrawn",
        act="",
        reasons=reasons,
        changes={"ended_on": _today(on)},
    )


@transaction.atomic
def expire(*, actor: Any, authorization: Authorization, on: dt.date | None = None) -> Authorization:
    """Record the end of the validity (refused while the authorization is still valid)."""
    day = _today(on)
    row = _fresh(authorization)
    states.require(row, "expire")
    if row.valid_until is None or row.valid_until >= day:
        raise ValidationError(
            f"A autorização vale até {br_date(row.valid_until)}: não cabe registrar o vencimento antes disso."
        )
    return update_audited(
        actor=actor,
        instance=row,
        changes={"status": S.EXPIRED, "ended_on": row.valid_until + dt.timedelta(days=1)},
        reason=f"Validade encerrada em {br_date(row.valid_until)}",
        action="authorization.expired",
    )


def valid_for_vehicle(vehicle: Any, on: dt.date) -> Authorization | None:
    """The authorization in force for the vehicle on a date (granted, within its validity)."""
    for row in Authorization.unscoped.filter(vehicle_id=vehicle.pk, status__in=Authorization.LIVE):
        if row.effective_status(on) == S.GRANTED and row.starts_on is not None and row.starts_on <= on:
            return row
    return None
