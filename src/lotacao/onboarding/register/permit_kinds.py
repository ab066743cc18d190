"""Permits of the existing register, set-based: the rules of `import_existing_permit` and of the
grant that still hold for a permit granted before the system (the law regulates permits, the
validity after the grant, one live permit per vehicle, the vehicle's holder, bans, the engine's
quotas), applied with the natural keys and the counts read once per chunk."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q

from lotacao.billing.ledger.models import Account
from lotacao.core import vehicle_verdict
from lotacao.core.formats import br_date
from lotacao.core.law import evaluate_case
from lotacao.onboarding.register.registry_kinds import document_digits, holder_ids, vehicle_in_service
from lotacao.onboarding.register.run import Run
from lotacao.onboarding.register.spec import PERMITS
from lotacao.permits import rules as permit_rules
from lotacao.permits.eligibility import ban_reason
from lotacao.permits.models import Ban, Permit
from lotacao.permits.services.common import law_has_permits
from lotacao.permits.services.grant import check_engine_quotas
from lotacao.registry.models import Holder, Line, Vehicle

S = Permit.Status
COMPARED = (
    "holder_id",
    "vehicle_id",
    "line_id",
    "status",
    "kind",
    "applied_on",
    "granted_on",
    "valid_until",
    "suspended_until",
    "ends_on",
)


class _Quota:
    """The live permits counted once per run (database, then the file's rows as they are taken)."""

    def __init__(self, run: Run) -> None:
        live = Permit.unscoped.filter(jurisdiction_id=run.code, status__in=Permit.LIVE).filter(
            Q(valid_until__isnull=True) | Q(valid_until__gte=run.today)
        )
        self.per_holder: Counter[int] = Counter(live.values_list("holder_id", flat=True))
        self.with_vehicle = live.exclude(vehicle__isnull=True).count()
        self.vehicles = set(live.exclude(vehicle__isnull=True).values_list("vehicle_id", flat=True))
        self._answers: dict[str, Any] = {}
        self._population: int | None = None

    def evaluate(self, case: dict[str, Any]) -> Any:
        key = repr(sorted(case.items()))
        if key not in self._answers:
            self._answers[key] = evaluate_case(case)
        return self._answers[key]

    def check(self, run: Run, holder_id: int) -> None:
        check_engine_quotas(
            run.code,
            run.today,
            holder_permits=lambda: self.per_holder[holder_id] + 1,
            used_vehicles=lambda: self.with_vehicle,
            evaluate=self.evaluate,
            population=run.jurisdiction.population,
        )

    def take(self, holder_id: int, vehicle_id: int | None) -> None:
        self.per_holder[holder_id] += 1
        if vehicle_id is not None:
            self.with_vehicle += 1
            self.vehicles.add(vehicle_id)


def _live_today(values: dict[str, Any], today: dt.date) -> bool:
    return values["status"] in Permit.LIVE and values["valid_until"] >= today


def import_permits(run: Run, path: Path) -> None:
    h = PERMITS.header
    seen: set[str] = set()
    quota = _Quota(run)
    opened: set[int] = set(
        Account.unscoped.filter(jurisdiction_id=run.code).values_list("holder_id", flat=True)
    )
    for chunk in run.chunks(PERMITS, path):
        rows: list[tuple[int, dict[str, Any], str]] = []
        for row, values in chunk:
            number = values["number"].strip()
            if number in seen:
                run.error(row, h("number"), f"Permissão nº {number} repetida neste arquivo.")
                continue
            seen.add(number)
            values["number"] = number
            try:
                digits = document_digits(values.pop("holder_document"))[1]
            except ValidationError as error:
                run.refuse(row, h("holder_document"), error)
                continue
            rows.append((row, values, digits))
        holders = holder_ids(run, {d for _, _, d in rows})
        vehicles = {
            v.plate: v
            for v in Vehicle.unscoped.filter(
                jurisdiction_id=run.code, plate__in=[_plate(v) for _, v, _ in rows if v.get("plate")]
            )
        }
        lines = dict(
            Line.unscoped.filter(
                jurisdiction_id=run.code,
                code__in=[str(v["line"]).strip().upper() for _, v, _ in rows if v.get("line")],
            ).values_list("code", "id")
        )
        existing = {
            p.number: p
            for p in Permit.unscoped.filter(
                jurisdiction_id=run.code, number__in=[v["number"] for _, v, _ in rows]
            ).exclude(status=S.TRANSFERRED)
        }
        holder_parties = {
            h_.pk: h_
            for h_ in Holder.unscoped.filter(pk__in=set(holders.values())).select_related("person", "company")
        }
        bans: dict[tuple[str, int], list[Ban]] = {}
        for ban in Ban.unscoped.filter(
            Q(person_id__in=[x.person_id for x in holder_parties.values() if x.person_id])
            | Q(company_id__in=[x.company_id for x in holder_parties.values() if x.company_id])
        ):
            key = ("person", ban.person_id) if ban.person_id else ("company", ban.company_id)
            bans.setdefault(key, []).append(ban)  # type: ignore[arg-type]
        new: list[tuple[int, Permit]] = []
        for row, values, digits in rows:
            old = existing.get(values["number"])
            permit = _build(
                run,
                row,
                values,
                digits,
                holders,
                vehicles,
                lines,
                holder_parties,
                bans,
                quota,
                known=old is not None,
            )
            if permit is None:
                continue
            if old is not None:
                differs = [f for f in COMPARED if getattr(old, f) != getattr(permit, f)]
                if differs:
                    labels = ", ".join(
                        str(getattr(Permit._meta.get_field(f.removesuffix("_id")), "verbose_name", f))
                        for f in differs
                    )
                    run.error(
                        row,
                        h("number"),
                        f"A permissão nº {permit.number} já está cadastrada com outros dados ({labels}): "
                        "a situação e as datas de uma permissão cadastrada mudam pela tela da permissão.",
                    )
                else:
                    run.count("unchanged")
                continue
            if _live_today(values, run.today):
                quota.take(permit.holder_id, permit.vehicle_id)
            new.append((row, permit))
        if not new:
            continue
        Permit.unscoped.bulk_create([p for _, p in new], batch_size=1000)
        run.audit_created(new, "permit.imported")
        run.count("created", len(new))
        _open_accounts(run, new, opened)
        vehicle_verdict.changed(vehicle_ids=[p.vehicle_id for _, p in new if p.vehicle_id is not None])


def _plate(values: dict[str, Any]) -> str:
    return str(values.get("plate") or "").upper().replace("-", "").replace(" ", "")


def _build(
    run: Run,
    row: int,
    values: dict[str, Any],
    digits: str,
    holders: dict[str, int],
    vehicles: dict[str, Vehicle],
    lines: dict[str, int],
    parties: dict[int, Holder],
    bans: dict[tuple[str, int], list[Ban]],
    quota: _Quota,
    *,
    known: bool,
) -> Permit | None:
    """The permit of a row, or None with its errors reported. `known`: a permit of that number is
    registered already (compared, not counted again against the vehicle, the bans or the quota)."""
    h = PERMITS.header
    errors_before = len(run.report.errors)
    holder_id = holders.get(digits)
    if holder_id is None:
        run.error(row, h("holder_document"), f"Não há permissionário com o documento {digits}.")
        return None
    vehicle = vehicles.get(_plate(values)) if values.get("plate") else None
    if values.get("plate") and vehicle is None:
        run.error(
            row,
            h("plate"),
            f"Não há veículo com a placa {values['plate']} no cadastro nem no arquivo de veículos.",
        )
    line_id = None
    if values.get("line"):
        line_id = lines.get(str(values["line"]).strip().upper())
        if line_id is None:
            run.error(row, h("line"), f"Não há linha {values['line']} no cadastro nem no arquivo de linhas.")
    granted, until = values["granted_on"], values["valid_until"]
    try:
        run.memo(("has_permits", granted), lambda: law_has_permits(run.code, granted))
    except ValidationError as error:
        run.refuse(row, h("granted_on"), error)
    if until <= granted:
        run.error(row, h("valid_until"), "A validade deve ser posterior à outorga.")
    live = values["status"] in Permit.LIVE
    if live and vehicle is None and not values.get("plate"):
        run.error(row, h("plate"), "Uma permissão ativa ou suspensa precisa do veículo (placa).")
    if vehicle is not None and not known:
        if vehicle.holder_id is not None and vehicle.holder_id != holder_id:
            run.error(
                row,
                h("plate"),
                f"O veículo {vehicle.plate_display} está cadastrado para outro permissionário.",
            )
        if live and _live_today(values, run.today) and vehicle.pk in quota.vehicles:
            run.error(
                row,
                h("plate"),
                f"O veículo {vehicle.plate_display} já está vinculado a outra permissão vigente.",
            )
        if _live_today(values, run.today):
            try:
                vehicle_in_service(run, vehicle)
            except ValidationError as error:
                run.refuse(row, h("plate"), error)
        if live and vehicle.deregistered_on is not None and vehicle.deregistered_on <= run.today:
            run.error(
                row,
                h("plate"),
                f"O veículo {vehicle.plate_display} foi baixado do serviço em "
                f"{br_date(vehicle.deregistered_on)}.",
            )
    holder = parties[holder_id]
    if live and not known:
        key = ("person", holder.person_id) if holder.person_id else ("company", holder.company_id)
        for day in dict.fromkeys((granted, run.today)):
            banned = [b for b in bans.get(key, []) if b.in_force(day)]  # type: ignore[arg-type]
            if banned:
                reason = ban_reason(banned[0], "CPF" if holder.person_id else "CNPJ")
                run.error(row, h("holder_document"), f"{reason.message} ({reason.citation}).")
                break
    if not known and _live_today(values, run.today) and len(run.report.errors) == errors_before:
        try:
            quota.check(run, holder_id)
        except ValidationError as error:
            run.refuse(row, h("status"), error)
    if len(run.report.errors) != errors_before:
        return None
    permit = Permit(
        jurisdiction_id=run.code,
        number=values["number"],
        holder_id=holder_id,
        line_id=line_id,
        vehicle_id=vehicle.pk if vehicle is not None else None,
        status=values["status"],
        kind=values.get("kind") or Permit.Kind.REGULAR,
        applied_on=values.get("applied_on") or granted,
        granted_on=granted,
        valid_until=until,
        suspended_until=values.get("suspended_until"),
        ends_on=values.get("ends_on"),
        term_citation=run.memo(
            ("term", granted), lambda: permit_rules.cite(run.code, "permit.term", granted)
        ),
    )
    return (
        permit if run.check_fields(row, permit, ["holder", "line", "vehicle", "transferred_from"]) else None
    )


def _open_accounts(run: Run, new: list[tuple[int, Permit]], opened: set[int]) -> None:
    """The billing register of the holders whose permit is live (as the grant opens it)."""
    first: dict[int, tuple[int, dt.date]] = {}
    for row, permit in new:
        if permit.holder_id in opened or not _live_today(
            {"status": permit.status, "valid_until": permit.valid_until}, run.today
        ):
            continue
        assert permit.granted_on is not None
        if permit.holder_id not in first or permit.granted_on < first[permit.holder_id][1]:
            first[permit.holder_id] = (row, permit.granted_on)
    accounts = [
        (row, Account(jurisdiction_id=run.code, holder_id=holder_id, opened_on=day))
        for holder_id, (row, day) in first.items()
    ]
    if accounts:
        Account.unscoped.bulk_create([a for _, a in accounts], batch_size=1000)
        names = {
            pk: person or trade or legal
            for pk, person, trade, legal in Holder.unscoped.filter(pk__in=list(first)).values_list(
                "pk", "person__full_name", "company__trade_name", "company__legal_name"
            )
        }
        run.audit_created(
            accounts,
            "billing_account.opened",
            describe=lambda a: f"Inscrição de {names.get(a.holder_id) or a.holder_id}",
        )
        opened.update(first)
