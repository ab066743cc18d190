"""Every PDF the system issues is accessible (issue 24): tagged (PDF/UA-1), in pt-BR, titled; the
slips with Pix and the certificates also PDF/A-3b; the Pix "copia e cola" code comes out of the
PDF's text exactly as the BR Code was built. Each kind is fetched from its screen on the loaded
demo (once per module), then read with poppler's `pdfinfo` and `pdftotext`."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from io import BytesIO, StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from lotacao.accounts.models import User
from lotacao.billing.ledger.models import Charge
from lotacao.billing.payments import slips
from lotacao.chartering.models import Crc, Trip
from lotacao.core.models import Jurisdiction
from lotacao.enforcement.models import Decision, Filing, Fine, InfractionNotice, NoticeService, Session
from lotacao.enforcement.sanctions.fine_payment import payable_charge
from lotacao.inspections.models import IrregularityNotice, Seal
from lotacao.ombudsman import stats
from lotacao.permits.models import Permit
from lotacao.registry.models import Holder
from tests.clock import today

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler-utils (pdfinfo) ausente"),
]

# Kinds kept as archives (payment slips with Pix, certificates): PDF/A-3b as well as PDF/UA-1.
ARCHIVAL = {
    "guia de cobrança",
    "guia do mês",
    "guia de multa",
    "certificado CRC",
    "termo de permissão",
    "selo",
}
ROLES = ("gestor", "atendente", "fiscal", "comissao")


def _get(url: str, jurisdiction: str) -> bytes:
    for role in ROLES:
        client = Client()
        client.force_login(User.objects.get(username=f"{role}.{jurisdiction}"))
        response = client.get(url)
        if response.status_code == 200 and response["Content-Type"].startswith("application/pdf"):
            return b"".join(response) if response.streaming else response.content
    raise AssertionError(f"nenhum papel abre {url}")


def _pix_charge() -> Charge | None:
    """An open charge whose slip carries a Pix code (its agency recorded a Pix key)."""
    for charge in Charge.unscoped.filter(cancelled=False, paid_on__isnull=True).order_by("id"):
        if slips.charge_slip(charge, today()).pix_code:
            return charge
    return None


def _urls() -> dict[str, tuple[str, str]]:
    """Each PDF kind: (address, jurisdiction of the object)."""
    notice = InfractionNotice.unscoped.order_by("id").first()
    service = NoticeService.unscoped.order_by("id").first()
    decision = Decision.unscoped.order_by("id").first()
    filing = Filing.unscoped.order_by("id").first()
    session = Session.unscoped.order_by("id").first()
    fine = next(f for f in Fine.unscoped.order_by("id") if payable_charge(f) is not None)
    charge = _pix_charge()
    month_charge = charge
    holder = Holder.unscoped.filter(pk=notice.holder_id).first() if notice and notice.holder_id else None
    crc = Crc.unscoped.order_by("id").first()
    trip = Trip.unscoped.order_by("id").first()
    permit = Permit.unscoped.order_by("id").first()
    seal = Seal.unscoped.order_by("id").first()
    irregularity = IrregularityNotice.unscoped.order_by("id").first()
    missing = [
        name
        for name, obj in {
            "notice": notice,
            "service": service,
            "decision": decision,
            "filing": filing,
            "session": session,
            "charge": charge,
            "holder": holder,
            "crc": crc,
            "trip": trip,
            "permit": permit,
            "seal": seal,
            "irregularity": irregularity,
        }.items()
        if obj is None
    ]
    assert not missing, f"a demonstração não tem: {missing}"
    assert notice and service and decision and filing and session and charge and holder
    assert crc and trip and permit and seal and irregularity and month_charge
    place = Jurisdiction.objects.get(code="recife")
    month = (month_charge.competence or month_charge.due_on).replace(day=1)
    return {
        "auto de infração": (reverse("enforcement:notice_pdf", args=[notice.pk]), notice.jurisdiction_id),
        "carta de notificação": (
            reverse("enforcement:service_letter", args=[service.pk]),
            service.jurisdiction_id,
        ),
        "carta de decisão": (
            reverse("enforcement:decision_letter", args=[decision.pk]),
            decision.jurisdiction_id,
        ),
        "dossiê": (reverse("enforcement:dossier_pdf", args=[holder.pk]), holder.jurisdiction_id),
        "protocolo de defesa": (
            reverse("enforcement:filing_receipt", args=[filing.pk]),
            filing.jurisdiction_id,
        ),
        "ata": (reverse("enforcement:session", args=[session.pk]) + "?formato=pdf", session.jurisdiction_id),
        "guia de multa": (reverse("enforcement:fine_slip", args=[fine.pk]), fine.jurisdiction_id),
        "guia de cobrança": (reverse("billing:slip", args=[charge.pk]), charge.jurisdiction_id),
        "guia do mês": (
            reverse("billing:month_slip", args=[month_charge.holder_id]) + f"?mes={month:%m/%Y}",
            month_charge.jurisdiction_id,
        ),
        "certificado CRC": (reverse("chartering:crc_pdf", args=[crc.pk]), crc.jurisdiction_id),
        "manifesto de viagem": (reverse("chartering:manifest", args=[trip.pk]), trip.jurisdiction_id),
        "termo de permissão": (reverse("permits:term", args=[permit.pk]), permit.jurisdiction_id),
        "selo": (reverse("inspections:seal_pdf", args=[seal.pk]), seal.jurisdiction_id),
        "notificação de vistoria": (
            reverse("inspections:notice", args=[irregularity.pk]) + "?formato=pdf",
            irregularity.jurisdiction_id,
        ),
        "relatório da ouvidoria": (
            reverse("public:complaint_report", args=[place.code, max(stats.years(place))]),
            place.code,
        ),
    }


KINDS = [
    "auto de infração",
    "carta de notificação",
    "carta de decisão",
    "dossiê",
    "protocolo de defesa",
    "ata",
    "guia de multa",
    "guia de cobrança",
    "guia do mês",
    "certificado CRC",
    "manifesto de viagem",
    "termo de permissão",
    "selo",
    "notificação de vistoria",
    "relatório da ouvidoria",
]


@pytest.fixture(scope="module")
def documents(django_db_setup: Any, django_db_blocker: Any) -> dict[str, Any]:
    """Every PDF kind from the demo, and the Pix codes the slips were built with."""
    out: dict[str, Any] = {"pdf": {}, "pix": {}}
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", "--quiet-logins", stdout=StringIO())
        urls = _urls()
        assert sorted(urls) == sorted(KINDS)
        for kind, (url, jurisdiction) in urls.items():
            out["pdf"][kind] = _get(url, jurisdiction)
        fine = next(f for f in Fine.unscoped.order_by("id") if payable_charge(f) is not None)
        charge = payable_charge(fine)
        assert charge is not None
        out["pix"]["guia de multa"] = slips.charge_slip(charge, today()).pix_code
        first = _pix_charge()
        assert first is not None
        out["pix"]["guia de cobrança"] = slips.charge_slip(first, today()).pix_code
        transaction.set_rollback(True)  # the next tests start from an empty database again
    return out


def _poppler(tool: str, content: bytes, *args: str) -> str:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "documento.pdf"
        path.write_bytes(content)
        command = [tool, *args, str(path)] + (["-"] if tool == "pdftotext" else [])
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("kind", KINDS)
def test_every_pdf_kind_is_tagged_titled_and_in_portuguese(documents: dict[str, Any], kind: str) -> None:
    content = documents["pdf"][kind]
    info = _poppler("pdfinfo", content)
    assert re.search(r"^Tagged:\s+yes$", info, re.M), info
    title = re.search(r"^Title:\s+(.+)$", info, re.M)
    assert title and title.group(1).strip(), info
    meta = _poppler("pdfinfo", content, "-meta")
    assert "pdfuaid" in meta and re.search(r"pdfuaid:part[^0-9]{0,3}1", meta), meta
    if kind in ARCHIVAL:
        assert 'pdfaid:part="3"' in meta and 'pdfaid:conformance="B"' in meta, meta
    # The document's language: /Lang in the catalog (WeasyPrint writes it from <html lang>).
    assert PdfReader(BytesIO(content)).trailer["/Root"].get("/Lang") == "pt-BR"


@pytest.mark.parametrize("kind", ["guia de multa", "guia de cobrança"])
def test_the_pix_code_copied_from_the_pdf_is_the_exact_br_code(documents: dict[str, Any], kind: str) -> None:
    code = documents["pix"][kind]
    assert code.startswith("000201") and len(code) > 100
    text = _poppler("pdftotext", documents["pdf"][kind], "-enc", "UTF-8")
    # On one line, whole: a wrap (a line break) or a space inside it would break the copied code.
    assert any(line.strip() == code or code in line for line in text.splitlines()), text


# Kinds whose QR code opens a public page: the address is printed too, whole on one line.
QR_PAGES = ["certificado CRC", "manifesto de viagem", "termo de permissão", "selo"]
# What an empty value left in a sentence looks like (issue 24, "PDFs with holes").
HOLES = [
    re.compile(r"(^|\s)/\s*—"),  # "{{ place }}/{{ state }} — {{ law }}" without a place
    re.compile(r"emitid[oa] em —"),
    re.compile(r"contados \."),
]


@pytest.mark.parametrize("kind", KINDS)
def test_no_pdf_has_a_hole_where_a_value_was_missing(documents: dict[str, Any], kind: str) -> None:
    text = _poppler("pdftotext", documents["pdf"][kind], "-enc", "UTF-8")
    found = [hole.pattern for hole in HOLES if hole.search(text)]
    assert not found, f"{kind}: {found}\n{text[:3000]}"


@pytest.mark.parametrize("kind", QR_PAGES)
def test_the_qr_codes_address_is_printed_whole(documents: dict[str, Any], kind: str) -> None:
    text = _poppler("pdftotext", documents["pdf"][kind], "-enc", "UTF-8")
    assert re.search(r"http://testserver/publico/[^\s]+/", text), text
