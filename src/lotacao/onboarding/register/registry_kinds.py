"""Persons, companies, holders and vehicles: written set-based (chunks of rows; the existing
natural keys read once per chunk; bulk_create with bulk-created audit events), validated by the
registry's and the inspections' own functions."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.core.text import fold
from lotacao.core.validators import normalize_cnpj, normalize_cpf, normalize_plate, normalize_renavam
from lotacao.inspections import rules as vehicle_rules
from lotacao.onboarding.register.run import Run, apply_update, changed_fields
from lotacao.onboarding.register.spec import COMPANIES, HOLDERS, PERSONS, VEHICLES
from lotacao.registry.models import Company, Holder, Person, Vehicle, company_search_key
from lotacao.registry.services import check_holder_kind, check_manufacture_year


def document_digits(text: str) -> tuple[str, str]:
    """("person", CPF digits) or ("company", CNPJ digits) for a document as people write it."""
    digits = "".join(ch for ch in text if ch.isdigit())
    if len(digits) == 14:
        return "company", normalize_cnpj(text)
    if len(digits) == 11:
        return "person", normalize_cpf(text)
    raise ValidationError(f"Documento {text} inválido: informe um CPF (11 dígitos) ou um CNPJ (14 dígitos).")


def holder_ids(run: Run, documents: set[str]) -> dict[str, int]:
    """The holder id of each document (CPF or CNPJ digits) that is a holder in the jurisdiction."""
    found: dict[str, int] = {}
    cpfs = [d for d in documents if len(d) == 11]
    cnpjs = [d for d in documents if len(d) == 14]
    if cpfs:
        for holder_id, cpf in Holder.unscoped.filter(
            jurisdiction_id=run.code, person__cpf__in=cpfs
        ).values_list("id", "person__cpf"):
            found[cpf] = holder_id
    if cnpjs:
        for holder_id, cnpj in Holder.unscoped.filter(
            jurisdiction_id=run.code, company__cnpj__in=cnpjs
        ).values_list("id", "company__cnpj"):
            found[cnpj] = holder_id
    return found


def holder_name(holder: Holder, names: dict[tuple[str, int], str]) -> str:
    """A holder's name as Holder.__str__ gives it, from names already read."""
    key = ("person", holder.person_id) if holder.person_id else ("company", holder.company_id)
    return names.get(key) or f"Permissionário #{holder.pk}"  # type: ignore[arg-type]


def _upsert(
    run: Run,
    model: Any,
    key: str,
    items: list[tuple[int, dict[str, Any]]],
    *,
    prepare: Any = None,
    exclude: tuple[str, ...] = (),
) -> None:
    """Create the rows whose key is new, update those that differ, count the others."""
    existing = {
        getattr(o, key): o
        for o in model.unscoped.filter(jurisdiction_id=run.code, **{f"{key}__in": [f[key] for _, f in items]})
    }
    new: list[tuple[int, Any]] = []
    changed: list[tuple[int, Any, dict[str, Any], dict[str, Any]]] = []
    fields_changed: set[str] = set()
    for row, fields in items:
        obj = existing.get(fields[key])
        if obj is None:
            obj = model(jurisdiction_id=run.code, **fields)
            if prepare:
                prepare(obj)
            if run.check_fields(row, obj, list(exclude)):
                new.append((row, obj))
            continue
        changes = changed_fields(obj, fields)
        if not changes:
            run.count("unchanged")
            continue
        before, after = apply_update(obj, changes, prepare)
        if run.check_fields(row, obj, list(exclude)):
            changed.append((row, obj, before, after))
            fields_changed.update(changes)
    if new:
        model.unscoped.bulk_create([o for _, o in new], batch_size=1000)
        run.audit_created(new, f"{model._meta.model_name}.imported")
        run.count("created", len(new))
    if changed:
        names = sorted(fields_changed | ({"name_search"} if hasattr(model, "name_search") else set()))
        model.unscoped.bulk_update([o for _, o, _, _ in changed], names, batch_size=1000)
        run.audit_updated(changed, f"{model._meta.model_name}.import_updated")
        run.count("updated", len(changed))


