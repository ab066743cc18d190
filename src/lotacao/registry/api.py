"""REST endpoints of the registries (scoped like the screens)."""

from __future__ import annotations

import datetime as dt
import re

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from lotacao.core.api_params import LIMIT
from lotacao.registry.models import Holder, Line, Person, Vehicle

router = Router(tags=["cadastro"])


class PersonOut(Schema):
    id: int
    jurisdiction: str
    full_name: str
    cpf: str
    birth_date: dt.date | None
    city: str


class VehicleOut(Schema):
    id: int
    jurisdiction: str
    plate: str
    renavam: str
    manufacture_year: int
    category: str
    seats: int
    doors: int
    holder_id: int | None


class HolderOut(Schema):
    id: int
    jurisdiction: str
    kind: str
    name: str


class LineOut(Schema):
    id: int
    jurisdiction: str
    code: str
    name: str
    origin: str
    destination: str
    active: bool


def _person(p: Person) -> PersonOut:
    return PersonOut(
        id=p.pk,
        jurisdiction=p.jurisdiction_id,
        full_name=p.full_name,
        cpf=p.cpf,
        birth_date=p.birth_date,
        city=p.city,
    )


def _vehicle(v: Vehicle) -> VehicleOut:
    return VehicleOut(
        id=v.pk,
        jurisdiction=v.jurisdiction_id,
        plate=v.plate,
        renavam=v.renavam,
        manufacture_year=v.manufacture_year,
        category=v.category,
        seats=v.seats,
        doors=v.doors,
        holder_id=v.holder_id,
    )


@router.get("/persons", response=list[PersonOut])
def list_persons(request: HttpRequest, q: str = "", limit: int = LIMIT) -> list[PersonOut]:
    qs = Person.objects.all()
    if q:
        digits = re.sub(r"\D", "", q)
        qs = qs.filter(cpf__startswith=digits) if digits else qs.filter(full_name__icontains=q)
    return [_person(p) for p in qs[: limit]]


@router.get("/persons/{person_id}", response=PersonOut)
def get_person(request: HttpRequest, person_id: int) -> PersonOut:
    return _person(get_object_or_404(Person.objects.all(), pk=person_id))


@router.get("/vehicles", response=list[VehicleOut])
def list_vehicles(request: HttpRequest, plate: str = "", limit: int = LIMIT) -> list[VehicleOut]:
    qs = Vehicle.objects.all()
    if plate:
        qs = qs.filter(plate__startswith=re.sub(r"[\s\-]", "", plate).upper())
    return [_vehicle(v) for v in qs[: limit]]


@router.get("/vehicles/{vehicle_id}", response=VehicleOut)
def get_vehicle(request: HttpRequest, vehicle_id: int) -> VehicleOut:
    return _vehicle(get_object_or_404(Vehicle.objects.all(), pk=vehicle_id))


@router.get("/holders/{holder_id}", response=HolderOut)
def get_holder(request: HttpRequest, holder_id: int) -> HolderOut:
    h = get_object_or_404(Holder.objects.select_related("person", "company"), pk=holder_id)
    return HolderOut(id=h.pk, jurisdiction=h.jurisdiction_id, kind=h.kind, name=str(h))


@router.get("/lines", response=list[LineOut])
def list_lines(request: HttpRequest) -> list[LineOut]:
    return [
        LineOut(
            id=x.pk,
            jurisdiction=x.jurisdiction_id,
            code=x.code,
            name=x.name,
            origin=x.origin,
            destination=x.destination,
            active=x.active,
        )
        for x in Line.objects.all()
    ]
