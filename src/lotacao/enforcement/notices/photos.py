"""Photos taken with the phone's camera when a notice is drawn up, kept as its evidence.

Each file is checked before anything is written: an image by its first bytes (JPEG, PNG or WebP,
never by its name), one the image library can read, within the upload size limit of documents.
The files live beside the documents (private storage, random names) and go out only through
`views.NoticePhotoFile`, which checks the scope.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from PIL import Image, UnidentifiedImageError

from lotacao.audit.services import create_audited
from lotacao.documents.services import detect_content_type, max_upload_bytes
from lotacao.enforcement.models import InfractionNotice, NoticePhoto
from lotacao.enforcement.models.notices import PHOTO_EXTENSIONS

MAX_PHOTOS = 6


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}".replace(".", ",") + " MB"


def checked_photo(file: Any) -> tuple[str, str]:
    """(content type, sha256) of a valid photo; a Portuguese refusal otherwise."""
    name = getattr(file, "name", "") or "foto"
    limit = max_upload_bytes()
    if file.size > limit:
        raise ValidationError(f"A foto {name} tem {_megabytes(file.size)}; o limite é {_megabytes(limit)}.")
    kind = detect_content_type(file)
    if kind not in PHOTO_EXTENSIONS:
        raise ValidationError(f"O arquivo {name} não é uma foto (aceitos: JPEG, PNG ou WebP).")
    file.seek(0)
    try:
        with Image.open(file) as image:
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise ValidationError(f"A foto {name} está corrompida ou incompleta.") from error
    file.seek(0)
    digest = hashlib.sha256()
    for chunk in file.chunks():
        digest.update(chunk)
    file.seek(0)
    return kind, digest.hexdigest()


def checked_photos(files: list[Any]) -> list[tuple[Any, str, str]]:
    if len(files) > MAX_PHOTOS:
        raise ValidationError(f"Envie no máximo {MAX_PHOTOS} fotos por auto.")
    return [(file, *checked_photo(file)) for file in files]


def evidence_reference(checked: list[tuple[Any, str, str]]) -> str:
    """What the notice records as its image reference: each photo's fingerprint."""
    return ", ".join(f"foto {sha[:12]}" for _, _, sha in checked)[:300]


@transaction.atomic
def attach_photos(
    *, actor: Any, notice: InfractionNotice, checked: list[tuple[Any, str, str]], reason: str
) -> list[NoticePhoto]:
    """Store the checked photos with the notice (one audited record each)."""
    saved = []
    for file, kind, sha in checked:
        photo = NoticePhoto(
            jurisdiction_id=notice.jurisdiction_id,
            notice=notice,
            content_type=kind,
            size=file.size,
            sha256=sha,
            taken_by=actor if getattr(actor, "pk", None) else None,
        )
        photo.file.save("foto", file, save=False)
        create_audited(actor=actor, instance=photo, reason=reason, action="enforcement.notice_photo_added")
        saved.append(photo)
    return saved
