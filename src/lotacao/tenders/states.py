"""The call's (edital's) state table: every status change goes through `require(...)`, and the
call page's buttons read the same table.

    draft --open--> open --close--> closed --rank--> ranked
    ranked --record_seed | draw--> ranked (the public draw of ties; the status stays)
    ranked --publish--> published --open_appeals--> appeals --award--> awarded
    appeals --reopen--> closed (an appeal granted: the ranking is redone and published again)
    draft | open | closed | ranked | published | appeals --cancel--> cancelled

What the law and the edital add on top (applications only inside the window, the close only
after it, the draw only with a tie and a seed recorded before it, publication only once every
tie is drawn, the award only after the appeal window and with every appeal judged) stays with
each service in `lotacao.tenders.services`.
"""

from __future__ import annotations

from lotacao.core.states import StateTable, Transition
from lotacao.tenders.models import Call

C = Call.Status
STAFF = ("gestor", "comissao")  # the agency's manager and the selection committee
CLERKS = ("gestor", "atendente", "comissao")


LIVE = (C.DRAFT, C.OPEN, C.CLOSED, C.RANKED, C.PUBLISHED, C.APPEALS)

TRANSITIONS: tuple[Transition, ...] = (
    Transition("open", "Abrir inscrições", "abrir as inscrições", STAFF, (C.DRAFT,), C.OPEN),
    Transition("apply", "Registrar inscrição", "registrar a inscrição", CLERKS, (C.OPEN,), ""),
    Transition("close", "Encerrar inscrições", "encerrar as inscrições", STAFF, (C.OPEN,), C.CLOSED),
    Transition("rank", "Apurar classificação", "apurar a classificação", STAFF, (C.CLOSED,), C.RANKED),
    Transition("record_seed", "Registrar semente do sorteio", "registrar a semente", STAFF, (C.RANKED,), ""),
    Transition("draw", "Realizar sorteio público", "realizar o sorteio", STAFF, (C.RANKED,), ""),
    Transition(
        "publish", "Publicar classificação", "publicar a classificação", STAFF, (C.RANKED,), C.PUBLISHED
    ),
    Transition(
        "open_appeals", "Abrir prazo de recurso", "abrir o prazo de recurso", STAFF, (C.PUBLISHED,), C.APPEALS
    ),
    Transition("appeal", "Registrar recurso", "registrar o recurso", CLERKS, (C.APPEALS,), ""),
    Transition("judge", "Julgar recurso", "julgar o recurso", STAFF, (C.APPEALS,), ""),
    Transition("disqualify", "Desclassificar", "desclassificar a inscrição", STAFF, (C.APPEALS,), ""),
    Transition("reopen", "Refazer classificação", "refazer a classificação", STAFF, (C.APPEALS,), C.CLOSED),
    Transition("award", "Homologar e adjudicar", "adjudicar", ("gestor",), (C.APPEALS,), C.AWARDED),
    Transition("cancel", "Cancelar edital", "cancelar o edital", ("gestor",), LIVE, C.CANCELLED),
)
BY_NAME = {t.name: t for t in TRANSITIONS}

STATUS_PHRASES = {
    C.DRAFT: "o edital ainda está em elaboração",
    C.OPEN: "as inscrições do edital estão abertas",
    C.CLOSED: "as inscrições estão encerradas e a classificação ainda não foi apurada",
    C.RANKED: "a classificação foi apurada e ainda não foi publicada",
    C.PUBLISHED: "a classificação foi publicada e o prazo de recurso ainda não foi aberto",
    C.APPEALS: "o edital está no prazo de recurso",
    C.AWARDED: "o edital já foi adjudicado",
    C.CANCELLED: "o edital foi cancelado",
}


TABLE = StateTable(TRANSITIONS, STATUS_PHRASES)


def refusal(call: Call, action: str) -> str:
    """Why `action` cannot start from the call's status ("" when it can)."""
    return TABLE.refusal(call.status, action)


def require(call: Call, action: str) -> Transition:
    return TABLE.require(call.status, action)


def actions(call: Call, roles: set[str]) -> list[Transition]:
    """The transitions a user with `roles` may take now (the call page's forms)."""
    return TABLE.actions(call.status, roles)
