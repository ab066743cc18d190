"""The state tables of training: every status change of a class or an enrolment goes through
`require(...)`, and the screens' buttons read the same tables.

    class:     open --close_enrolment--> closed
               open | closed --finish--> finished (attendance counted, certificates issued)
               open | closed --cancel--> cancelled (live enrolments cancelled)
    enrolment: enrolled --complete--> completed (minimum attendance reached: certificate)
               enrolled --fail--> failed (below the minimum attendance)
               enrolled --cancel--> cancelled
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from lotacao.training.models import CourseClass, Enrolment

C = CourseClass.Status
E = Enrolment.Status
STAFF = ("gestor", "atendente")


@dataclass(frozen=True)
class Transition:
    name: str
    label: str  # the button
    doing: str  # "Não é possível {doing}: …"
    roles: tuple[str, ...]
    sources: tuple[str, ...]
    target: str


CLASS: tuple[Transition, ...] = (
    Transition(
        "close_enrolment", "Encerrar inscrições", "encerrar as inscrições", STAFF, (C.OPEN,), C.CLOSED
    ),
    Transition("finish", "Encerrar a turma", "encerrar a turma", STAFF, (C.OPEN, C.CLOSED), C.FINISHED),
    Transition("cancel", "Cancelar a turma", "cancelar a turma", STAFF, (C.OPEN, C.CLOSED), C.CANCELLED),
)
ENROLMENT: tuple[Transition, ...] = (
    Transition("complete", "Concluir", "concluir a inscrição", STAFF, (E.ENROLLED,), E.COMPLETED),
    Transition("fail", "Reprovar por frequência", "reprovar a inscrição", STAFF, (E.ENROLLED,), E.FAILED),
    Transition("cancel", "Cancelar a inscrição", "cancelar a inscrição", STAFF, (E.ENROLLED,), E.CANCELLED),
)
CLASS_BY_NAME = {t.name: t for t in CLASS}
ENROLMENT_BY_NAME = {t.name: t for t in ENROLMENT}

CLASS_PHRASES = {
    C.OPEN: "está com as inscrições abertas",
    C.CLOSED: "está com as inscrições encerradas",
    C.FINISHED: "já foi encerrada",
    C.CANCELLED: "foi cancelada",
}
ENROLMENT_PHRASES = {
    E.ENROLLED: "está em curso",
    E.COMPLETED: "já foi concluída",
    E.FAILED: "foi encerrada sem a frequência mínima",
    E.CANCELLED: "foi cancelada",
}


def class_refusal(course_class: CourseClass, action: str) -> str:
    transition = CLASS_BY_NAME[action]
    if course_class.status in transition.sources:
        return ""
    return f"Não é possível {transition.doing}: a turma {CLASS_PHRASES[C(course_class.status)]}."


def enrolment_refusal(enrolment: Enrolment, action: str) -> str:
    transition = ENROLMENT_BY_NAME[action]
    if enrolment.status in transition.sources:
        return ""
    return f"Não é possível {transition.doing}: a inscrição {ENROLMENT_PHRASES[E(enrolment.status)]}."


def require_class(course_class: CourseClass, action: str) -> Transition:
    if action not in CLASS_BY_NAME:
        raise ValidationError("Ação desconhecida.")
    why = class_refusal(course_class, action)
    if why:
        raise ValidationError(why)
    return CLASS_BY_NAME[action]


def require_enrolment(enrolment: Enrolment, action: str) -> Transition:
    if action not in ENROLMENT_BY_NAME:
        raise ValidationError("Ação desconhecida.")
    why = enrolment_refusal(enrolment, action)
    if why:
        raise ValidationError(why)
    return ENROLMENT_BY_NAME[action]


def class_actions(course_class: CourseClass, roles: set[str]) -> list[Transition]:
    """The transitions a user with `roles` may take now (the page's buttons)."""
    return [t for t in CLASS if course_class.status in t.sources and set(t.roles) & roles]
