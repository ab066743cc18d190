"""The states of an infraction notice and the actions that move it: one table, read by the
services (which change the status only through `transition`) and by the notice page (which
offers the actions of the table the signed-in user's role may start, `offered`).

    action                 from                                 to
    notify                 lavrado (notificado: served once)    notificado       atendente, gestor
    serve_after_final      com decisão definitiva               notificado       (service only)
    archive                lavrado, notificado                  arquivado        gestor
    archive_late_service   notificado                           arquivado        (Recife art. 29 § 1º)
    archive_unserved       lavrado, notificado                  arquivado        (daily job)
    annul                  lavrado, notificado, arquivado       anulado          (final decision)
    decide_final           lavrado, notificado, arquivado       com decisão definitiva
    file                   lavrado, notificado                  (stays)          defense or appeal
    apply_penalty          lavrado, notificado                  (stays)          the body, ex officio
    apply_measure          lavrado, notificado, decisão def.    (stays)          fiscal, atendente, gestor

The table is what the services allowed before it was written down, guard by guard, including two
paths no guard refused (marked below): a notice decided final before it was served can still be
served (and reads "notificado" again), and a decision on a defense filed before the notice was
archived still closes it. A refusal names the current status in words, never its code, and the
law's article where the caller knows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from lotacao.audit.services import update_audited
from lotacao.enforcement import permissions
from lotacao.enforcement.models import InfractionNotice
from lotacao.enforcement.reading import br

Status = InfractionNotice.Status
DRAWN_UP, NOTIFIED, ARCHIVED, ANNULLED, DECIDED_FINAL = (
    Status.DRAWN_UP.value,
    Status.NOTIFIED.value,
    Status.ARCHIVED.value,
    Status.ANNULLED.value,
    Status.DECIDED_FINAL.value,
)
INITIAL = DRAWN_UP  # the status a notice is drawn up in

# The status in words, as a refusal says it: "O auto AI-2025-000001 está <words>: …".
STATUS_WORDS = {
    DRAWN_UP: "lavrado",
    NOTIFIED: "notificado",
    ARCHIVED: "arquivado",
    ANNULLED: "anulado",
    DECIDED_FINAL: "com decisão definitiva",
}


def _served_once(notice: InfractionNotice) -> str:
    """A notice is served once: its first notification is the one that counts."""
    if notice.served_on is not None:
        return f"O auto {notice.number} já foi notificado em {br(notice.served_on)}."
    return ""


@dataclass(frozen=True)
class Action:
    """One action on a notice: where it may start, where it leads, and why it is refused."""

    name: str
    label: str  # Portuguese, as the screen and the record call it
    sources: tuple[str, ...]  # the statuses it may start from
    target: str | None  # the status it leads to; None: the status stays (a status-guarded act)
    refusal: str  # the reason, after "O auto X está <status>: "
    audit: str = ""  # the audit action recording the change of status
    roles: tuple[str, ...] = ()  # who may start it on the notice page; (): not a button there
    url_name: str = ""  # the screen where it is done
    guard: Callable[[InfractionNotice], str] | None = None  # a refusal beyond the status ("" = none)


NOTIFY = Action(
    "notify",
    "Registrar notificação",
    (DRAWN_UP, NOTIFIED),
    NOTIFIED,
    "não cabe notificação",
    audit="enforcement.notice_served",
    roles=permissions.FILING_ROLES,
    url_name="enforcement:notification_create",
    guard=_served_once,
)
# Allowed today because no guard refused it (the API accepts it; the page never offered it): a
# notice decided final before it was ever served can be served, and reads "notificado" again.
SERVE_AFTER_FINAL = Action(
    "serve_after_final",
    "Registrar notificação de auto já decidido",
    (DECIDED_FINAL,),
    NOTIFIED,
    "não cabe notificação",
    audit="enforcement.notice_served",
    guard=_served_once,
)
ARCHIVE = Action(
    "archive",
    "Arquivar o auto",
    (DRAWN_UP, NOTIFIED),
    ARCHIVED,
    "não pode ser arquivado",
    audit="enforcement.notice_archived",
    roles=permissions.MANAGER_ROLES,
    url_name="enforcement:notice_archive",
)
ARCHIVE_LATE_SERVICE = Action(
    "archive_late_service",
    "Arquivar: notificado depois do prazo do órgão",
    (NOTIFIED,),
    ARCHIVED,
    "não pode ser arquivado",
    audit="enforcement.notice_archived",
)
ARCHIVE_UNSERVED = Action(
    "archive_unserved",
    "Arquivar: não notificado no prazo do órgão",
    (DRAWN_UP, NOTIFIED),
    ARCHIVED,
    "não pode ser arquivado",
    audit="enforcement.notice_archived",
)
# From "arquivado" too, as found (no guard refused it): a defense filed before the notice was
# archived is still judged, and its final decision closes the notice.
ANNUL = Action(
    "annul",
    "Anular o auto por decisão definitiva",
    (DRAWN_UP, NOTIFIED, ARCHIVED),
    ANNULLED,
    "não cabe nova decisão definitiva",
    audit="enforcement.notice_decided",
)
DECIDE_FINAL = Action(
    "decide_final",
    "Encerrar o auto com a decisão definitiva",
    (DRAWN_UP, NOTIFIED, ARCHIVED),
    DECIDED_FINAL,
    "não cabe nova decisão definitiva",
    audit="enforcement.notice_decided",
)
FILE = Action(
    "file",
    "Protocolar defesa ou recurso",
    (DRAWN_UP, NOTIFIED),
    None,
    "não cabe defesa ou recurso",
    url_name="enforcement:filing_create",
)
# The body's own decision where the law gives it without a filing (Cabo art. 29: the Council
# applies the penalty): the notice stays where it is until that decision is final.
APPLY_PENALTY = Action(
    "apply_penalty",
    "Registrar a aplicação da penalidade pelo órgão",
    (DRAWN_UP, NOTIFIED),
    None,
    "não cabe aplicar a penalidade",
    url_name="enforcement:penalty_apply",
)
APPLY_MEASURE = Action(
    "apply_measure",
    "Aplicar medida administrativa",
    (DRAWN_UP, NOTIFIED, DECIDED_FINAL),
    None,
    "não cabe medida administrativa",
    roles=permissions.NOTICE_ROLES,
    url_name="enforcement:measure_apply",
)

ACTIONS: tuple[Action, ...] = (
    NOTIFY,
    SERVE_AFTER_FINAL,
    ARCHIVE,
    ARCHIVE_LATE_SERVICE,
    ARCHIVE_UNSERVED,
    ANNUL,
    DECIDE_FINAL,
    FILE,
    APPLY_PENALTY,
    APPLY_MEASURE,
)
BY_NAME = {action.name: action for action in ACTIONS}


def status_words(status: str) -> str:
    return STATUS_WORDS.get(status, status)


def allows(notice: InfractionNotice, action: Action) -> bool:
    """Whether the table lets `action` start from the notice's status (and its guard passes)."""
    return notice.status in action.sources and not (action.guard and action.guard(notice))


