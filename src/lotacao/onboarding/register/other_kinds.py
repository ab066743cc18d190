"""Lines, insurance, agents, inspections and seals, infraction notices and open debts: fewer rows,
each written by the domain's own service (or its own validation) inside a savepoint, so a
refused row leaves nothing and the run goes on to report every error."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from lotacao.audit.services import create_audited, update_audited
from lotacao.billing import lawdata
from lotacao.billing.ledger.models import Charge
from lotacao.billing.payments.slips import CHARGE_CODE
from lotacao.core.validators import normalize_cpf, normalize_plate
from lotacao.enforcement.models import InfractionNotice
from lotacao.enforcement.notices.services import prepare_notice, record_points
from lotacao.inspections.models import Inspection, InsurancePolicy, Seal
from lotacao.inspections.services.insurance import register_insurance
from lotacao.onboarding.register.registry_kinds import document_digits, holder_ids
from lotacao.onboarding.register.run import Run
from lotacao.onboarding.register.spec import AGENTS, DEBTS, INSPECTIONS, INSURANCE, LINES, NOTICES, Kind
from lotacao.permits.models import Permit, PermitAgent
from lotacao.permits.services.existing import import_existing_agent
from lotacao.registry.models import Holder, Line, Person, Vehicle
from lotacao.registry.services import create_line


def _each(
    run: Run,
    kind: Kind,
    path: Path,
    key: Callable[[dict[str, Any]], Any],
    key_column: str,
    write: Callable[[int, dict[str, Any]], str | None],
    rows: list[tuple[int, dict[str, Any]]] | None = None,
) -> None:
    """Every row once (a repeated natural key is refused), written in its own savepoint by
    `write`, which returns "created", "updated" or "unchanged" (or raises ValidationError)."""
    seen: set[Any] = set()
    items = rows if rows is not None else list(run.rows(kind, path))
    for row, values in items:
        try:
            natural = key(values)
        except ValidationError as error:
            run.refuse(row, kind.header(key_column), error)
            continue
        if natural in seen:
            run.error(row, kind.header(key_column), "Registro repetido neste arquivo.")
            continue
        seen.add(natural)
        try:
            with transaction.atomic():
                outcome = write(row, values)
        except ValidationError as error:
            run.refuse(row, "", error)
            continue
        if outcome:
            run.count(outcome)


def _vehicle(run: Run, plate: str) -> Vehicle:
    digits = normalize_plate(plate)
    vehicle = Vehicle.unscoped.filter(jurisdiction_id=run.code, plate=digits).first()
    if vehicle is None:
        raise ValidationError(f"Não há veículo com a placa {plate} no cadastro nem no arquivo de veículos.")
    return vehicle


def _holder(run: Run, document: str) -> Holder:
    digits = document_digits(document)[1]
    found = holder_ids(run, {digits})
    if digits not in found:
        raise ValidationError(f"Não há permissionário com o documento {document}.")
    return Holder.unscoped.select_related("person", "company").get(pk=found[digits])


def _permit(run: Run, number: str) -> Permit:
    permit = (
        Permit.unscoped.filter(jurisdiction_id=run.code, number=number.strip())
        .exclude(status=Permit.Status.TRANSFERRED)
        .first()
    )
    if permit is None:
        raise ValidationError(f"Não há permissão nº {number} no cadastro nem no arquivo de permissões.")
    return permit


def _person(run: Run, cpf: str) -> Person:
    person = Person.unscoped.filter(jurisdiction_id=run.code, cpf=normalize_cpf(cpf)).first()
    if person is None:
        raise ValidationError(f"Não há pessoa com o CPF {cpf} no cadastro nem no arquivo de pessoas.")
    return person


# ---------------------------------------------------------------------- lines


def import_lines(run: Run, path: Path) -> None:
    def write(row: int, values: dict[str, Any]) -> str:
        code = str(values.pop("code")).strip().upper()
        if values.get("active") is None:
            values.pop("active", None)
        line = Line.unscoped.filter(jurisdiction_id=run.code, code=code).first()
        if line is None:
            create_line(
                actor=run.actor,
                jurisdiction=run.jurisdiction,
                code=code,
                reason=run.row_reason(row),
                **values,
            )
            return "created"
        changes = {k: v for k, v in values.items() if getattr(line, k) != v}
        if not changes:
            return "unchanged"
        update_audited(actor=run.actor, instance=line, changes=changes, reason=run.row_reason(row))
        return "updated"

    _each(run, LINES, path, lambda v: str(v["code"]).strip().upper(), "code", write)


# ---------------------------------------------------------------------- insurance


def import_insurance(run: Run, path: Path) -> None:
    def write(row: int, values: dict[str, Any]) -> str:
        vehicle = _vehicle(run, values.pop("plate"))
        if InsurancePolicy.unscoped.filter(vehicle=vehicle, number=values["number"].strip()).exists():
            return "unchanged"
        register_insurance(actor=run.actor, vehicle=vehicle, reason=run.row_reason(row), **values)
        return "created"

    _each(run, INSURANCE, path, lambda v: (normalize_plate(v["plate"]), v["number"].strip()), "number", write)


# ---------------------------------------------------------------------- agents


def import_agents(run: Run, path: Path) -> None:
    def write(row: int, values: dict[str, Any]) -> str:
        permit = _permit(run, values["permit"])
        person = _person(run, values["cpf"])
        found = PermitAgent.unscoped.filter(
            permit=permit, person=person, role=values["role"], starts_on=values["starts_on"]
        ).first()
        ends_on = values.get("ends_on")
        if found is not None:
            if found.ends_on == ends_on:
                return "unchanged"
            update_audited(
                actor=run.actor,
                instance=found,
                changes={"ends_on": ends_on},
                reason=run.row_reason(row),
                action="agent.ended",
            )
            return "updated"
        if ends_on is not None and ends_on < values["starts_on"]:
            raise ValidationError("O fim do vínculo do preposto é anterior ao início.")
        agent = import_existing_agent(
            actor=run.actor,
            permit=permit,
            person=person,
            role=values["role"],
            starts_on=values["starts_on"],
            reason=run.row_reason(row),
        )
        if ends_on is not None:
            update_audited(
                actor=run.actor,
                instance=agent,
                changes={"ends_on": ends_on},
                reason=run.row_reason(row),
                action="agent.ended",
            )
        return "created"

    _each(
        run,
        AGENTS,
        path,
        lambda v: (v["permit"].strip(), normalize_cpf(v["cpf"]), v["role"], v["starts_on"]),
        "cpf",
        write,
    )


# ---------------------------------------------------------------------- inspections and seals


def import_inspections(run: Run, path: Path) -> None:
    def write(row: int, values: dict[str, Any]) -> str:
        vehicle = _vehicle(run, values["plate"])
        kind = values.get("kind") or Inspection.Kind.ANNUAL
        status = values["status"]
        if (
            status in (Inspection.Status.PASSED, Inspection.Status.FAILED)
            and values.get("performed_on") is None
        ):
            raise ValidationError("Informe a data em que a vistoria foi realizada.")
        seal_number = (values.get("seal_number") or "").strip()
        if seal_number and status != Inspection.Status.PASSED:
            raise ValidationError("Só uma vistoria aprovada tem selo.")
        if seal_number and (values.get("seal_issued_on") is None or values.get("seal_valid_until") is None):
            raise ValidationError("Informe a emissão e a validade do selo.")
        if seal_number and values["seal_valid_until"] < values["seal_issued_on"]:
            raise ValidationError("A validade do selo é anterior à sua emissão.")
        inspection = Inspection.unscoped.filter(
            vehicle=vehicle, kind=kind, scheduled_for=values["scheduled_for"]
        ).first()
        outcome = "unchanged"
        if inspection is None:
            inspection = create_audited(
                actor=run.actor,
                instance=Inspection(
                    jurisdiction_id=run.code,
                    vehicle=vehicle,
                    kind=kind,
                    scheduled_for=values["scheduled_for"],
                    status=status,
                    performed_on=values.get("performed_on"),
                    place=values.get("place") or "",
                    notes=values.get("notes") or "",
                ),
                reason=run.row_reason(row),
                action="inspection.imported",
            )
            outcome = "created"
        if seal_number:
            seal = Seal.unscoped.filter(jurisdiction_id=run.code, number=seal_number).first()
            if seal is None:
                create_audited(
                    actor=run.actor,
                    instance=Seal(
                        jurisdiction_id=run.code,
                        vehicle=vehicle,
                        inspection=inspection,
                        number=seal_number,
                        issued_on=values["seal_issued_on"],
                        valid_until=values["seal_valid_until"],
                    ),
                    reason=run.row_reason(row),
                    action="seal.imported",
                )
                outcome = "created" if outcome == "created" else "updated"
            elif seal.vehicle_id != vehicle.pk:
                raise ValidationError(f"O selo {seal_number} já está cadastrado para outro veículo.")
        return outcome

    _each(
        run,
        INSPECTIONS,
        path,
        lambda v: (normalize_plate(v["plate"]), v.get("kind") or "annual", v["scheduled_for"]),
        "scheduled_for",
        write,
    )


# ---------------------------------------------------------------------- notices


OVERRIDE_REASON = "Multa da decisão registrada no cadastro existente (importação)."


def fine_amount(penalty: dict[str, Any]) -> Decimal | None:
    for item in penalty.get("penalties", []):
        if item.get("type") == "fine" and item.get("amount") is not None:
            return Decimal(str(item["amount"]))
    return None


def _decided_fine(notice: InfractionNotice, amount: Decimal | None) -> None:
    """The fine the old register's decision imposed, where it differs from the engine's: kept as
    the penalty in force, marked as altered with its reason (as `override_penalty` does), the
    engine's result kept beside it."""
    if amount is None or amount == fine_amount(notice.penalty):
        return
    if amount <= 0:
        raise ValidationError("A multa aplicada deve ser positiva.")
    others = [p for p in notice.penalty.get("penalties", []) if p.get("type") != "fine"]
    notice.penalty = {
        "penalties": [{"type": "fine", "amount": f"{amount:.2f}"}, *others],
        "measures": notice.penalty.get("measures", []),
    }
    notice.penalty_overridden = True
    notice.override_reason = OVERRIDE_REASON


