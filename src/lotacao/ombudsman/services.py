"""What happens to a manifestation, each step validated, saved and audited in one transaction.

Lei federal 13.460/2017:
- art. 10, caput and § 1º: anyone may file, and identification is never a condition (every
  identity field is optional); § 7º: the identity is restricted information — it is kept apart
  (`ComplaintIdentity`), never written into the audit trail's snapshots, and each opening by the
  ombudsman is audited (`open_identity`);
- art. 12, p.ú., II: a receipt of the filing — the protocol and the access code;
- art. 16: the final answer within 30 days, extendable once, with reasons, by the same period;
  art. 16, p.ú.: the ombudsman may ask other units of the agency (`forward`);
- art. 14, I: receive, analyse and answer, with the measures taken (`answer`).
Each municipal law gives passengers the right to know what was done about their complaint
(Recife art. 14, IV; Maricá art. 34, IV) and the duty to report irregularities (Recife art. 15, IV).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from lotacao.audit.services import create_audited, record, update_audited
from lotacao.core.formats import br_date, lower_first
from lotacao.core.models import Jurisdiction
from lotacao.core.uploads import check_content
from lotacao.core.vehicle_verdict import clean_plate
from lotacao.documents.services import detect_content_type, max_upload_bytes
from lotacao.ombudsman import states
from lotacao.ombudsman.models import (
    DESCRIPTION_MAX,
    PLACE_MAX,
    Channel,
    Complaint,
    ComplaintIdentity,
    ComplaintPhoto,
    Kind,
    Status,
    Unit,
)
from lotacao.registry.models import Line, Vehicle

ANSWER_DAYS = 30  # Lei 13.460/2017, art. 16
EXTENSION_DAYS = 30  # art. 16: "prorrogável de forma justificada uma única vez, por igual período"
MAX_PHOTOS = 4
ANSWER_MAX = 8000
REASON_MIN = 10
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read over the phone
CODE_LENGTH = 8
PHOTO_TYPES = {"image/jpeg", "image/png", "image/webp"}
CITE_DEADLINE = "Lei federal 13.460/2017, art. 16"
EARLIEST_YEAR = 2000  # a date typed wrong (0001-01-01), not a rule of the law


def _kinds_in_words() -> str:
    return ", ".join(label.lower() for label in Kind.labels)


def hash_code(protocol: str, code: str) -> str:
    normal = re.sub(r"[^A-Za-z0-9]", "", code or "").upper()
    return hashlib.sha256(f"{protocol}:{normal}".encode()).hexdigest()


def code_matches(complaint: Complaint, code: str) -> bool:
    """Constant-time comparison of the hashes (the code itself is never stored)."""
    return hmac.compare_digest(complaint.access_hash, hash_code(complaint.protocol, code))


def display_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def _new_protocol(year: int) -> str:
    for _ in range(20):
        protocol = f"{year}{secrets.randbelow(10**8):08d}"
        if not Complaint.unscoped.filter(protocol=protocol).exists():
            return protocol
    raise RuntimeError("no free protocol number")  # pragma: no cover - 10^8 numbers a year


def _contact(contact: str) -> tuple[str, str]:
    """(email, phone) from the one `contact` field of the public API."""
    text = (contact or "").strip()
    if not text:
        return "", ""
    if len(text) > 200:
        raise ValidationError("O contato tem mais de 200 caracteres.")
    if "@" in text:
        try:
            validate_email(text)
        except ValidationError as error:
            raise ValidationError(f"O contato “{text}” não é um e-mail válido.") from error
        return text, ""
    digits = re.sub(r"\D", "", text)
    if not 8 <= len(digits) <= 15 or re.search(r"[^\d\s()+.\-]", text):
        raise ValidationError("O contato deve ser um e-mail ou um telefone com DDD (só números).")
    return "", text


def checked_photo(file: Any) -> tuple[str, str]:
    """(content type, sha256) of a photo that is what it claims to be (core.uploads)."""
    name = getattr(file, "name", "") or "foto"
    limit = max_upload_bytes()
    if file.size > limit:
        megabytes = f"{limit / (1024 * 1024):.1f}".replace(".", ",")
        raise ValidationError(f"A foto {name} é maior que o limite de {megabytes} MB.")
    kind = detect_content_type(file)
    if kind not in PHOTO_TYPES:
        raise ValidationError(f"O arquivo {name} não é uma foto (aceitos: JPEG, PNG ou WebP).")
    check_content(file, kind, name)
    digest = hashlib.sha256()
    for chunk in file.chunks():
        digest.update(chunk)
    file.seek(0)
    return kind, digest.hexdigest()


def _text(value: str, label: str, limit: int, required: bool = False) -> str:
    text = (value or "").strip()
    if required and not text:
        raise ValidationError(f"Informe {label}.")
    if len(text) > limit:
        raise ValidationError(
            f"{label[0].upper()}{label[1:]} tem {len(text)} caracteres; o limite é {limit}."
        )
    return text


@transaction.atomic
def file_complaint(
    *,
    jurisdiction: str,
    kind: str,
    description: str,
    plate: str = "",
    line: str = "",
    occurred_at: dt.datetime | None = None,
    place: str = "",
    name: str = "",
    email: str = "",
    phone: str = "",
    contact: str = "",
    photos: list[Any] | None = None,
    channel: str = Channel.WEB,
    actor: Any = None,
    now: dt.datetime | None = None,
) -> tuple[Complaint, str]:
    """Record a manifestation; returns it and its access code (shown once, stored as a hash)."""
    moment = now or timezone.now()
    place_row = Jurisdiction.unscoped.filter(code=jurisdiction, active=True).first()
    if place_row is None:
        raise ValidationError(f"Jurisdição desconhecida: “{jurisdiction[:40]}”.")
    if kind not in Kind.values:
        raise ValidationError(f"Tipo de manifestação desconhecido: escolha entre {_kinds_in_words()}.")
    if channel not in Channel.values:
        raise ValidationError("Canal de atendimento desconhecido.")
    text = _text(description, "o relato", DESCRIPTION_MAX, required=True)
    where = _text(place, "o local", PLACE_MAX)
    who = _text(name, "o nome", 200)
    mail, phone_text = _contact(contact)
    mail = mail or _text(email, "o e-mail", 200)
    if mail:
        try:
            validate_email(mail)
        except ValidationError as error:
            raise ValidationError(f"“{mail}” não é um e-mail válido.") from error
    phone_text = phone_text or _text(phone, "o telefone", 30)
    if occurred_at is not None:
        if timezone.is_naive(occurred_at):
            occurred_at = timezone.make_aware(occurred_at)
        if occurred_at.year < EARLIEST_YEAR:
            raise ValidationError(f"A data do fato é anterior a {EARLIEST_YEAR}: confira a data.")
        if occurred_at.year > moment.year or occurred_at > moment + dt.timedelta(minutes=5):
            raise ValidationError("A data e hora do fato está no futuro.")
    vehicle = None
    clean = ""
    if (plate or "").strip():
        clean = clean_plate(plate)  # a Portuguese refusal when it is not a plate
        vehicle = Vehicle.unscoped.filter(jurisdiction_id=jurisdiction, plate=clean).first()
    line_row = None
    if (line or "").strip():
        code = line.strip()[:20]
        line_row = Line.unscoped.filter(jurisdiction_id=jurisdiction, code__iexact=code).first()
        if line_row is None:
            raise ValidationError(f"A linha “{code}” não existe em {place_row.name}.")
    files = list(photos or [])
    if len(files) > MAX_PHOTOS:
        raise ValidationError(f"Envie no máximo {MAX_PHOTOS} fotos.")
    checked = [(file, *checked_photo(file)) for file in files]
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    local_day = timezone.localtime(moment).date()
    protocol = _new_protocol(local_day.year)
    complaint = Complaint(
        jurisdiction_id=jurisdiction,
        protocol=protocol,
        access_hash=hash_code(protocol, code),
        kind=kind,
        channel=channel,
        plate=clean,
        vehicle=vehicle,
        line=line_row,
        holder=vehicle.holder if vehicle is not None else None,
        occurred_at=occurred_at,
        place=where,
        description=text,
        received_at=moment,
        due_on=local_day + dt.timedelta(days=ANSWER_DAYS),
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    how = "pela internet" if channel == Channel.WEB else f"por {lower_first(Channel(channel).label)}"
    create_audited(
        actor=actor, instance=complaint, reason=f"Manifestação recebida {how}", action="complaint.filed"
    )
    if who or mail or phone_text:
        identity = ComplaintIdentity(
            jurisdiction_id=jurisdiction, complaint=complaint, name=who, email=mail, phone=phone_text
        )
        identity.full_clean()
        identity.save()
        # The identity's values never go into the trail (art. 10, § 7º): only which were given.
        given = [
            label for label, value in (("nome", who), ("e-mail", mail), ("telefone", phone_text)) if value
        ]
        record(
            actor=actor,
            action="complaint.identity_recorded",
            instance=complaint,
            reason="Identificação informada pelo manifestante",
            after={"informados": given},
        )
    for file, content_type, digest in checked:
        photo = ComplaintPhoto(
            jurisdiction_id=jurisdiction,
            complaint=complaint,
            content_type=content_type,
            size=file.size,
            sha256=digest,
        )
        photo.file.save("foto", file, save=False)
        photo.save()
    return complaint, code


def _reason(text: str, what: str) -> str:
    clean = (text or "").strip()
    if len(clean) < REASON_MIN:
        raise ValidationError(f"Escreva {what} (ao menos {REASON_MIN} caracteres).")
    if len(clean) > ANSWER_MAX:
        raise ValidationError(f"O texto tem {len(clean)} caracteres; o limite é {ANSWER_MAX}.")
    return clean


def _locked(complaint: Complaint) -> Complaint:
    return Complaint.unscoped.select_for_update().get(pk=complaint.pk)


@transaction.atomic
def triage(*, actor: Any, complaint: Complaint, note: str = "") -> Complaint:
    row = _locked(complaint)
    states.require(row.status, "triage")
    return update_audited(
        actor=actor,
        instance=row,
        changes={"status": Status.ANALYSIS},
        reason=(note or "").strip()[:500] or "Análise iniciada pela ouvidoria",
        action="complaint.triaged",
    )


@transaction.atomic
def forward(*, actor: Any, complaint: Complaint, unit: str, note: str) -> Complaint:
    """Ask a unit of the agency for information or measures (art. 16, p.ú.)."""
    row = _locked(complaint)
    states.require(row.status, "forward")
    if unit not in Unit.values:
        raise ValidationError("Escolha o setor a que a manifestação é encaminhada.")
    text = _reason(note, "o que se pede ao setor")
    return update_audited(
        actor=actor,
        instance=row,
        changes={"status": Status.FORWARDED, "forwarded_to": unit, "forward_note": text},
        reason=f"Encaminhada a {Unit(unit).label}",
        action="complaint.forwarded",
    )


@transaction.atomic
def extend(*, actor: Any, complaint: Complaint, reason: str, on: dt.date | None = None) -> Complaint:
    """Art. 16: once, with reasons, by 30 more days; within the running period."""
    day = on or timezone.localdate()
    row = _locked(complaint)
    states.require(row.status, "extend")
    if row.extended_on is not None:
        raise ValidationError(
            f"O prazo já foi prorrogado em {br_date(row.extended_on)}: a {CITE_DEADLINE} permite uma "
            "única prorrogação."
        )
    if day > row.due_on:
        raise ValidationError(
            f"O prazo venceu em {br_date(row.due_on)}: a prorrogação ({CITE_DEADLINE}) deve ser feita "
            "enquanto o prazo corre."
        )
    text = _reason(reason, "o motivo da prorrogação")
    return update_audited(
        actor=actor,
        instance=row,
        changes={
            "due_on": row.due_on + dt.timedelta(days=EXTENSION_DAYS),
            "extended_on": day,
            "extension_reason": text,
        },
        reason=text,
        action="complaint.extended",
    )


@transaction.atomic
def answer(
    *, actor: Any, complaint: Complaint, text: str, measures: str = "", follow_url: str = ""
) -> Complaint:
    """The final answer (art. 16) with the measures taken (art. 14, I; Recife art. 14, IV); the
    complainant who left an e-mail is told (outbox)."""
    row = _locked(complaint)
    states.require(row.status, "answer")
    body = _reason(text, "a resposta ao manifestante")
    done = (measures or "").strip()
    if len(done) > ANSWER_MAX:
        raise ValidationError(f"As providências têm {len(done)} caracteres; o limite é {ANSWER_MAX}.")
    row = update_audited(
        actor=actor,
        instance=row,
        changes={
            "status": Status.ANSWERED,
            "answer": body,
            "measures": done,
            "answered_at": timezone.now(),
            "answered_by": actor if getattr(actor, "pk", None) else None,
        },
        reason="Resposta conclusiva ao manifestante",
        action="complaint.answered",
    )
    identity = ComplaintIdentity.unscoped.filter(complaint=row).first()
    if identity is not None and identity.email:
        from lotacao.outbox.services import enqueue

        enqueue(
            event="complaint",
            template="ombudsman/mail/complaint_answered",
            context={
                "protocol": row.protocol,
                "kind": row.get_kind_display(),
                "agency": row.jurisdiction.official_name or row.jurisdiction.name,
                "received_on": br_date(timezone.localtime(row.received_at).date()),
                "answer": row.answer,
                "measures": row.measures,
                "follow_url": follow_url,
            },
            dedup_key=f"complaint-answered:{row.pk}",
            email=identity.email,
            jurisdiction=row.jurisdiction,
        )
    return row


@transaction.atomic
def close(*, actor: Any, complaint: Complaint, note: str = "") -> Complaint:
    row = _locked(complaint)
    states.require(row.status, "close")
    return update_audited(
        actor=actor,
        instance=row,
        changes={"status": Status.CLOSED, "closed_at": timezone.now()},
        reason=(note or "").strip()[:500] or "Manifestação encerrada após a resposta",
        action="complaint.closed",
    )


def open_identity(*, actor: Any, complaint: Complaint, reason: str) -> ComplaintIdentity | None:
    """The complainant's identity for the ombudsman, each opening audited (art. 10, § 7º). The
    caller checks the role (permissions.IDENTITY_ROLES)."""
    text = (reason or "").strip()
    if len(text) < REASON_MIN:
        raise ValidationError(f"Diga por que abre a identificação (ao menos {REASON_MIN} caracteres).")
    record(actor=actor, action="complaint.identity_opened", instance=complaint, reason=text[:500])
    return ComplaintIdentity.unscoped.filter(complaint=complaint).first()


@transaction.atomic
def schedule_inspection(
    *, actor: Any, complaint: Complaint, scheduled_for: dt.date, place: str = ""
) -> Complaint:
    """A complaint about a vehicle leads to a random inspection of it, pre-filled from the complaint."""
    from lotacao.inspections.models import Inspection
    from lotacao.inspections.services.inspection import schedule_inspection as schedule

    row = _locked(complaint)
    if not row.is_open:
        raise ValidationError("A manifestação já foi respondida: não há vistoria a pedir a partir dela.")
    if row.vehicle is None:
        raise ValidationError(
            "A manifestação não identifica um veículo do cadastro: não há vistoria a agendar."
        )
    if row.inspection_id is not None:
        raise ValidationError("Já há uma vistoria agendada a partir desta manifestação.")
    inspection = schedule(
        actor=actor,
        vehicle=row.vehicle,
        scheduled_for=scheduled_for,
        reason=f"Manifestação {row.protocol} ({lower_first(row.get_kind_display())})",
        kind=Inspection.Kind.RANDOM,
        place=place or "",
    )
    return update_audited(
        actor=actor,
        instance=row,
        changes={"inspection": inspection},
        reason=f"Vistoria aleatória agendada para {br_date(scheduled_for)}",
        action="complaint.inspection_scheduled",
    )
