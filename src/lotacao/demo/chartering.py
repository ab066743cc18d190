"""Demo data of chartering (after inspections, before enforcement), where a pack regulates it:
companies in several modalities and states — a valid CRC with a leased bus, a 7-seat car and
today's trips with their lists (one 7-seat trip waiting for the EPTI), a CRC expiring within 30
days, a suspended one and a cancelled one — and the values the law leaves to the agency (FUSP-LV,
passenger-list retention, tracker silence), marked as demonstration acts.

Everything goes through the services, dated in the past where the story needs it. Idempotent: a
jurisdiction that already has chartering companies is left as it is.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from lotacao.billing.services import record_payment
from lotacao.chartering import crc, fleet, rules, sanctions, tracking, trips
from lotacao.chartering.models import CharteringCompany, FleetVehicle
from lotacao.chartering.status import crc_state
from lotacao.core.law import pack_for
from lotacao.core.models import Jurisdiction
from lotacao.core.sample_ids import sample_cnpj, sample_renavam
from lotacao.documents.models import Document
from lotacao.inspections import services as inspections
from lotacao.registry import services as registry
from lotacao.registry.models import Holder
from lotacao.web.agency_values import set_agency_value

REASON = "Dados de demonstração"
ACT = "Portaria EPTI de demonstração (valor fictício)"


def _blank_pdf() -> bytes:
    """A valid one-page blank PDF (catalog, pages, page; a real cross-reference table), so the
    demo's document files open in any reader, the holder's portal and the language crawl."""
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<<>>>>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


PDF = _blank_pdf()
AGENCY_VALUES = {
    "fee.fusp_lv": {"amount": "180.00", "per": "vehicle"},
    "chartering.passenger_list_retention": {"days": 90},
    "chartering.tracker_silence": 30,
}
NAMES = [
    f"{a} {b}"
    for a in ("Ana", "Bruno", "Carla", "Davi", "Elza", "Fábio", "Gilda", "Hugo")
    for b in ("Souza", "Lima", "Costa", "Alves", "Melo")
]


def load(today: dt.date, summary: Any) -> None:
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        if not rules.regulates_chartering(jurisdiction.code):
            continue
        if CharteringCompany.unscoped.filter(jurisdiction=jurisdiction).exists():
            summary.existing += 1
            continue
        _agency_values(jurisdiction)
        _seats(jurisdiction)
        _companies(jurisdiction, today, summary)


def _agency_values(jurisdiction: Jurisdiction) -> None:
    start = pack_for(jurisdiction.code).start  # the demonstration act takes effect with the law
    for parameter, value in AGENCY_VALUES.items():
        set_agency_value(
            actor=None,
            jurisdiction=jurisdiction,
            parameter=parameter,
            valid_from=start,
            value=value,
            cite=ACT,
            reason=REASON,
        )


SEATS = ["Caruaru", "Garanhuns", "Petrolina", "Arcoverde", "Vitória de Santo Antão"]


def _seats(jurisdiction: Jurisdiction) -> None:
    """The base demo seats every company in its jurisdiction's name; a state's companies have their
    seat in a municipality (the company page says "Município")."""
    from lotacao.audit.services import update_audited
    from lotacao.registry.models import Company

    rows = Company.objects.filter(jurisdiction=jurisdiction, city=jurisdiction.name).order_by("pk")
    for n, party in enumerate(rows):
        update_audited(
            actor=None,
            instance=party,
            changes={"city": SEATS[n % len(SEATS)]},
            reason=f"{REASON}: sede no município",
            action="company.updated",
        )


def _holder(jurisdiction: Jurisdiction, seed: int, name: str, city: str, kind: str = "empresa") -> Holder:
    party = registry.create_company(
        actor=None,
        jurisdiction=jurisdiction,
        cnpj=sample_cnpj(120_000_000 + seed),
        legal_name=f"{name} Ltda.",
        trade_name=name,
        kind=kind,
        city=city,
        state="PE",
        reason=REASON,
    )
    return registry.register_holder(actor=None, company=party, reason=REASON)


def _documents(company: CharteringCompany, modalities: list[str], on: dt.date) -> None:
    from django.core.files.base import ContentFile

    party = company.party
    codes, _ = crc.required_documents(company.jurisdiction_id, modalities, party.kind, on)
    for code in codes:
        doc = Document(
            jurisdiction_id=company.jurisdiction_id,
            company=party,
            code=code,
            label=code,
            content_type="application/pdf",
            size=len(PDF),
            sha256="0" * 64,
            status=Document.Status.ACCEPTED,
            issued_on=on - dt.timedelta(days=10),
            valid_until=on + dt.timedelta(days=730),
            citation="art. 5º",
        )
        from lotacao.documents.rules import requirements

        known = {i.code: i for i in requirements(company.jurisdiction_id, "holder", on).items}
        if code in known:
            doc.label, doc.citation, doc.sensitive = (
                known[code].label,
                known[code].citation[:300],
                known[code].sensitive,
            )
        doc.file.save("demo.pdf", ContentFile(PDF), save=False)
        doc.save()


def _vehicle(
    company: CharteringCompany,
    plate: str,
    on: dt.date,
    *,
    category: str = "bus",
    age: int = 4,
    policy_until: dt.date | None = None,
    **options: Any,
) -> FleetVehicle:
    seats = {"bus": 46, "microbus": 28, "car7": 7}[category]
    entry = fleet.add_vehicle(
        actor=None,
        company=company,
        reason=REASON,
        on=on,
        plate=plate,
        category=category,
        seats=seats,
        doors=4 if category == "car7" else 2,
        manufacture_year=on.year - age,
        renavam=sample_renavam(int.from_bytes(plate.encode(), "big") % 9_000_000 + 1_000_000),
        make_model={"bus": "Marcopolo Paradiso", "microbus": "Volare W9", "car7": "Chevrolet Spin"}[category],
        **options,
    )
    cover = {"bus": "500000.00", "microbus": "300000.00", "car7": "150000.00"}[category]
    inspections.register_insurance(
        actor=None,
        vehicle=entry.vehicle,
        insurer="Seguradora Demonstração",
        number=f"AP-{plate}",
        valid_from=on - dt.timedelta(days=5),
        valid_until=policy_until or on + dt.timedelta(days=700),
        reason=REASON,
        civil_liability=Decimal(cover),
        death_per_passenger=Decimal("13000.00"),
        disability_per_passenger=Decimal("5000.00"),
        third_party=Decimal("50000.00"),
    )
    charge = fleet.issue_fusp_lv(actor=None, entry=entry, reason=REASON, on=on)
    record_payment(actor=None, charge=charge, paid_on=on, reason=REASON, payment_reference=f"DEMO-{plate}")
    inspection = fleet.request_inspection(actor=None, entry=entry, scheduled_for=on, reason=REASON, on=on)
    checks = {item["id"]: True for item in (inspections.checklist_for(company.jurisdiction_id, on)[0] or [])}
    inspections.record_inspection(
        actor=None, inspection=inspection, performed_on=on, reason=REASON, checklist=checks
    )
    return entry


def _company(
    jurisdiction: Jurisdiction,
    holder: Holder,
    modalities: list[str],
    issued: dt.date,
    plates: list[str],
    **vehicle: Any,
) -> CharteringCompany:
    company = crc.register_company(actor=None, holder=holder, reason=REASON)
    application = crc.file_application(
        actor=None, company=company, modalities=modalities, reason=REASON, on=issued
    )
    _documents(company, modalities, issued)
    for plate in plates:
        _vehicle(company, plate, issued, **vehicle)
    crc.issue_crc(actor=None, application=application, reason=REASON, on=issued)
    return company


def _companies(jurisdiction: Jurisdiction, today: dt.date, summary: Any) -> None:
    _main_company(jurisdiction, today)
    _other_companies(jurisdiction, today)
    summary.created += 5


def _main_company(jurisdiction: Jurisdiction, today: dt.date) -> None:
    """The portal's company: valid, eventual and tourism, leased buses, a 7-seat car; trips today."""
    portal = Holder.objects.filter(
        jurisdiction=jurisdiction, account__isnull=False, company__isnull=False
    ).first()
    start = today - dt.timedelta(days=40)
    main = _company(
        jurisdiction,
        portal or _holder(jurisdiction, 1, "Agreste Turismo", "Caruaru"),
        ["eventual", "tourism"],
        start,
        ["PEF5A01", "PEF5A02", "PEF5A03", "PEF5A04"],
    )
    _vehicle(
        main,
        "PEF5A05",
        start,
        tenure="leased",
        lessor_name="Locadora Capibaribe Ltda.",
        lessor_cnpj=sample_cnpj(130_000_001),
    )
    _vehicle(
        main,
        "PEF5A06",
        start,
        tenure="leased",
        lessor_name="Agreste Participações Ltda.",
        lessor_cnpj=sample_cnpj(130_000_002),
        lessor_same_group=True,
        group_proof="Contrato social: sócio comum (demonstração)",
    )
    car = _vehicle(main, "PEF5C07", start, category="car7", age=2)
    _trips(main, car, today)


