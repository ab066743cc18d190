"""Online requests, law by law: file → decide → effect, and every refusal the law implies."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from lotacao.councils.testing import resolution_for
from lotacao.demo.documents import pdf_bytes
from lotacao.documents.models import Document
from lotacao.holder_requests import procedures, selectors, services
from lotacao.holder_requests.models import Request
from lotacao.outbox.models import Message
from lotacao.permits.models import Ban, Permit
from lotacao.workqueue.models import WorkItem

K = Request.Kind
PDF = pdf_bytes("Documento do requerente")


def _messages(error: Any) -> str:
    return " ".join(error.value.messages)


# ---------------------------------------------------------------- application, per law


@pytest.mark.parametrize("code,words", [("recife", "art. 2º, § 1º"), ("esteio", "art. 19, § 4º")])
def test_a_law_that_grants_only_by_tender_says_so_and_refuses(make: Any, code: str, words: str) -> None:
    j = make.jurisdiction(code)
    holder, user = make.holder(j)
    check = procedures.check(K.APPLICATION, holder=holder)
    assert not check.ok
    assert "só outorga a permissão por licitação" in check.messages()[0] and words in check.messages()[0]
    with pytest.raises(ValidationError) as error:
        services.file_request(actor=user, holder=holder, kind=K.APPLICATION)
    assert "licitação" in _messages(error)
    assert not Request.objects.exists()


def test_cabo_inscriptions_closed_ten_days_after_the_law(make: Any) -> None:
    j = make.jurisdiction("cabo")
    holder, user = make.holder(j)
    with pytest.raises(ValidationError) as error:
        services.file_request(actor=user, holder=holder, kind=K.APPLICATION)
    text = _messages(error)
    assert "até 02/08/2002" in text and "art. 7º" in text and "novo prazo" in text


def test_cabo_inscription_inside_the_window_is_received(make: Any, docs_complete: None) -> None:
    j = make.jurisdiction("cabo")
    holder, user = make.holder(j)
    request = services.file_request(actor=user, holder=holder, kind=K.APPLICATION, on=dt.date(2002, 7, 30))
    assert request.status == Request.Status.FILED and request.protocol == "REQ-2002-000001"


def test_marica_provisional_permit_file_decide_effect(make: Any, docs_complete: None) -> None:
    j = make.jurisdiction("marica")
    holder, user = make.holder(j, residence_since=dt.date(2010, 1, 1))
    clerk = make.clerk(j)
    check = procedures.check(K.APPLICATION, holder=holder)
    assert check.ok, check.messages()
    assert "provisória" in check.items[0].detail and "art. 76" in check.items[0].citation
    request = services.file_request(
        actor=user, holder=holder, kind=K.APPLICATION, statement="Opero a linha há anos."
    )
    assert WorkItem.objects.filter(
        kind="holder_requests.decide", key=str(request.pk), status="aberto"
    ).exists()
    assert selectors.open_requests(holder)[0]["protocol"] == request.protocol
    with pytest.raises(ValidationError):  # the same request twice
        services.file_request(actor=user, holder=holder, kind=K.APPLICATION)
    decided = services.decide_request(
        actor=clerk, request=request, approve=True, reasons="Demanda existente.", citation="art. 76"
    )
    permit = Permit.objects.get(holder=holder)
    assert permit.kind == Permit.Kind.PROVISIONAL and permit.status == Permit.Status.ELIGIBLE
    assert decided.status == Request.Status.APPROVED and decided.permit == permit
    assert not WorkItem.objects.filter(key=str(request.pk), status="aberto").exists()
    message = Message.objects.get(event="request")
    assert (
        "deferido" in message.subject and "art. 76" in message.body and "/requerimentos/" not in message.body
    )
    assert selectors.open_requests(holder) == []
    with pytest.raises(ValidationError) as error:  # the state table: decided once
        services.decide_request(actor=clerk, request=request, approve=False, reasons="de novo")
    assert "já foi deferido" in _messages(error)


def test_a_banned_applicant_is_refused_with_the_ban(make: Any, docs_complete: None) -> None:
    j = make.jurisdiction("marica")
    holder, user = make.holder(j, residence_since=dt.date(2010, 1, 1))
    today = timezone.localdate()
    Ban.objects.create(
        jurisdiction=j,
        person=holder.person,
        cause="revocation",
        starts_on=today - dt.timedelta(days=10),
        ends_on=today + dt.timedelta(days=300),
        citation="Lei Municipal 2.627/2015 (Maricá), art. 60",
    )
    with pytest.raises(ValidationError) as error:
        services.file_request(actor=user, holder=holder, kind=K.APPLICATION)
    assert "impedimento" in _messages(error)


def test_a_holder_at_the_quota_is_refused(make: Any, docs_complete: None) -> None:
    j = make.jurisdiction("marica")
    holder, user = make.holder(j, residence_since=dt.date(2010, 1, 1))
    make.permit(j, holder)
    with pytest.raises(ValidationError) as error:
        services.file_request(actor=user, holder=holder, kind=K.APPLICATION)
    assert "Já é titular" in _messages(error)


def test_missing_documents_block_the_application_up_front(make: Any) -> None:
    j = make.jurisdiction("marica")
    holder, _user = make.holder(j, residence_since=dt.date(2010, 1, 1))
    check = procedures.check(K.APPLICATION, holder=holder)
    assert not check.ok and any("Documento" in m for m in check.messages())


# ---------------------------------------------------------------- renewal


def test_recife_renewal_needs_the_cmtt_act_then_extends_the_term(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    permit = make.permit(j, holder)
    clerk = make.clerk(j)
    check = procedures.check(K.RENEWAL, holder=holder, permit=permit)
    assert check.ok and any("CMTT" in n.detail for n in check.notes)
    request = services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)
    with pytest.raises(ValidationError) as error:
        services.decide_request(actor=clerk, request=request, approve=True, reasons="Bom desempenho.")
    assert "CMTT" in _messages(error)
    assert Request.objects.get(pk=request.pk).status == Request.Status.FILED
    before = permit.valid_until
    services.decide_request(
        actor=clerk,
        request=request,
        approve=True,
        reasons="Bom desempenho.",
        users_heard=True,
        resolution=resolution_for("recife", "permit.renew", timezone.localdate()),
    )
    permit.refresh_from_db()
    assert permit.valid_until == before.replace(year=before.year + 6) and permit.renewals == 1
    assert "prorrogada" in Request.objects.get(pk=request.pk).effect


def test_recife_second_renewal_is_refused_up_front(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    permit = make.permit(j, holder, renewals=1)
    with pytest.raises(ValidationError) as error:
        services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)
    assert "uma única prorrogação" in _messages(error)


def test_esteio_renewal_asked_too_late_is_refused(make: Any) -> None:
    j = make.jurisdiction("esteio")
    holder, user = make.holder(j)
    permit = make.permit(j, holder, valid_for=60)
    with pytest.raises(ValidationError) as error:
        services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)
    assert "seis meses" in _messages(error) or "6 meses" in _messages(error)


def test_cabo_renewal_file_decide_effect(make: Any) -> None:
    j = make.jurisdiction("cabo")
    holder, user = make.holder(j)
    permit = make.permit(j, holder)
    request = services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)
    services.decide_request(actor=make.clerk(j), request=request, approve=True, reasons="Serviço regular.")
    permit.refresh_from_db()
    assert permit.renewals == 1


def test_renewal_with_debts_is_refused_where_the_law_requires_payment(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    permit = make.permit(j, holder)
    make.debt(holder)
    check = procedures.check(K.RENEWAL, holder=holder, permit=permit)
    assert not check.ok and "art. 26" in check.blocking[0].citation
    with pytest.raises(ValidationError):
        services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)


def test_renewal_of_another_holders_permit_is_refused(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    other, _ = make.holder(j)
    with pytest.raises(ValidationError):
        services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=make.permit(j, other))


# ---------------------------------------------------------------- document, substitution, booking


def test_document_upload_for_review_accepted_and_refused(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    clerk = make.clerk(j)
    code = procedures.document_choices(holder, timezone.localdate())[0][0]
    request = services.file_request(
        actor=user,
        holder=holder,
        kind=K.DOCUMENT,
        document_code=code,
        file=SimpleUploadedFile("doc.pdf", PDF, content_type="application/pdf"),
        valid_until=timezone.localdate() + dt.timedelta(days=300),
    )
    assert request.document is not None and request.document.status == Document.Status.PENDING
    with pytest.raises(ValidationError):
        services.decide_request(actor=clerk, request=request, approve=False, reasons=" ")
    services.decide_request(actor=clerk, request=request, approve=True, reasons="Conferido.")
    request.document.refresh_from_db()
    assert request.document.status == Document.Status.ACCEPTED
    second = services.file_request(
        actor=user,
        holder=holder,
        kind=K.DOCUMENT,
        document_code=code,
        file=SimpleUploadedFile("doc.pdf", PDF, content_type="application/pdf"),
        valid_until=timezone.localdate() + dt.timedelta(days=300),
    )
    services.decide_request(actor=clerk, request=second, approve=False, reasons="Ilegível.")
    second.document.refresh_from_db()
    assert second.document.status == Document.Status.REFUSED and second.document.refusal_reason == "Ilegível."


def test_a_file_that_is_not_a_document_is_refused(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    code = procedures.document_choices(holder, timezone.localdate())[0][0]
    with pytest.raises(ValidationError):
        services.file_request(
            actor=user,
            holder=holder,
            kind=K.DOCUMENT,
            document_code=code,
            file=SimpleUploadedFile("doc.pdf", b"not a pdf at all", content_type="application/pdf"),
        )
    assert not Request.objects.exists()


def _substitute(year: int, **extra: Any) -> dict[str, Any]:
    return {"plate": "NEW1A23", "category": "van", "manufacture_year": year, "seats": 16, "doors": 4, **extra}


def test_substitution_refuses_an_old_vehicle_and_replaces_a_fit_one(make: Any) -> None:
    j = make.jurisdiction("marica")
    holder, user = make.holder(j)
    permit = make.permit(j, holder)
    old = permit.vehicle
    with pytest.raises(ValidationError) as error:
        services.file_request(
            actor=user, holder=holder, kind=K.SUBSTITUTION, vehicle=old, substitute=_substitute(1990)
        )
    assert "art." in _messages(error)
    year = timezone.localdate().year
    with pytest.raises(ValidationError) as error:  # Maricá art. 25, § 4º: the proof of decharacterization
        services.file_request(
            actor=user, holder=holder, kind=K.SUBSTITUTION, vehicle=old, substitute=_substitute(year)
        )
    assert "descaracterização" in _messages(error)
    proof = {"decharacterization_proof": "Laudo de descaracterização e baixa da placa de aluguel no Detran"}
    request = services.file_request(
        actor=user, holder=holder, kind=K.SUBSTITUTION, vehicle=old, substitute=_substitute(year, **proof)
    )
    services.decide_request(actor=make.clerk(j), request=request, approve=True, reasons="Veículo conferido.")
    permit.refresh_from_db()
    old.refresh_from_db()
    assert permit.vehicle.plate == "NEW1A23" and old.deregistered_on is not None


def test_substitution_of_a_vehicle_not_the_holders_is_refused(make: Any) -> None:
    j = make.jurisdiction("marica")
    holder, user = make.holder(j)
    other, _ = make.holder(j)
    with pytest.raises(ValidationError):
        services.file_request(
            actor=user,
            holder=holder,
            kind=K.SUBSTITUTION,
            vehicle=make.vehicle(j, other),
            substitute=_substitute(2024),
        )


def test_marica_booking_needs_debts_paid_then_schedules_the_inspection(make: Any) -> None:
    from lotacao.billing.ledger.services import record_payment
    from lotacao.inspections.models import Inspection

    j = make.jurisdiction("marica")
    holder, user = make.holder(j)
    vehicle = make.vehicle(j, holder)
    slot = make.slot(j, capacity=1)
    charge = make.debt(holder)
    check = procedures.check(K.INSPECTION, holder=holder, vehicle=vehicle, slot=slot)
    assert not check.ok and "art. 27, § 3º" in check.blocking[0].citation
    with pytest.raises(ValidationError):
        services.file_request(actor=user, holder=holder, kind=K.INSPECTION, vehicle=vehicle, slot=slot)
    record_payment(
        actor=None, charge=charge, amount=charge.amount, paid_on=timezone.localdate(), reason="pago"
    )
    request = services.file_request(actor=user, holder=holder, kind=K.INSPECTION, vehicle=vehicle, slot=slot)
    other_vehicle = make.vehicle(j, holder)
    with pytest.raises(ValidationError) as error:  # one place: taken
        services.file_request(actor=user, holder=holder, kind=K.INSPECTION, vehicle=other_vehicle, slot=slot)
    assert "não tem mais vaga" in _messages(error)
    services.decide_request(
        actor=make.clerk(j), request=request, approve=True, reasons="Agendamento confirmado."
    )
    inspection = Inspection.objects.get(vehicle=vehicle)
    assert inspection.scheduled_for == timezone.localtime(slot.starts_at).date()
    assert inspection.status == Inspection.Status.SCHEDULED


def test_booking_without_open_slots_says_so(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, _user = make.holder(j)
    check = procedures.check(K.INSPECTION, holder=holder)
    assert not check.ok and "ainda não abriu horários" in check.messages()[0]


def test_a_refused_booking_frees_the_place(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    slot = make.slot(j, capacity=1)
    request = services.file_request(
        actor=user, holder=holder, kind=K.INSPECTION, vehicle=make.vehicle(j, holder), slot=slot
    )
    assert procedures.open_slots("recife") == []
    services.decide_request(
        actor=make.clerk(j), request=request, approve=False, reasons="Veículo em manutenção."
    )
    assert procedures.open_slots("recife") == [slot]


# ---------------------------------------------------------------- slots, withdrawal, who decides


def test_slots_open_and_close_with_their_refusals(make: Any) -> None:
    j = make.jurisdiction("recife")
    clerk = make.clerk(j)
    later = timezone.now() + dt.timedelta(days=3)
    slot = services.open_slot(actor=clerk, jurisdiction=j, starts_at=later, place="Pátio", capacity=5)
    with pytest.raises(ValidationError):
        services.open_slot(actor=clerk, jurisdiction=j, starts_at=later, place="Pátio", capacity=5)
    with pytest.raises(ValidationError):
        services.open_slot(
            actor=clerk,
            jurisdiction=j,
            starts_at=timezone.now() - dt.timedelta(hours=1),
            place="Pátio",
            capacity=5,
        )
    with pytest.raises(ValidationError):
        services.open_slot(actor=clerk, jurisdiction=j, starts_at=later, place="Outro", capacity=0)
    with pytest.raises(PermissionDenied):
        services.open_slot(
            actor=make.clerk(make.jurisdiction("esteio")),
            jurisdiction=j,
            starts_at=later,
            place="X",
            capacity=1,
        )
    services.close_slot(actor=clerk, slot=slot)
    with pytest.raises(ValidationError):
        services.close_slot(actor=clerk, slot=slot)


def test_withdrawal_by_the_holder_only_and_staff_of_another_agency_cannot_decide(make: Any) -> None:
    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    _other, other_user = make.holder(j)
    request = services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=make.permit(j, holder))
    with pytest.raises(PermissionDenied):
        services.decide_request(
            actor=make.clerk(make.jurisdiction("esteio")), request=request, approve=True, reasons="x"
        )
    with pytest.raises(PermissionDenied):
        services.decide_request(actor=make.clerk(j, "fiscal"), request=request, approve=True, reasons="x")
    with pytest.raises(PermissionDenied):
        services.withdraw_request(actor=other_user, request=request)
    services.withdraw_request(actor=user, request=request)
    with pytest.raises(ValidationError) as error:
        services.decide_request(actor=make.clerk(j), request=request, approve=True, reasons="x")
    assert "desistiu" in _messages(error)


def test_esteio_renewal_file_decide_effect(make: Any) -> None:
    j = make.jurisdiction("esteio")
    holder, user = make.holder(j)
    permit = make.permit(j, holder, valid_for=400)
    before = permit.valid_until
    request = services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)
    decided = services.decide_request(
        actor=make.clerk(j, "gestor"),
        request=request,
        approve=True,
        reasons="Serviço de boa qualidade.",
        citation="art. 41",
    )
    permit.refresh_from_db()
    assert (
        permit.valid_until == before.replace(year=before.year + 15) and decided.decision_citation == "art. 41"
    )


def test_marica_renewal_needs_the_new_validity_the_law_does_not_fix(make: Any) -> None:
    j = make.jurisdiction("marica")
    holder, user = make.holder(j)
    permit = make.permit(j, holder)
    clerk = make.clerk(j)
    request = services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)
    with pytest.raises(ValidationError) as error:
        services.decide_request(actor=clerk, request=request, approve=True, reasons="Prorrogação.")
    assert "informe a nova validade" in _messages(error)
    until = permit.valid_until + dt.timedelta(days=365)
    services.decide_request(
        actor=clerk, request=request, approve=True, reasons="Prorrogação.", valid_until=until
    )
    permit.refresh_from_db()
    assert permit.valid_until == until


def test_an_expired_permit_cannot_be_renewed(make: Any) -> None:
    j = make.jurisdiction("cabo")
    holder, user = make.holder(j)
    permit = make.permit(j, holder, valid_for=-5)
    with pytest.raises(ValidationError) as error:
        services.file_request(actor=user, holder=holder, kind=K.RENEWAL, permit=permit)
    assert "vencida" in _messages(error)


def test_a_document_reviewed_on_its_own_page_meanwhile(make: Any) -> None:
    from lotacao.documents import services as document_services

    j = make.jurisdiction("recife")
    holder, user = make.holder(j)
    clerk = make.clerk(j)
    code = procedures.document_choices(holder, timezone.localdate())[0][0]

    def filed() -> Request:
        return services.file_request(
            actor=user,
            holder=holder,
            kind=K.DOCUMENT,
            document_code=code,
            file=SimpleUploadedFile("doc.pdf", PDF, content_type="application/pdf"),
            valid_until=timezone.localdate() + dt.timedelta(days=300),
        )

    first = filed()
    document_services.review_document(actor=clerk, document=first.document, accepted=True)
    done = services.decide_request(actor=clerk, request=first, approve=True, reasons="Conferido.")
    assert "aceito na análise de documentos" in done.effect
    second = filed()
    document_services.review_document(
        actor=clerk, document=second.document, accepted=False, reason="Rasurado."
    )
    with pytest.raises(ValidationError) as error:
        services.decide_request(actor=clerk, request=second, approve=True, reasons="Conferido.")
    assert "Rasurado" in _messages(error)
    assert services.decide_request(actor=clerk, request=second, approve=False, reasons="Rasurado.").effect
