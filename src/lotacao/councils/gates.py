"""Decisions a law makes depend on a council, and the check that the act is there.

GATES lists, per law code, each decision that the law submits to a council or commission, with
the article that says so, and that a service of this product takes (each calls `require`):

- Recife (Lei 16.856/2003): the renewal of the permit "mediante aprovação do CMTT/Recife" (art.
  2º: permits' renewal, holder requests); the creation of lines, their extinction, the change of
  the type and quantity of vehicles and the remuneration model and fare policy "submetidos à
  Aprovação do CMTT/Recife" (art. 3º, § 1º: line versions, line extinction, service orders and
  requests that change the fleet, the fare and its readjustments in billing). Art. 4º, parágrafo
  único (the viability study before a line is created) is the Poder Público's own study, not a
  council's act; art. 47 only changes the CMTT's composition.
- Esteio (Lei 3.839/2004): line changes requested by operators or users, "a critério exclusivo da
  SMOVT e do CMTT" (art. 26, parágrafo único: line versions); the fare, "ouvido previamente o
  CMTT" (art. 34: the fare and its readjustments in billing); the extinction for breach of
  contract, which the CMTT recommends to the Mayor (art. 46, § 3º, a: delegation). Arts. 9º, III,
  23 and 32 give the CMTT and the quality commission general duties (quality control, periodic
  inspection, advice), not a decision that waits for them.
- Maricá (Lei 2.627/2015) and Pernambuco (Lei 16.205/2017 as amended): no council; lines, fares
  and permits are the Executive's or the agency's acts alone (Maricá arts. 16, 17, 31).

What is not a gate, and why:

- The judgements of penalties are the bodies' own decisions, not decisions waiting for a
  council's resolution: Recife's CDTC judges the defences (art. 39, § 1º), Esteio's CIP the
  appeals against infraction notices (Anexo II, art. 20), Cabo's Conselho applies the penalties
  (art. 29). The enforcement due process takes them as the judging bodies of the pack's
  `process.bodies` and `process.instances`, in session, with members, quorum, votes and signed
  minutes: the decision there is the body's act, and asking for a resolution besides would
  record the same act twice.
- The regulations: Recife's Executive regulates the law "ouvido o CMTT/Recife" (art. 49) and
  Cabo's Conselho expedites the infraction regulation (art. 26). No service of this product
  issues a regulation: the agency records the values a regulation fixed (agency values, citing
  the act), and those values cite the regulation, not a decision taken here.
- Cabo's art. 8º ("participará da gestão") names no decision; art. 27 gives the de-accreditation
  to the Prefeitura, not to the Conselho.

`require` is the one check every service calls.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet

from lotacao.core.formats import br_date, lower_first

from .catalogue import LAWS, spec

if TYPE_CHECKING:
    from .models import Resolution

APPROVAL = "aprovacao"  # the council approves: only a favourable act opens the gate
HEARING = "oitiva"  # the council is heard: any opinion it gave opens it
RECOMMENDATION = "recomendacao"  # the council recommends: only a favourable one opens it

KIND_PHRASES = {
    APPROVAL: "da aprovação",
    HEARING: "da oitiva",
    RECOMMENDATION: "da recomendação",
}


@dataclass(frozen=True)
class Gate:
    key: str
    council: str  # the council's key in councils.catalogue
    kind: str
    label: str  # the decision, in Portuguese, as the subject of a sentence
    citation: str  # "art. 3º, § 1º"
    quote: str
    condition: str = ""  # when the article limits the gate to some cases

    def needs_favourable(self) -> bool:
        return self.kind in (APPROVAL, RECOMMENDATION)


def _table(*gates: Gate) -> dict[str, Gate]:
    return {g.key: g for g in gates}


_RECIFE_ART_3 = (
    "Após implantado o STCP/Recife, a criação de novas linhas, qualquer extinção de linhas e a "
    "modificação do tipo e da quantidade de veículos, serão submetidos à Aprovação do Conselho "
    "Municipal de Trânsito e Transporte - CMTT/Recife, adotando-se igual procedimento para a "
    "definição do modelo de remuneração e da política tarifária iniciais e suas posteriores alterações."
)

GATES: dict[str, dict[str, Gate]] = {
    "recife": _table(
        Gate("line.create", "cmtt", APPROVAL, "A criação de linha", "art. 3º, § 1º", _RECIFE_ART_3),
        Gate("line.end", "cmtt", APPROVAL, "A extinção de linha", "art. 3º, § 1º", _RECIFE_ART_3),
        Gate(
            "fleet.change",
            "cmtt",
            APPROVAL,
            "A modificação do tipo ou da quantidade de veículos",
            "art. 3º, § 1º",
            _RECIFE_ART_3,
        ),
        Gate(
            "fare.change",
            "cmtt",
            APPROVAL,
            "A definição ou alteração do modelo de remuneração e da política tarifária",
            "art. 3º, § 1º",
            _RECIFE_ART_3,
        ),
        Gate(
            "permit.renew",
            "cmtt",
            APPROVAL,
            "A prorrogação da permissão",
            "art. 2º",
            "pelo período de 06 (seis) anos, prorrogável por uma única vez e por igual prazo, "
            "mediante aprovação do CMTT/Recife",
        ),
    ),
    "esteio": _table(
        Gate(
            "line.change",
            "cmtt",
            APPROVAL,
            "A modificação de linha pedida por operador ou usuário",
            "art. 26, parágrafo único",
            "As subseqüentes modificações poderão ser feitas pelo Poder Executivo Municipal; e "
            "mediante requerimento, tanto dos permissionários e concessionários quanto de usuários, "
            "a critério exclusivo da Secretaria Municipal de Obras Viação e Trânsito e do Conselho "
            "Municipal de Trânsito e Transporte",
            condition="quando a modificação é pedida por permissionário, concessionário ou usuário",
        ),
        Gate(
            "fare.change",
            "cmtt",
            HEARING,
            "A fixação da tarifa",
            "art. 34",
            "A tarifa será fixada por ato do Poder Executivo Municipal, ouvido previamente o "
            "Conselho Municipal de Trânsito e Transporte.",
        ),
        Gate(
            "permit.extinction",
            "cmtt",
            RECOMMENDATION,
            "A extinção da permissão por descumprimento contratual",
            "art. 46, § 3º, a",
            "remessa ao Conselho Municipal de Trânsito e Transporte - CMTT que, no caso de "
            "comprovação do descumprimento, recomendará ao Prefeito Municipal que declare a "
            "extinção da concessão ou permissão através de decreto",
            condition="quando a extinção decorre de descumprimento contratual",
        ),
    ),
    "cabo": {},
    "marica": {},
    "pernambuco": {},
}


def gate(jurisdiction_code: str, key: str) -> Gate | None:
    return GATES.get(jurisdiction_code, {}).get(key)


_lookup = gate  # for the seams' functions, whose keyword `gate` hides the function


def cite(jurisdiction_code: str, g: Gate) -> str:
    return f"{LAWS.get(jurisdiction_code, 'lei')}, {g.citation}"


def council_name(jurisdiction_code: str, g: Gate) -> str:
    """The council with its article, "do CMTT/Recife", from the catalogue (no database)."""
    item = spec(jurisdiction_code, g.council)
    if item is None:  # pragma: no cover - the table and the catalogue are tested together
        return "do conselho"
    article = "da" if item.kind == "comissao" else "do"
    return f"{article} {item.acronym or item.name}"


def explain(jurisdiction_code: str, key: str) -> str:
    """A sentence saying what the gate asks ("" when the law has none)."""
    g = gate(jurisdiction_code, key)
    if g is None:
        return ""
    condition = f" ({g.condition})" if g.condition else ""
    return (
        f"{g.label}{condition} depende {KIND_PHRASES[g.kind]} {council_name(jurisdiction_code, g)} "
        f"({cite(jurisdiction_code, g)})."
    )


def problem(jurisdiction_code: str, key: str, on: dt.date, resolution: Resolution | None) -> str | None:
    """Why `resolution` does not open the gate on `on` (None: it does, or there is no gate)."""
    g = gate(jurisdiction_code, key)
    if g is None:
        return None
    needed = explain(jurisdiction_code, key)
    if resolution is None:
        return f"{needed} Informe a resolução ou o parecer que a registra."
    if resolution.jurisdiction_id != jurisdiction_code:
        return f"{needed} A resolução informada é de outra jurisdição."
    council = resolution.council
    if council.key != g.council:
        return f"{needed} A {resolution.citation} é de outro colegiado."
    if resolution.gate and resolution.gate != g.key:
        other = gate(jurisdiction_code, resolution.gate)
        about = lower_first(other.label) if other else "outra matéria"
        return f"{needed} A {resolution.citation} trata de {about}."
    if resolution.dated_on > on:
        return f"{needed} A {resolution.citation} é posterior à decisão ({br_date(on)})."
    if resolution.revoked_on is not None and resolution.revoked_on <= on:
        return f"{needed} A {resolution.citation} foi revogada em {br_date(resolution.revoked_on)}."
    if g.needs_favourable() and not resolution.favorable:
        return f"{needed} A {resolution.citation} não foi favorável."
    return None


def require(
    jurisdiction_code: str,
    gate_key: str,
    on: dt.date,
    resolution: Resolution | None,
    otherwise: str = "",
) -> str | None:
    """None when the law has no such gate; the resolution's citation when it holds; else raise.

    The ValidationError cites the article and ends with `otherwise` (what stays as it was).
    """
    g = gate(jurisdiction_code, gate_key)
    if g is None:
        return None
    message = problem(jurisdiction_code, gate_key, on, resolution)
    if message is not None:
        tail = f" {otherwise.strip()}" if otherwise.strip() else ""
        raise ValidationError(message + tail)
    assert resolution is not None
    return resolution.citation


def valid_resolutions(jurisdiction_code: str, gate_key: str, on: dt.date) -> QuerySet[Resolution]:
    """The resolutions that open the gate on `on` (for a form's select), newest first."""
    from .models import Resolution

    g = gate(jurisdiction_code, gate_key)
    if g is None:
        return Resolution.objects.none()
    qs = (
        Resolution.objects.filter(jurisdiction_id=jurisdiction_code, council__key=g.council, dated_on__lte=on)
        .filter(Q(gate=g.key) | Q(gate=""))
        .exclude(revoked_on__lte=on)
    )
    if g.needs_favourable():
        qs = qs.filter(favorable=True)
    return qs.select_related("council").order_by("-dated_on", "-number")


def require_by_id(
    *, code: str, gate: str, on: dt.date, resolution: int | str | None, otherwise: str = ""
) -> str | None:
    """`require` for a module that only knows the resolution's id (core.providers "council_gate")."""
    from .models import Resolution

    if _lookup(code, gate) is None:
        return None
    found = None
    if resolution not in (None, ""):
        try:
            pk = int(str(resolution))
        except ValueError:
            pk = 0
        found = Resolution.unscoped.select_related("council").filter(pk=pk).first()
        if found is None:
            raise ValidationError("A resolução informada não foi encontrada.")
    return require(code, gate, on, found, otherwise)


def resolution_choices(
    *, code: str, gate: str, on: dt.date | None = None
) -> tuple[str, list[tuple[str, str]]]:
    """What the law asks and the resolutions a form may offer (core.providers "council_gate_choices")."""
    from .models import Resolution

    g = _lookup(code, gate)
    if g is None:
        return "", []
    qs = Resolution.unscoped.filter(jurisdiction_id=code, council__key=g.council, revoked_on__isnull=True)
    qs = qs.filter(Q(gate=g.key) | Q(gate=""))
    if on is not None:
        qs = qs.filter(dated_on__lte=on)
    rows = qs.select_related("council").order_by("-dated_on", "-number")
    return explain(code, gate), [(str(r.pk), f"{r.citation} — {r.subject}") for r in rows]