def _unique_in_file(run: Run, seen: set[str], row: int, value: str, header: str, what: str) -> bool:
    if value in seen:
        run.error(row, header, f"{what} repetido neste arquivo.")
        return False
    seen.add(value)
    return True


def import_persons(run: Run, path: Path) -> None:
    seen: set[str] = set()
    header = PERSONS.header("cpf")
    for chunk in run.chunks(PERSONS, path):
        items = []
        for row, values in chunk:
            try:
                values["cpf"] = normalize_cpf(values["cpf"])
            except ValidationError as error:
                run.refuse(row, header, error)
                continue
            if not _unique_in_file(run, seen, row, values["cpf"], header, f"CPF {values['cpf']}"):
                continue
            values["full_name"] = values["full_name"].strip()
            if values.get("cnh_category"):
                values["cnh_category"] = values["cnh_category"].strip().upper()
            if values.get("state"):
                values["state"] = values["state"].strip().upper()
            items.append((row, values))

        def prepare(person: Person) -> None:
            person.name_search = fold(person.full_name)

        _upsert(run, Person, "cpf", items, prepare=prepare)


def import_companies(run: Run, path: Path) -> None:
    seen: set[str] = set()
    header = COMPANIES.header("cnpj")
    for chunk in run.chunks(COMPANIES, path):
        items = []
        for row, values in chunk:
            try:
                values["cnpj"] = normalize_cnpj(values["cnpj"])
            except ValidationError as error:
                run.refuse(row, header, error)
                continue
            if not _unique_in_file(run, seen, row, values["cnpj"], header, f"CNPJ {values['cnpj']}"):
                continue
            if "kind" in values and values["kind"] is None:
                values["kind"] = Company.Kind.COMPANY
            values["legal_name"] = values["legal_name"].strip()
            items.append((row, values))

        def prepare(company: Company) -> None:
            company.name_search = company_search_key(company.legal_name, company.trade_name)

        _upsert(run, Company, "cnpj", items, prepare=prepare)


def import_holders(run: Run, path: Path) -> None:
    seen: set[str] = set()
    header = HOLDERS.header("document")
    for chunk in run.chunks(HOLDERS, path):
        wanted: list[tuple[int, str, str]] = []
        for row, values in chunk:
            try:
                kind, digits = document_digits(values["document"])
                run.memo(
                    ("holder_kind", kind),
                    partial(check_holder_kind, jurisdiction=run.jurisdiction, kind=kind, on=run.today),
                )
            except ValidationError as error:
                run.refuse(row, header, error)
                continue
            if _unique_in_file(run, seen, row, digits, header, f"Documento {values['document']}"):
                wanted.append((row, kind, digits))
        names: dict[tuple[str, int], str] = {}
        persons: dict[str, int] = {}
        for cpf, pk, full_name in Person.unscoped.filter(
            jurisdiction_id=run.code, cpf__in=[d for _, k, d in wanted if k == "person"]
        ).values_list("cpf", "id", "full_name"):
            persons[cpf] = pk
            names[("person", pk)] = full_name
        companies: dict[str, int] = {}
        for cnpj, pk, legal, trade in Company.unscoped.filter(
            jurisdiction_id=run.code, cnpj__in=[d for _, k, d in wanted if k == "company"]
        ).values_list("cnpj", "id", "legal_name", "trade_name"):
            companies[cnpj] = pk
            names[("company", pk)] = trade or legal
        already = holder_ids(run, {d for _, _, d in wanted})
        new: list[tuple[int, Any]] = []
        for row, kind, digits in wanted:
            if digits in already:
                run.count("unchanged")
                continue
            party = persons.get(digits) if kind == "person" else companies.get(digits)
            if party is None:
                where = "pessoas" if kind == "person" else "empresas"
                run.error(
                    row,
                    header,
                    f"Não há {'pessoa com o CPF' if kind == 'person' else 'pessoa jurídica com o CNPJ'} "
                    f"{digits} no cadastro nem no arquivo de {where}.",
                )
                continue
            holder = Holder(
                jurisdiction_id=run.code,
                person_id=party if kind == "person" else None,
                company_id=party if kind == "company" else None,
            )
            new.append((row, holder))
        if new:
            Holder.unscoped.bulk_create([h for _, h in new], batch_size=1000)
            run.audit_created(new, "holder.imported", describe=partial(holder_name, names=names))
            run.count("created", len(new))


