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

from lotacao.core.states import StateTable, Transition
from lotacao.training.models import CourseClass, Enrolment

C = CourseClass.Status
E = Enrolment.Status
STAFF = ("gestor", "atendente")


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


CLASS_TABLE = StateTable(CLASS, CLASS_PHRASES, "a turma")
ENROLMENT_TABLE = StateTable(ENROLMENT, ENROLMENT_PHRASES, "a inscrição")


def class_refusal(course_class: CourseClass, action: str) -> str:
    return CLASS_TABLE.refusal(course_class.status, action)


def enrolment_refusal(enrolment: Enrolment, action: str) -> str:
    return ENROLMENT_TABLE.refusal(enrolment.status, action)


def require_class(course_class: CourseClass, action: str) -> Transition:
    return CLASS_TABLE.require(course_class.status, action)


def require_enrolment(enrolment: Enrolment, action: str) -> Transition:
    return ENROLMENT_TABLE.require(enrolment.status, action)


def class_actions(course_class: CourseClass, roles: set[str]) -> list[Transition]:
    """The transitions a user with `roles` may take now (the page's buttons)."""
    return CLASS_TABLE.actions(course_class.status, roles)
