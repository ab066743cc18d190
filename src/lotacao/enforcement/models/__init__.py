"""The enforcement models, one module per wing, all importable from here (Django looks for them in
`lotacao.enforcement.models`; the app label, the tables and the migrations are the same as when
they lived in one file)."""

from lotacao.enforcement.models.due_process import (
    AgendaItem,
    BodyMember,
    Decision,
    Filing,
    FilingAttachment,
    JudgingBody,
    Session,
    Vote,
)
from lotacao.enforcement.models.idempotency import IdempotencyKey
from lotacao.enforcement.models.notices import (
    AGENT_KINDS,
    InfractionNotice,
    NoticeCounter,
    NoticePhoto,
    NoticeService,
    OffenderKind,
    PointsEntry,
)
from lotacao.enforcement.models.sanctions import (
    CourseRequirement,
    Fine,
    InterruptionRequest,
    Intervention,
    Measure,
    RevocationProcess,
    SuspensionFollowUp,
)

__all__ = [
    "AGENT_KINDS",
    "AgendaItem",
    "BodyMember",
    "CourseRequirement",
    "Decision",
    "Filing",
    "FilingAttachment",
    "Fine",
    "IdempotencyKey",
    "InfractionNotice",
    "InterruptionRequest",
    "Intervention",
    "JudgingBody",
    "Measure",
    "NoticeCounter",
    "NoticePhoto",
    "NoticeService",
    "OffenderKind",
    "PointsEntry",
    "RevocationProcess",
    "Session",
    "SuspensionFollowUp",
    "Vote",
]