def vehicle_in_service(run: Run, vehicle: Vehicle) -> None:
    """The engine's judgement of a vehicle serving a live permit (`vehicle` kind, action `keep`:
    age, seats, doors, category per the law), as the vehicle's screens ask it; one engine call per
    distinct (category, year, seats, doors). A vehicle of the register that serves no live permit
    (an expired or revoked one's) is kept as a record, not judged."""
    key = ("vehicle", vehicle.category, vehicle.manufacture_year, vehicle.seats, vehicle.doors)

    def judge() -> None:
        result = vehicle_rules.assess(run.code, "keep", run.today, vehicle)
        if result.get("eligible") is False:
            raise ValidationError(
                [f"Veículo não admitido em {run.jurisdiction.name}:", *vehicle_rules.violations_text(result)]
            )

    run.memo(key, judge)


def import_vehicles(run: Run, path: Path) -> None:
    plates: set[str] = set()
    renavams: set[str] = set()
    h = VEHICLES.header
    for chunk in run.chunks(VEHICLES, path):
        items: list[tuple[int, dict[str, Any]]] = []
        documents: dict[int, str] = {}
        for row, values in chunk:
            ok = True
            try:
                values["plate"] = normalize_plate(values["plate"])
            except ValidationError as error:
                run.refuse(row, h("plate"), error)
                continue
            if not _unique_in_file(run, plates, row, values["plate"], h("plate"), f"Placa {values['plate']}"):
                continue
            if values.get("renavam"):
                try:
                    values["renavam"] = normalize_renavam(values["renavam"])
                except ValidationError as error:
                    run.refuse(row, h("renavam"), error)
                    ok = False
                else:
                    ok = (
                        _unique_in_file(
                            run,
                            renavams,
                            row,
                            values["renavam"],
                            h("renavam"),
                            f"RENAVAM {values['renavam']}",
                        )
                        and ok
                    )
            try:
                check_manufacture_year(values["manufacture_year"], today=run.today)
            except ValidationError as error:
                run.refuse(row, h("manufacture_year"), error)
                ok = False
            present = "holder_document" in values
            document = values.pop("holder_document", None)
            if not present:
                values.pop("holder_id", None)
            elif not document:
                values["holder_id"] = None
            if document:
                try:
                    documents[row] = document_digits(document)[1]
                except ValidationError as error:
                    run.refuse(row, h("holder_document"), error)
                    ok = False
            if values.get("tenure") is None and "tenure" in values:
                values["tenure"] = Vehicle.Tenure.OWNED
            if ok:
                items.append((row, values))
        holders = holder_ids(run, set(documents.values()))
        renavam_owner = dict(
            Vehicle.unscoped.filter(
                jurisdiction_id=run.code, renavam__in=[v["renavam"] for _, v in items if v.get("renavam")]
            ).values_list("renavam", "plate")
        )
        registered = dict(
            Vehicle.unscoped.filter(
                jurisdiction_id=run.code, plate__in=[v["plate"] for _, v in items]
            ).values_list("plate", "renavam")
        )
        kept = []
        for row, values in items:
            owner = renavam_owner.get(values.get("renavam") or "")
            if owner is not None and owner != values["plate"]:
                run.error(
                    row, h("renavam"), f"RENAVAM {values['renavam']} já cadastrado para a placa {owner}."
                )
                continue
            other = registered.get(values["plate"])
            if other and values.get("renavam") and other != values["renavam"]:
                run.error(
                    row,
                    h("plate"),
                    f"A placa {values['plate']} já está cadastrada em {run.jurisdiction.name} com outro "
                    f"RENAVAM ({other}).",
                )
                continue
            if row in documents:
                holder_id = holders.get(documents[row])
                if holder_id is None:
                    run.error(
                        row, h("holder_document"), f"Não há permissionário com o documento {documents[row]}."
                    )
                    continue
                values["holder_id"] = holder_id
            kept.append((row, values))
        _upsert(run, Vehicle, "plate", kept, exclude=("holder",))