NOTICE_COMPARED = ("status", "drawn_up_at", "offender_kind", "holder_id", "served_on", "archived_on")


def import_notices(run: Run, path: Path) -> None:
    """Past notices, in the order they were drawn up, so each one's penalty is computed by the
    engine from the offender's history before it — the history that counts the final decisions
    imported here as well (enforcement's `offender_history`)."""
    rows = sorted(run.rows(NOTICES, path), key=lambda item: item[1]["drawn_up_at"])

    def write(row: int, values: dict[str, Any]) -> str:
        number = values["number"].strip()
        links: dict[str, Any] = {}
        if values.get("holder_document"):
            links["holder"] = _holder(run, values["holder_document"])
        if values.get("permit"):
            links["permit"] = _permit(run, values["permit"])
        if values.get("plate"):
            plate = normalize_plate(values["plate"])
            vehicle = Vehicle.unscoped.filter(jurisdiction_id=run.code, plate=plate).first()
            links["vehicle"] = vehicle
            links["plate"] = plate
        if values.get("agent_cpf"):
            links["agent"] = _person(run, values["agent_cpf"])
        status = values["status"]
        if status == InfractionNotice.Status.ARCHIVED and values.get("archived_on") is None:
            raise ValidationError("Informe a data do arquivamento.")
        notice = prepare_notice(
            jurisdiction=run.jurisdiction,
            drawn_up_at=values["drawn_up_at"],
            infraction_code=values.get("infraction_code") or "",
            infraction_group=values.get("infraction_group") or "",
            offender_kind=values["offender_kind"],
            place=values.get("place") or "",
            description=values.get("description") or "",
            offender_name=values.get("offender_name") or "",
            offender_document=values.get("offender_document") or "",
            drawn_up_before_system=True,
            **links,
        )
        notice.number = number
        notice.status = status
        _decided_fine(notice, values.get("fine_amount"))
        notice.served_on = values.get("served_on")
        notice.archived_on = values.get("archived_on")
        if status == InfractionNotice.Status.ARCHIVED:
            notice.archive_reason = "Arquivado antes da implantação do sistema (cadastro existente)."
        old = InfractionNotice.unscoped.filter(jurisdiction_id=run.code, number=number).first()
        if old is not None:
            differs = [f for f in NOTICE_COMPARED if getattr(old, f) != getattr(notice, f)]
            if differs:
                raise ValidationError(
                    f"O auto nº {number} já está cadastrado com outros dados: o andamento de um auto "
                    "cadastrado muda pela tela do auto."
                )
            return "unchanged"
        create_audited(
            actor=run.actor, instance=notice, reason=run.row_reason(row), action="enforcement.notice_imported"
        )
        if status != InfractionNotice.Status.ANNULLED:
            record_points(actor=run.actor, notice=notice, reason=run.row_reason(row))
        return "created"

    _each(run, NOTICES, path, lambda v: v["number"].strip(), "number", write, rows=rows)


