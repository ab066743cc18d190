"""Separation of duties: where an act has two steps (a billing run simulated, then approved; a
document received at the desk, then reviewed), the agency may require two different people — its
jurisdiction's setting, on by default. A refusal is a Portuguese validation error, and it is
written to the audit log (the attempt, who tried, why it was refused) before it is raised."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from lotacao.audit.services import record
from lotacao.core.models import Jurisdiction

# act -> (the jurisdiction's setting, the refusal's words)
ACTS: dict[str, tuple[str, str]] = {
    "billing_run.approve": (
        "separate_billing_steps",
        "Quem simulou o faturamento não pode aprová-lo: a aprovação cabe a outro gestor "
        "(separação de funções exigida pelo órgão).",
    ),
    "document.review": (
        "separate_document_review",
        "Quem recebeu o documento não pode analisá-lo: a análise cabe a outro servidor "
        "(separação de funções exigida pelo órgão).",
    ),
}


def required(jurisdiction_id: str, act: str) -> bool:
    setting = ACTS[act][0]
    found = Jurisdiction.unscoped.filter(pk=jurisdiction_id).values_list(setting, flat=True).first()
    return bool(found) if found is not None else True


def blocked(*, act: str, actor: Any, first_id: int | None, instance: models.Model) -> str:
    """The refusal's words when `actor` may not take the second step (for the screen to say so
    beside the disabled control), or "" when they may."""
    actor_id = getattr(actor, "pk", None)
    if actor_id is None or first_id is None or actor_id != first_id:
        return ""
    return ACTS[act][1] if required(str(getattr(instance, "jurisdiction_id", "")), act) else ""


def check(*, act: str, actor: Any, first_id: int | None, instance: models.Model) -> None:
    """Refuse (audited) when the agency requires two people and `actor` took the first step.

    Call it before the act's own transaction opens, so the refusal's record is not rolled back
    with it."""
    words = blocked(act=act, actor=actor, first_id=first_id, instance=instance)
    if not words:
        return
    record(actor=actor, action="separation_of_duties.refused", instance=instance, reason=words)
    raise ValidationError(words)
