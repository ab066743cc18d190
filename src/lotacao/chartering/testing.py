"""Objects the shared test `world` needs for the chartering URLs (tests/conftest.py): in each
jurisdiction a chartering record of the first holder, a CRC request and its CRC, a fleet entry, a
trip with one passenger and a sanction — created directly (the world's jurisdictions, Recife and
Esteio, have no chartering law: the URL test only needs a row of each model)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.chartering.models import (
    CharteringCompany,
    Crc,
    CrcApplication,
    FleetVehicle,
    Passenger,
    Sanction,
    Trip,
)
from lotacao.core.sample_ids import sample_cnpj
from lotacao.registry.models import Company, Holder


def extend_world(world: Any) -> None:
    today = timezone.localdate()
    for jurisdiction in (world.a, world.b):
        objects = world.objects[jurisdiction.code]
        vehicle = objects["registry.vehicle"]
        # A chartering company is a company's holder record (register_company checks it), never a
        # person's: the API reads its CNPJ. Made directly, since the world's laws are municipal.
        party = Company.objects.create(
            jurisdiction=jurisdiction,
            cnpj=sample_cnpj(301 if jurisdiction == world.a else 302),
            legal_name=f"Fretamento de teste de {jurisdiction.name}",
        )
        holder = Holder.objects.create(jurisdiction=jurisdiction, company=party)
        company = CharteringCompany.objects.create(jurisdiction=jurisdiction, holder=holder)
        application = CrcApplication.objects.create(
            jurisdiction=jurisdiction, company=company, modalities=["eventual"], filed_on=today
        )
        crc = Crc.objects.create(
            jurisdiction=jurisdiction,
            company=company,
            application=application,
            number=f"CRC-T-{jurisdiction.code}",
            modalities=["eventual"],
            issued_on=today,
            valid_until=today + dt.timedelta(days=300),
        )
        entry = FleetVehicle.objects.create(
            jurisdiction=jurisdiction, company=company, vehicle=vehicle, added_on=today
        )
        trip = Trip.objects.create(
            jurisdiction=jurisdiction,
            company=company,
            crc=crc,
            vehicle=vehicle,
            modality="eventual",
            contractor_name="Contratante de teste",
            origin="Origem",
            destination="Destino",
            departs_at=timezone.now() + dt.timedelta(hours=2),
            driver_name="Condutor de teste",
            driver_document="12345678900",
            passenger_count=1,
        )
        Passenger.objects.create(
            jurisdiction=jurisdiction, trip=trip, name="Passageira de teste", document="RG 1", position=1
        )
        sanction = Sanction.objects.create(
            jurisdiction=jurisdiction,
            company=company,
            crc=crc,
            kind=Sanction.Kind.SUSPENSION,
            grounds="teste",
        )
        objects["chartering.charteringcompany"] = company
        objects["chartering.crcapplication"] = application
        objects["chartering.crc"] = crc
        objects["chartering.fleetvehicle"] = entry
        objects["chartering.trip"] = trip
        objects["chartering.sanction"] = sanction