def _other_companies(jurisdiction: Jurisdiction, today: dt.date) -> None:
    # 2. Continuous chartering for a factory, CRC expiring within 30 days (policy ends first).
    _company(
        jurisdiction,
        _holder(jurisdiction, 2, "Mata Sul Fretamentos", "Palmares"),
        ["continuous"],
        today - dt.timedelta(days=200),
        ["PEF6A01", "PEF6A02"],
        policy_until=today + dt.timedelta(days=25),
    )
    # 3. Own chartering of a sugar mill, suspended for 90 days.
    mill = _company(
        jurisdiction,
        _holder(jurisdiction, 3, "Usina Tracunhaém", "Nazaré da Mata"),
        ["own"],
        today - dt.timedelta(days=150),
        ["PEF7A01", "PEF7A02"],
        rental_category=False,
    )
    sanctions.apply_sanction(
        actor=None,
        company=mill,
        kind="suspension",
        starts_on=today - dt.timedelta(days=20),
        grounds="Rastreador desligado em viagem (Anexo I, IV, i), decisão definitiva.",
        decision_reference="Processo de demonstração",
        reason=REASON,
    )
    # 4. Eventual chartering, CRC cancelled for 180 days.
    gone = _company(
        jurisdiction,
        _holder(jurisdiction, 4, "Sertão Viagens", "Serra Talhada"),
        ["eventual", "students"],
        today - dt.timedelta(days=300),
        ["PEF8A01", "PEF8A02"],
    )
    sanctions.apply_sanction(
        actor=None,
        company=gone,
        kind="cancellation",
        starts_on=today - dt.timedelta(days=30),
        grounds="Transporte sem seguro (Anexo I, IV, g), decisão definitiva.",
        decision_reference="Processo de demonstração",
        reason=REASON,
    )
    # 5. A tourism request waiting for the clerk.
    waiting = crc.register_company(
        actor=None, holder=_holder(jurisdiction, 5, "Litoral Sul Receptivo", "Ipojuca"), reason=REASON
    )
    crc.file_application(
        actor=None, company=waiting, modalities=["tourism"], reason=REASON, on=today - dt.timedelta(days=3)
    )