def refusal(notice: InfractionNotice, action: Action, citation: str = "") -> str:
    """Why the table refuses `action` on this notice now ("" when it allows it)."""
    if notice.status not in action.sources:
        where = f" ({citation})" if citation else ""
        return f"O auto {notice.number} está {status_words(notice.status)}: {action.refusal}{where}."
    return action.guard(notice) if action.guard else ""


def check(notice: InfractionNotice, action: Action, *, citation: str = "") -> None:
    """Refuse, in Portuguese, an action the table does not allow on this notice now."""
    message = refusal(notice, action, citation)
    if message:
        raise ValidationError(message)


def transition(
    notice: InfractionNotice,
    action: Action,
    *,
    actor: Any,
    reason: str,
    changes: dict[str, Any] | None = None,
    citation: str = "",
) -> InfractionNotice:
    """The one way a notice's status changes: checked against the table, saved with the other
    `changes` of the same act, audited under the action's name. An action that keeps the status
    is only checked. The caller holds the row lock and the transaction."""
    check(notice, action, citation=citation)
    if action.target is None:
        return notice
    return update_audited(
        actor=actor,
        instance=notice,
        changes={**(changes or {}), "status": action.target},
        reason=reason,
        action=action.audit,
    )


def offered(notice: InfractionNotice, access: Any) -> list[Action]:
    """The actions of the table the notice page offers this user now (by status and role)."""
    return [
        action
        for action in ACTIONS
        if action.roles
        and allows(notice, action)
        and permissions.allowed(access, notice.jurisdiction_id, action.roles)
    ]
