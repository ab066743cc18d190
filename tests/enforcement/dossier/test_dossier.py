"""The holder's dossier (contents, open deadlines, bounded queries, access) and the enforcement
letters as PDFs (notice, notification, decision).

The PDFs' text is drawn in subset fonts (neither pypdf nor pdftotext is installed here), so the
tests read the HTML each PDF is rendered from (`pdf.*_html`) and check the served file is a PDF.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import connection
from django.shortcuts import resolve_url
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image

from lotacao.core.law import evaluate_case
from lotacao.enforcement.dossier import pdf
from lotacao.enforcement.dossier.dossier import holder_dossier
from lotacao.enforcement.models import (
    Decision,
    Fine,
    InfractionNotice,
    Measure,
    NoticePhoto,
    NoticeService,
    PointsEntry,
)
from lotacao.enforcement.sanctions.fines_pdf import slip_html
from tests.enforcement.conftest import at, make_jurisdiction

pytestmark = pytest.mark.django_db

FINE = {"penalties": [{"type": "fine", "amount": "500.00"}], "measures": []}
ON = dt.date(2025, 7, 1)


def _notice(r: dict[str, Any], number: str, day: str = "2025-06-10", **over: Any) -> InfractionNotice:
    fields: dict[str, Any] = {
        "jurisdiction": r["j"],
        "number": number,
        "drawn_up_at": at(day),
        "place": "Av. Norte, 100",
        "infraction_code": "G2-a",
        "infraction_group": "2",
        "description": "Fora do itinerário",
        "offender_kind": "permit_holder",
        "holder": r["holder"],
        "vehicle": r["vehicle"],
        "line": r["line"],
        "permit": r["permit"],
        "inspector": r["fiscal"],
        "plate": r["vehicle"].plate,
        "penalty": FINE,
        "citations": ["Lei Municipal 16.856/2003 (Recife), Anexo Único, Grupo 2, a"],
        "explanation": "Multa do grupo 2.",
        "law": "Lei Municipal 16.856/2003 (Recife)",
        "status": InfractionNotice.Status.NOTIFIED,
        "served_on": dt.date(2025, 6, 16),
    }
    fields.update(over)
    return InfractionNotice.objects.create(**fields)


def _full(r: dict[str, Any], number: str, day: str = "2025-06-10") -> InfractionNotice:
    """A notice with a notification, a measure, a fine, points and a decision at the defense."""
    notice = _notice(r, number, day)
    NoticeService.objects.create(
        jurisdiction=r["j"],
        notice=notice,
        method="post_ar",
        sent_on=dt.date(2025, 6, 11),
        received_on=dt.date(2025, 6, 16),
        address="Rua A, 1, Recife/PE",
        served_on=dt.date(2025, 6, 16),
        citations=["Lei Municipal 16.856/2003 (Recife), art. 36"],
    )
    Measure.objects.create(jurisdiction=r["j"], notice=notice, kind="vehicle_retention", applied_at=at(day))
    Fine.objects.create(
        jurisdiction=r["j"],
        notice=notice,
        holder=r["holder"],
        payer_name=str(r["holder"]),
        amount=Decimal("500.00"),
        due_on=dt.date(2025, 7, 30),
    )
    PointsEntry.objects.create(
        jurisdiction=r["j"], notice=notice, holder=r["holder"], points=5, on=notice.drawn_up_at.date()
    )
    return notice


def _decide(notice: InfractionNotice, **over: Any) -> Decision:
    fields: dict[str, Any] = {
        "jurisdiction": notice.jurisdiction,
        "notice": notice,
        "instance": "defense",
        "decided_on": dt.date(2025, 6, 25),
        "outcome": Decision.Outcome.UPHELD,
        "reasons": "A defesa não afasta a autuação.",
        "penalty": FINE,
        "citations": ["Lei Municipal 16.856/2003 (Recife), art. 41"],
        "served_on": dt.date(2025, 6, 27),
    }
    fields.update(over)
    return Decision.objects.create(**fields)


def _row(dossier: Any, number: str) -> Any:
    return next(r for r in dossier.notices if r.notice.number == number)


def _due(deadline: str, start: dt.date) -> dt.date:
    found = evaluate_case(
        {"jurisdiction": "recife", "kind": "deadline", "deadline": deadline, "date": start.isoformat()}
    )
    return dt.date.fromisoformat(found["due"])


# ---------------------------------------------------------------------------------- contents


def test_dossier_gathers_notices_fines_measures_points_and_open_deadlines(recife: dict[str, Any]) -> None:
    before = holder_dossier(recife["holder"], ON)  # the shared world's own rows
    open_notice = _full(recife, "AI-2025-000001")
    judged = _full(recife, "AI-2025-000002", day="2025-06-05")
    _decide(judged)
    final = _notice(recife, "AI-2025-000003", day="2025-05-01", status=InfractionNotice.Status.DECIDED_FINAL)
    _decide(final, final=True, final_on=dt.date(2025, 6, 1), decided_on=dt.date(2025, 5, 20))

    d = holder_dossier(recife["holder"], ON)

    assert d.holder == recife["holder"] and recife["permit"] in d.permits
    row = _row(d, "AI-2025-000001")
    assert row.penalty == "Multa de R$\xa0500,00" and row.points == 5
    assert row.fine.amount == Decimal("500.00") and len(row.measures) == 1 and len(row.services) == 1
    assert d.points_total - before.points_total == 10
    assert {m.notice.number for m in d.measures_in_force} >= {"AI-2025-000001", "AI-2025-000002"}
    assert d.fines_open_total - before.fines_open_total == Decimal("1000.00")
    assert _row(d, "AI-2025-000003").final and _row(d, "AI-2025-000003").step is None

    # the defense against the open notice: CDTC, 30 days from the first business day after service
    step = _row(d, "AI-2025-000001").step
    assert "Defesa à CDTC" in step.label and "Comissão Disciplinar" in step.label
    # (the world's municipal holiday of 16/07 moves the last day to 17/07: the agency's value)
    assert step.due == _due("defense", dt.date(2025, 6, 16)) == dt.date(2025, 7, 17)
    assert any("art. 41" in c for c in step.citations) and not step.overdue
    # after the defense was judged: the appeal to the CRA, from the decision's service
    appeal = _row(d, "AI-2025-000002").step
    assert "Recurso ao CRA" in appeal.label and appeal.due == _due("appeal", dt.date(2025, 6, 27))
    # and the fines fall due
    fine_dues = [
        x for x in d.deadlines if x.label == "Vencimento da multa" and x.notice.number.startswith("AI-2025")
    ]
    assert {x.notice.number for x in fine_dues} == {"AI-2025-000001", "AI-2025-000002"}
    assert all(x.due == dt.date(2025, 7, 30) for x in fine_dues)
    numbers = {x.notice.number for x in d.deadlines}
    assert "AI-2025-000003" not in numbers and open_notice.number in numbers


def test_a_notice_not_yet_served_has_no_date_but_says_when_the_deadline_starts(
    recife: dict[str, Any],
) -> None:
    _notice(recife, "AI-2025-000010", status=InfractionNotice.Status.DRAWN_UP, served_on=None)
    step = _row(holder_dossier(recife["holder"], ON), "AI-2025-000010").step
    assert step.due is None and "do recebimento da notificação" in step.explanation


def test_pending_filing_is_shown_as_awaiting_judgment(recife: dict[str, Any]) -> None:
    from lotacao.enforcement.models import Filing

    notice = _notice(recife, "AI-2025-000011")
    Filing.objects.create(
        jurisdiction=recife["j"],
        notice=notice,
        instance="defense",
        instance_name="Defesa à CDTC",
        receipt="P-1",
        filed_at=at("2025-06-20"),
        channel="counter",
        text="Razões",
    )
    step = _row(holder_dossier(recife["holder"], ON), "AI-2025-000011").step
    assert step.due is None and "protocolo P-1 aguardando julgamento" in step.label


def test_points_are_totalled_per_window_of_the_law(world: Any) -> None:
    from lotacao.registry import services

    marica = make_jurisdiction("marica")
    person = services.create_person(
        actor=None, jurisdiction=marica, cpf="52998224725", full_name="Pessoa de Maricá", reason="teste"
    )
    holder = services.register_holder(actor=None, person=person, reason="teste")
    for number, day, points, status in (
        ("AI-M-1", dt.date(2025, 6, 1), 7, InfractionNotice.Status.DECIDED_FINAL),
        ("AI-M-2", dt.date(2025, 1, 10), 5, InfractionNotice.Status.DECIDED_FINAL),
        ("AI-M-3", dt.date(2024, 1, 10), 4, InfractionNotice.Status.NOTIFIED),
    ):
        notice = InfractionNotice.objects.create(
            jurisdiction=marica,
            number=number,
            drawn_up_at=at(day.isoformat()),
            infraction_code="x",
            offender_kind="permit_holder",
            holder=holder,
            status=status,
        )
        PointsEntry.objects.create(jurisdiction=marica, notice=notice, holder=holder, points=points, on=day)
    d = holder_dossier(holder, ON)
    windows = {w.label: w for w in d.points_windows}
    assert windows["Últimos 120 dias"].total == 7 and windows["Últimos 120 dias"].at_least == 12
    assert windows["Últimos 240 dias"].final_total == 12
    assert windows["Últimos 365 dias"].total == 12  # 2024's notice is out of every window
    assert "art. 57" in windows["Últimos 120 dias"].citations[0]
    assert d.points_total == 16


def test_the_dossier_does_not_query_per_notice(recife: dict[str, Any]) -> None:
    def count() -> int:
        holder_dossier(recife["holder"], ON)  # the layered pack cached, as in a running process
        with CaptureQueriesContext(connection) as queries:
            holder_dossier(recife["holder"], ON)
        return len(queries)

    first = _full(recife, "AI-2025-000100")
    _decide(first)
    one = count()
    for n in range(29):
        notice = _full(recife, f"AI-2025-{n + 101:06d}")
        _decide(notice)
    assert count() == one <= 12


# --------------------------------------------------------------------------------- documents


def test_notice_pdf_has_the_agency_the_fields_and_where_to_file(
    recife: dict[str, Any], client: Any, world: Any
) -> None:
    notice = _notice(recife, "AI-2025-000020")
    html = pdf.notice_html(notice, ON)
    assert "CTTU" in html and "AI-2025-000020" in html and "Recife/PE" in html
    assert "Pessoa 0 de Recife" in html and recife["vehicle"].plate_display in html
    assert (
        "Anexo Único, Grupo 2, a" in html
        and "Lei Municipal 16.856/2003 (Recife), Anexo Único, Grupo 2" in html
    )
    assert "Multa de R$\xa0500,00" in html
    assert "Defesa à CDTC" in html and "Comissão Disciplinar do Transporte Complementar" in html
    assert "17/07/2025" in html  # the defense deadline from the service on 16/06/2025
    assert "art. 30" in html  # the fields the law requires on the notice
    client.force_login(world.users["atendente.recife"])
    response = client.get(reverse("enforcement:notice_pdf", args=[notice.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def _pdf_text(content: bytes) -> str:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "auto.pdf"
        path.write_bytes(content)
        return subprocess.run(
            ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) ausente")
def test_the_notice_pdf_has_its_gps_position_photos_and_signature_lines(
    recife: dict[str, Any], client: Any, world: Any
) -> None:
    """Issue 24, defect 4: the notice recorded a position and photos the PDF left out, and had no
    line for the agent's and the offender's signatures."""
    notice = _notice(
        recife,
        "AI-2025-000024",
        evidence_latitude=Decimal("-8.063150"),
        evidence_longitude=Decimal("-34.871140"),
    )
    image = io.BytesIO()
    Image.new("RGB", (16, 16), "red").save(image, "PNG")
    data = image.getvalue()
    photo = NoticePhoto(
        jurisdiction=recife["j"], notice=notice, content_type="image/png", size=len(data), sha256="0" * 64
    )
    photo.file.save("foto", ContentFile(data), save=True)
    html = pdf.notice_html(notice, ON)
    assert 'alt="Foto 1 do auto AI-2025-000024"' in html and "data:image/png;base64," in html
    client.force_login(world.users["atendente.recife"])
    response = client.get(reverse("enforcement:notice_pdf", args=[notice.pk]))
    text = " ".join(_pdf_text(response.content).split())
    assert "Posição (GPS) latitude -8,063150, longitude -34,871140" in text
    assert "Foto 1 do auto AI-2025-000024" in text
    assert (
        "Assinaturas" in text and "Agente fiscal: " in text and "Permissionário: Pessoa 0 de Recife" in text
    )
    assert "G2-a" not in text  # the law's item, not the pack's id
    without = _notice(recife, "AI-2025-000025")
    html = pdf.notice_html(without, ON)
    assert "Posição (GPS)" not in html and "<h2>Fotos</h2>" not in html and "Assinaturas" in html


def test_no_pdf_prints_the_packs_infraction_id(recife: dict[str, Any], world: Any) -> None:
    """The notice, the dossier and the fine slip cite "Anexo Único, Grupo 2, a", never "G2-a"."""
    notice = _full(recife, "AI-2025-000026")
    fine = Fine.objects.get(notice=notice)
    documents = {
        "auto": pdf.notice_html(notice, ON),
        "dossiê": pdf.dossier_html(holder_dossier(recife["holder"], ON)),
        "guia": slip_html(fine, on=ON),
    }
    for name, html in documents.items():
        assert "G2-a" not in html, name
        assert "Anexo Único, Grupo 2, a" in html, name


def test_the_documents_say_when_they_were_issued(recife: dict[str, Any]) -> None:
    html = pdf.notice_html(_notice(recife, "AI-2025-000027"), ON)
    issued = re.search(r"Documento emitido em (\d{2}/\d{2}/\d{4} \d{2}:\d{2})\.", html)
    assert issued, html[-400:]


def test_notification_letter_pdf(recife: dict[str, Any], client: Any, world: Any) -> None:
    notice = _full(recife, "AI-2025-000021")
    service = notice.services.get()
    html = pdf.service_html(service, ON)
    assert "CTTU" in html and "AI-2025-000021" in html
    assert "Via postal com aviso de recebimento (AR)" in html and "Rua A, 1, Recife/PE" in html
    assert "16/06/2025" in html and "art. 36" in html and "17/07/2025" in html
    client.force_login(world.users["atendente.recife"])
    response = client.get(reverse("enforcement:service_letter", args=[service.pk]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_decision_letters_name_the_next_instance_or_say_final(
    recife: dict[str, Any], client: Any, world: Any
) -> None:
    notice = _notice(recife, "AI-2025-000022")
    first = _decide(notice)
    html = pdf.decision_html(first, ON)
    assert "CTTU" in html and "AI-2025-000022" in html and "Penalidade mantida" in html
    assert "A defesa não afasta a autuação." in html and "art. 41" in html
    assert "Recurso ao CRA" in html and _due("appeal", dt.date(2025, 6, 27)).strftime("%d/%m/%Y") in html
    assert "Decisão definitiva" not in html
    last = _decide(
        notice, instance="appeal", final=True, final_on=dt.date(2025, 7, 20), decided_on=dt.date(2025, 7, 10)
    )
    html = pdf.decision_html(last, ON)
    assert (
        "Decisão definitiva" in html
        and "Recurso ao CRA" not in html.split("Próxima instância")[1].split("Auto de infração")[0]
    )
    client.force_login(world.users["atendente.recife"])
    response = client.get(reverse("enforcement:decision_letter", args=[last.pk]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_dossier_page_and_pdf(recife: dict[str, Any], client: Any, world: Any) -> None:
    _full(recife, "AI-2025-000030")
    holder = recife["holder"]
    client.force_login(world.users["atendente.recife"])
    page = client.get(reverse("enforcement:dossier", args=[holder.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Prontuário de Pessoa 0 de Recife" in body and "AI-2025-000030" in body
    assert "Prazos em aberto" in body and "Vencimento da multa" in body and "R$\xa0500,00" in body
    assert (
        reverse("enforcement:notice_pdf", args=[_row(holder_dossier(holder, ON), "AI-2025-000030").notice.pk])
        in body
    )
    html = pdf.dossier_html(holder_dossier(holder, ON))
    assert "CTTU" in html and "AI-2025-000030" in html
    response = client.get(reverse("enforcement:dossier_pdf", args=[holder.pk]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


# ------------------------------------------------------------------------------------ access


def test_holder_sees_own_dossier_and_nobody_else_does(
    recife: dict[str, Any], client: Any, world: Any
) -> None:
    notice = _full(recife, "AI-2025-000040")
    holder = recife["holder"]
    urls = [
        reverse("enforcement:dossier", args=[holder.pk]),
        reverse("enforcement:dossier_pdf", args=[holder.pk]),
        reverse("enforcement:notice_pdf", args=[notice.pk]),
        reverse("enforcement:service_letter", args=[notice.services.get().pk]),
    ]
    client.force_login(world.users["holder0.recife"])
    for url in urls:
        assert client.get(url).status_code == 200, url
    for outsider in ("holder1.recife", "atendente.esteio", "gestor.esteio"):
        client.force_login(world.users[outsider])
        for url in urls:
            assert client.get(url).status_code == 404, (outsider, url)
    client.logout()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(
            resolve_url(settings.LOGIN_URL)
        )


def test_notice_and_holder_pages_link_to_the_documents(
    recife: dict[str, Any], client: Any, world: Any
) -> None:
    notice = _notice(recife, "AI-2025-000050")
    dossier = reverse("enforcement:dossier", args=[recife["holder"].pk])
    client.force_login(world.users["atendente.recife"])
    body = client.get(reverse("enforcement:notice", args=[notice.pk])).content.decode()
    assert dossier in body and reverse("enforcement:notice_pdf", args=[notice.pk]) in body
    assert dossier in client.get(reverse("registry:holder", args=[recife["holder"].pk])).content.decode()