def _trips(company: CharteringCompany, car: FleetVehicle, today: dt.date) -> None:
    """Trips declared now for today (a demo loaded for a past date, whose CRC has run out by now,
    gets none: a trip is declared before its departure, with a CRC valid on that day)."""
    bus = FleetVehicle.objects.filter(company=company, vehicle__plate="PEF5A01").get()
    now = timezone.now()
    departs = max(
        now + dt.timedelta(minutes=30), timezone.make_aware(dt.datetime.combine(today, dt.time(14, 0)))
    )
    if not crc_state(company, timezone.localtime(departs).date()).may_operate:
        return
    people = [(name, f"RG {7_000_000 + n} SDS/PE") for n, name in enumerate(NAMES[:40])]
    tour = trips.TripData(
        modality="tourism",
        vehicle=bus.vehicle,
        contractor_name="Paróquia de São Sebastião",
        origin="Caruaru",
        destination="Juazeiro do Norte (CE)",
        departs_at=departs,
        returns_at=departs + dt.timedelta(days=2),
        itinerary="BR-232, BR-116; parada em Salgueiro",
        driver_name="Severino Ramos",
        driver_document="01234567890",
    )
    trips.declare_trip(actor=None, company=company, data=tour, passengers=people, reason=REASON)
    beach = trips.TripData(
        modality="tourism",
        vehicle=car.vehicle,
        contractor_name="Família Albuquerque",
        origin="Caruaru",
        destination="Porto de Galinhas",
        departs_at=departs + dt.timedelta(hours=1),
        returns_at=departs + dt.timedelta(hours=10),
        itinerary="BR-232, PE-060",
        driver_name="Luiza Pereira",
        driver_document="09876543210",
    )
    trips.declare_trip(actor=None, company=company, data=beach, passengers=people[:5], reason=REASON)
    tracking.record_positions(
        company=company,
        fixes=[
            tracking.Fix(
                bus.vehicle.plate, now - dt.timedelta(minutes=2), Decimal("-8.283300"), Decimal("-35.976100")
            )
        ],
    )