# ---------------------------------------------------------------------- open debts


def _charge_by_slip_code(code: str, reference: str) -> Charge | None:
    """The charge whose slip code the reference is, in this jurisdiction: an export of a charge
    the system issued carries its slip code, so the same file imported back finds it. (A code that
    came from another installation may name an unrelated charge here: the caller compares.)"""
    found = CHARGE_CODE.match(reference.strip().upper())
    if found is None or found.group(1) != code[:3].upper():
        return None
    return Charge.unscoped.filter(jurisdiction_id=code, pk=int(found.group(2))).first()


def import_debts(run: Run, path: Path) -> None:
    def write(row: int, values: dict[str, Any]) -> str:
        holder = _holder(run, values["holder_document"])
        key = f"importacao:{values['reference'].strip()}"
        amount = values["amount"]
        if amount <= 0:
            raise ValidationError("O valor da cobrança deve ser positivo.")
        facts = (holder.pk, values["kind"], amount, values["due_on"])
        issued = _charge_by_slip_code(run.code, values["reference"])
        if issued is not None and (issued.holder_id, issued.kind, issued.amount, issued.due_on) == facts:
            return "unchanged"  # the export of a charge this register issued, imported back
        old = Charge.unscoped.filter(jurisdiction_id=run.code, key=key).first()
        if old is not None:
            if (old.holder_id, old.kind, old.amount, old.due_on) != facts:
                raise ValidationError(
                    f"O débito {values['reference']} já está cadastrado com outros dados: uma cobrança "
                    "cadastrada muda pela tela de cobrança."
                )
            return "unchanged"
        source = lawdata.FINES if values["kind"] == Charge.Kind.FINE else ""
        charge = Charge(
            jurisdiction_id=run.code,
            holder=holder,
            kind=values["kind"],
            description=values["description"].strip(),
            amount=amount,
            due_on=values["due_on"],
            competence=values.get("competence"),
            reference=values["reference"].strip(),
            key=key,
            fund=lawdata.fund_of(run.code, source, values["due_on"]) if source else "",
        )
        create_audited(actor=run.actor, instance=charge, reason=run.row_reason(row), action="charge.imported")
        return "created"

    _each(run, DEBTS, path, lambda v: v["reference"].strip(), "reference", write)
