"""The life of a line: requests to change, create or end it (from users, holders or the agency),
the operators' hearing the law requires, the decision with its act, the end of a line on a date
(its places released, its permits moved or their places ended) and temporary changes (works,
events) with their altered itinerary or suspension.

What each law says is read from the pack (no jurisdiction names here):

- `lines.change_hearing` — whether the operators are heard before the decision, who, whether their
  agreement is needed and when the study is required (Esteio art. 8º, I and art. 26, parágrafo
  único: "apreciação prévia dos permissionários e concessionários"; Cabo art. 18: "em concordância
  com a(s) entidade(s) representativa(s) dos permissionários"; Recife art. 3º, § 1º and art. 4º,
  parágrafo único, and Maricá arts. 10, 11, 17 and 18 are silent on the hearing: the pack's
  interpretation, shown to staff, makes it optional).
- `lines.end_permits` — what becomes of the permits of an ended line (Cabo art. 18: moved to
  another line; Recife, Esteio, Maricá silent: the staff choose, and the reading is recorded).

A decision before the hearing's period ends, or without any operator's answer, is refused where
the hearing is required; in Cabo, an approval without the entities' agreement is refused.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from lotacao.audit.services import create_audited, update_audited
from lotacao.core import law
from lotacao.core.formats import br_date
from lotacao.councils import gates
from lotacao.lines import change_states, places
from lotacao.lines import law as lines_law
from lotacao.lines.geometry import valid_itinerary
from lotacao.lines.models import ChangeRequest, HearingAnswer, LineEnd, Place, TemporaryChange
from lotacao.registry.models import Line

K = ChangeRequest.Kind
S = ChangeRequest.Status
STUDY_TYPES = {"application/pdf", "image/png", "image/jpeg"}
MAX_STUDY_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class HearingRule:
    required: bool
    agreement: bool
    who: str
    study: str  # none | create | all
    citation: str
    interpretation: str  # the pack's plain reading where the law is silent ("" where it speaks)

    def text(self) -> str:
        if self.required and self.agreement:
            return f"A decisão exige a concordância das {self.who} ({self.citation})."
        if self.required:
            return f"A decisão exige a oitiva prévia dos {self.who} ({self.citation})."
        return self.interpretation or f"A lei não exige a oitiva dos operadores ({self.citation})."


def _summary(code: str, name: str) -> str:
    found = law.pack_for(code).parameters.get(name)
    reading = getattr(found, "interpretation", None)
    return str(getattr(reading, "summary", "") or "")


def hearing_rule(code: str, on: dt.date) -> HearingRule:
    lines_law.require_lines(code, on)
    found = lines_law.entry(code, "lines.change_hearing", on)
    if found is None or found.status != "value":
        return HearingRule(False, False, "operadores", "none", "", "")
    v = dict(found.value)
    return HearingRule(
        bool(v.get("required")),
        bool(v.get("agreement")),
        str(v.get("who", "operadores")),
        str(v.get("study", "none")),
        str(found.citation),
        _summary(code, "lines.change_hearing"),
    )


def end_rule(code: str, on: dt.date) -> tuple[str, str, str]:
    """(move | choice, citation, the reading shown to staff where the law is silent)."""
    found = lines_law.entry(code, "lines.end_permits", on)
    if found is None or found.status != "value":
        return "choice", "", "A lei não diz o que acontece às permissões da linha extinta: o órgão escolhe."
    return str(found.value), str(found.citation), _summary(code, "lines.end_permits")


def _today(on: dt.date | None) -> dt.date:
    return on or timezone.localdate()


def _text(value: str, what: str) -> str:
    if not (value or "").strip():
        raise ValidationError(f"Informe {what}.")
    return value.strip()


def _check_file(file: Any) -> str:
    from lotacao.documents.services import detect_content_type

    if getattr(file, "size", 0) > MAX_STUDY_BYTES:
        raise ValidationError("O arquivo do estudo passa de 20 MB.")
    content_type = detect_content_type(file)
    if content_type not in STUDY_TYPES:
        raise ValidationError("O arquivo do estudo deve ser PDF, PNG ou JPEG.")
    return str(content_type)


@transaction.atomic
def file_request(
    *,
    actor: Any,
    jurisdiction_code: str,
    kind: str,
    origin: str,
    proposal: str,
    reasons: str,
    line: Line | None = None,
    holder: Any = None,
    requester_name: str = "",
    requester_contact: str = "",
    study: str = "",
    study_file: Any = None,
    on: dt.date | None = None,
) -> ChangeRequest:
    """A request filed by a user (public), a holder or the agency; it starts `filed`."""
    from lotacao.core.models import Jurisdiction

    day = _today(on)
    code = jurisdiction_code
    if not Jurisdiction.unscoped.filter(code=code).exists():
        raise ValidationError(f"Jurisdição desconhecida: {code}.")
    lines_law.require_lines(code, day)
    if kind not in K.values:
        raise ValidationError(f"Pedido desconhecido: {kind}.")
    if origin not in ChangeRequest.Origin.values:
        raise ValidationError(f"Origem desconhecida: {origin}.")
    if kind != K.CREATE and line is None:
        raise ValidationError("Indique a linha a que o pedido se refere.")
    if line is not None and line.jurisdiction_id != code:
        raise ValidationError("A linha é de outra jurisdição.")
    if line is not None and not line.active:
        raise ValidationError(f"A linha {line.code} está extinta.")
    if origin == ChangeRequest.Origin.HOLDER and holder is None:
        raise ValidationError("Indique o permissionário que faz o pedido.")
    if holder is not None and holder.jurisdiction_id != code:
        raise ValidationError("O permissionário é de outra jurisdição.")
    if origin == ChangeRequest.Origin.PUBLIC:
        _text(requester_name, "seu nome")
        _text(requester_contact, "um contato (e-mail ou telefone) para receber a resposta")
    proposal = _text(proposal, "o que se pede")
    reasons = _text(reasons, "os motivos do pedido")
    content_type = _check_file(study_file) if study_file else ""
    Jurisdiction.unscoped.select_for_update().filter(code=code).first()  # numbers one at a time
    number = (ChangeRequest.unscoped.filter(jurisdiction_id=code).aggregate(n=Max("number"))["n"] or 0) + 1
    request = ChangeRequest(
        jurisdiction_id=code,
        number=number,
        line=line,
        kind=kind,
        origin=origin,
        holder=holder,
        requester_name=requester_name.strip()[:200],
        requester_contact=requester_contact.strip()[:200],
        proposal=proposal,
        reasons=reasons,
        study=study.strip(),
        study_content_type=content_type,
        filed_on=day,
    )
    if study_file:
        request.study_file.save("estudo", study_file, save=False)
    return create_audited(
        actor=actor,
        instance=request,
        reason=f"Pedido protocolado: {reasons}"[:500],
        action="line_request.filed",
    )


@transaction.atomic
def attach_study(
    *, actor: Any, request: ChangeRequest, study: str, reason: str, file: Any = None
) -> ChangeRequest:
    request = ChangeRequest.unscoped.select_for_update().get(pk=request.pk)
    if request.status in change_states.FINAL:
        raise ValidationError("O pedido já foi decidido.")
    _text(reason, "o motivo (fica no histórico)")
    if not (study or "").strip() and not file:
        raise ValidationError("Informe o estudo de viabilidade (texto ou arquivo).")
    changes: dict[str, Any] = {"study": (study or "").strip() or request.study}
    if file:
        changes["study_content_type"] = _check_file(file)
        request.study_file.save("estudo", file, save=False)
    return update_audited(
        actor=actor, instance=request, changes=changes, reason=reason, action="line_request.study_attached"
    )


@transaction.atomic
def open_hearing(
    *, actor: Any, request: ChangeRequest, until: dt.date, reason: str, on: dt.date | None = None
) -> ChangeRequest:
    """The operators are heard until `until` (the law sets no period: the agency marks it here)."""
    day = _today(on)
    request = ChangeRequest.unscoped.select_for_update().get(pk=request.pk)
    change_states.require(request, "open_hearing")
    _text(reason, "o motivo (fica no histórico)")
    if until <= day:
        raise ValidationError("O prazo da oitiva deve terminar depois de hoje.")
    return update_audited(
        actor=actor,
        instance=request,
        changes={"status": S.HEARING, "hearing_opened_on": day, "hearing_until": until},
        reason=reason,
        action="line_request.hearing_opened",
    )


@transaction.atomic
def record_answer(
    *,
    actor: Any,
    request: ChangeRequest,
    party: str,
    agrees: bool,
    text: str,
    on: dt.date | None = None,
    holder: Any = None,
    entity: Any = None,
) -> HearingAnswer:
    """An operator's answer in the hearing, within its period."""
    day = _today(on)
    request = ChangeRequest.unscoped.select_for_update().get(pk=request.pk)
    if request.status != S.HEARING:
        raise ValidationError("O pedido não está em oitiva dos operadores.")
    if request.hearing_until is not None and day > request.hearing_until:
        raise ValidationError(f"O prazo da oitiva terminou em {br_date(request.hearing_until)}.")
    for who in (holder, entity):
        if who is not None and who.jurisdiction_id != request.jurisdiction_id:
            raise ValidationError("Quem se manifesta é de outra jurisdição.")
    if not (party or "").strip():
        party = str(entity or holder or "")
    return create_audited(
        actor=actor,
        instance=HearingAnswer(
            jurisdiction_id=request.jurisdiction_id,
            request=request,
            holder=holder,
            entity=entity,
            party=_text(party, "quem se manifesta")[:200],
            agrees=bool(agrees),
            text=_text(text, "a manifestação"),
            answered_on=day,
        ),
        reason=f"Manifestação na oitiva do pedido nº {request.number}",
        action="line_request.answer_recorded",
    )


def _hearing_refusal(request: ChangeRequest, rule: HearingRule, day: dt.date, approving: bool) -> str | None:
    """Why the law does not let the request be decided yet (None when it does)."""
    if request.hearing_until is not None and day <= request.hearing_until:
        return (
            f"a oitiva dos operadores vai até {br_date(request.hearing_until)}: a decisão só pode vir "
            "depois do prazo marcado ao abrir a oitiva"
        )
    if not rule.required:
        return None
    if request.hearing_opened_on is None:
        return f"a lei exige ouvir antes os {rule.who} ({rule.citation}); abra a oitiva"
    answers = HearingAnswer.unscoped.filter(request=request)
    if not answers.exists():
        return f"nenhum dos {rule.who} se manifestou na oitiva ({rule.citation})"
    if approving and rule.agreement:
        entities = answers.filter(entity__isnull=False)
        if not entities.exists():
            return f"falta a manifestação das {rule.who}, cuja concordância a lei exige ({rule.citation})"
        if entities.filter(agrees=False).exists():
            return f"as {rule.who} não concordaram com a mudança ({rule.citation})"
    return None


@transaction.atomic
def to_study(*, actor: Any, request: ChangeRequest, reason: str, on: dt.date | None = None) -> ChangeRequest:
    day = _today(on)
    request = ChangeRequest.unscoped.select_for_update().get(pk=request.pk)
    change_states.require(request, "to_study")
    _text(reason, "o motivo (fica no histórico)")
    rule = hearing_rule(request.jurisdiction_id, day)
    why = _hearing_refusal(request, rule, day, approving=False)
    if why:
        raise ValidationError(f"Não é possível passar o pedido ao estudo: {why}.")
    return update_audited(
        actor=actor,
        instance=request,
        changes={"status": S.STUDY},
        reason=reason,
        action="line_request.to_study",
    )


def study_required(request: ChangeRequest, rule: HearingRule) -> bool:
    return rule.study == "all" or (rule.study == "create" and request.kind == K.CREATE)


def council_gates(request: ChangeRequest) -> list[str]:
    """The councils' gates an approval of `request` passes (lotacao.councils.gates): the change
    asked by an operator or a user (Esteio art. 26, parágrafo único: "a critério exclusivo da SMOVT
    e do CMTT"), and the creation, the fleet change and the end of a line (Recife art. 3º, § 1º)."""
    keys = [] if request.origin == ChangeRequest.Origin.AGENCY else ["line.change"]
    by_kind: dict[str, list[str]] = {
        K.CREATE: ["line.create"],
        K.FLEET: ["fleet.change"],
        K.END: ["line.end"],
    }
    keys += by_kind.get(str(request.kind), [])
    return [k for k in keys if gates.gate(request.jurisdiction_id, k) is not None]


@transaction.atomic
def decide(
    *,
    actor: Any,
    request: ChangeRequest,
    approve: bool,
    reasons: str,
    act: str,
    act_date: dt.date,
    effective_on: dt.date | None = None,
    on: dt.date | None = None,
    resolution: Any = None,
) -> ChangeRequest:
    """Approve or refuse the request, with the act; checked against the hearing the law requires.
    An approved change of itinerary or stops drafts the line's next version, linked to the request
    (`services.draft_from_request`), which the clerk completes and approves."""
    day = _today(on)
    request = ChangeRequest.unscoped.select_for_update().get(pk=request.pk)
    change_states.require(request, "approve" if approve else "refuse")
    code = request.jurisdiction_id
    reasons = _text(reasons, "os fundamentos da decisão")
    act = _text(act, "o ato da decisão (número)")
    if act_date > day:
        raise ValidationError("A data do ato não pode ser futura.")
    rule = hearing_rule(code, day)
    why = _hearing_refusal(request, rule, day, approving=approve)
    if why:
        raise ValidationError(f"Não é possível decidir o pedido: {why}.")
    changes: dict[str, Any] = {
        "status": S.APPROVED if approve else S.REFUSED,
        "decided_on": day,
        "decision_reasons": reasons,
        "act": act[:300],
        "act_date": act_date,
    }
    if approve:
        if study_required(request, rule) and not (request.study or request.study_file):
            raise ValidationError(
                f"Não é possível aprovar o pedido: a lei exige o estudo de viabilidade ou projeto técnico, "
                f"que não foi anexado ({rule.citation})."
            )
        if effective_on is None or effective_on < act_date:
            raise ValidationError("Informe a data em que a mudança entra em vigor (não antes do ato).")
        for key in council_gates(request):
            gates.require(code, key, act_date, resolution, otherwise="sem ela o pedido não é aprovado")
        changes["effective_on"] = effective_on
        changes["resolution"] = resolution
    request = update_audited(
        actor=actor,
        instance=request,
        changes=changes,
        reason=reasons,
        action="line_request.approved" if approve else "line_request.refused",
    )
    if approve:  # a change of itinerary or stops continues as a draft version of the line
        from lotacao.lines.services import draft_from_request

        draft_from_request(actor=actor, request=request, on=day)
    return request


def drafted_version(request: ChangeRequest) -> Any:
    """The draft version an approved request led to, while it waits for approval (else None)."""
    from lotacao.lines.models import LineVersion

    return (
        LineVersion.unscoped.filter(change_request=request, status=LineVersion.Status.DRAFT)
        .order_by("-number")
        .first()
    )


@transaction.atomic
def end_line(
    *,
    actor: Any,
    line: Line,
    effective_on: dt.date,
    act: str,
    act_date: dt.date,
    reasons: str,
    fate: str = "",
    target: Line | None = None,
    request: ChangeRequest | None = None,
    on: dt.date | None = None,
    resolution: Any = None,
) -> LineEnd:
    """Decide the end of `line` from `effective_on`; `deactivate_due` applies it on that day."""
    day = _today(on)
    code = line.jurisdiction_id
    lines_law.require_lines(code, day)
    reasons = _text(reasons, "os motivos da extinção")
    act = _text(act, "o ato de extinção (número)")
    if LineEnd.unscoped.filter(line=line).exists():
        raise ValidationError(f"A extinção da linha {line.code} já foi decidida.")
    if not line.active:
        raise ValidationError(f"A linha {line.code} já está extinta.")
    if act_date > day:
        raise ValidationError("A data do ato não pode ser futura.")
    if effective_on < act_date:
        raise ValidationError("A extinção não pode valer antes da data do ato.")
    rule = hearing_rule(code, day)
    if request is not None:
        if request.kind != K.END or request.line_id != line.pk or request.status != S.APPROVED:
            raise ValidationError("O pedido indicado não é um pedido de extinção desta linha já aprovado.")
    elif rule.required:
        raise ValidationError(
            f"A extinção da linha exige antes a oitiva dos {rule.who} ({rule.citation}): registre o "
            "pedido de extinção, abra a oitiva e decida-o."
        )
    law_fate, citation, reading = end_rule(code, day)
    if law_fate == "move":
        if fate and fate != LineEnd.Fate.MOVE:
            raise ValidationError(
                f"A lei manda remanejar os permissionários da linha extinta para outra linha ({citation})."
            )
        fate = LineEnd.Fate.MOVE
        reading = f"A lei manda remanejar os permissionários para outra linha ({citation})."
    elif fate not in LineEnd.Fate.values:
        raise ValidationError(
            f"Escolha o que acontece às permissões da linha: passar para outra linha ou encerrar as vagas. "
            f"{reading}"
        )
    if fate == LineEnd.Fate.MOVE:
        if target is None:
            raise ValidationError("Indique a linha que recebe as permissões.")
        if target.pk == line.pk or target.jurisdiction_id != code or not target.active:
            raise ValidationError(
                "A linha que recebe as permissões deve ser outra linha ativa da mesma jurisdição."
            )
    else:
        target = None
    if resolution is None and request is not None:
        resolution = request.resolution  # the council's act that approved the request to end it
    gates.require(code, "line.end", act_date, resolution, otherwise="sem ela a linha continua em operação")
    return create_audited(
        actor=actor,
        instance=LineEnd(
            jurisdiction_id=code,
            line=line,
            request=request,
            effective_on=effective_on,
            fate=fate,
            fate_reading=reading,
            target=target,
            act=act[:300],
            act_date=act_date,
            resolution=resolution,
            reasons=reasons,
        ),
        reason=reasons,
        action="line_end.decided",
    )


def _apply(ending: LineEnd) -> None:
    line = ending.line
    last_day = ending.effective_on - dt.timedelta(days=1)
    why = f"Extinção da linha {line.code} ({ending.act})"
    report: dict[str, Any] = {"moved": [], "ended": [], "failed": []}
    rows = Place.unscoped.filter(line=line).filter(
        Q(ends_on__isnull=True) | Q(ends_on__gte=ending.effective_on)
    )
    for place in rows.select_related("permit"):
        label = str(place.permit)
        if ending.fate == LineEnd.Fate.MOVE and ending.target is not None:
            try:
                with transaction.atomic():
                    places.move_place(
                        actor=None,
                        place=place,
                        line=ending.target,
                        on=ending.effective_on,
                        act=ending.act,
                        reason=why,
                    )
                report["moved"].append(label)
                continue
            except ValidationError as error:
                report["failed"].append({"permit": label, "why": " ".join(error.messages)})
        place.refresh_from_db()
        if place.ends_on is None or place.ends_on >= ending.effective_on:
            if place.ends_on is not None:
                update_audited(
                    actor=None,
                    instance=place,
                    changes={"ends_on": max(last_day, place.starts_on)},
                    reason=why,
                    action="place.ended",
                )
            else:
                places.end_place(actor=None, place=place, on=max(last_day, place.starts_on), reason=why)
            report["ended"].append(label)
    update_audited(
        actor=None, instance=line, changes={"active": False}, reason=why, action="line_end.applied"
    )
    update_audited(
        actor=None,
        instance=ending,
        changes={"done_on": ending.effective_on, "report": report},
        reason=why,
        action="line_end.applied",
    )


def deactivate_due(on: dt.date | None = None) -> int:
    """The nightly job: end the lines whose end date has come; the number of lines ended."""
    day = _today(on)
    count = 0
    for ending in LineEnd.unscoped.filter(done_on__isnull=True, effective_on__lte=day).select_related(
        "line", "target"
    ):
        with transaction.atomic():
            _apply(ending)
        count += 1
    return count


# --- temporary changes --------------------------------------------------------------------------


@transaction.atomic
def add_temporary_change(
    *,
    actor: Any,
    line: Line,
    cause: str,
    description: str,
    starts_on: dt.date,
    ends_on: dt.date,
    act: str,
    reason: str,
    suspended: bool = False,
    itinerary: Any = None,
    stops: list[dict[str, Any]] | None = None,
) -> TemporaryChange:
    from lotacao.lines.services import _clean_stops

    code = line.jurisdiction_id
    lines_law.require_lines(code, starts_on)
    _text(reason, "o motivo (fica no histórico)")
    if cause not in TemporaryChange.Cause.values:
        raise ValidationError(f"Motivo desconhecido: {cause}.")
    description = _text(description, "a descrição da alteração")
    act = _text(act, "o ato que autoriza a alteração temporária")
    if ends_on < starts_on:
        raise ValidationError("O fim da alteração temporária não pode ser antes do início.")
    coords: list[Any] = []
    clean: list[dict[str, Any]] = []
    if not suspended:
        try:
            coords = valid_itinerary(itinerary)
        except ValueError as error:
            raise ValidationError(f"Itinerário alterado: {error}") from error
        clean = _clean_stops(list(stops or []))
        if len(clean) < 2:
            raise ValidationError("Marque ao menos dois pontos no itinerário alterado (os terminais).")
    clash = TemporaryChange.unscoped.filter(
        line=line, cancelled=False, starts_on__lte=ends_on, ends_on__gte=starts_on
    ).first()
    if clash is not None:
        raise ValidationError(
            f"A linha já tem uma alteração temporária de {br_date(clash.starts_on)} "
            f"a {br_date(clash.ends_on)}."
        )
    return create_audited(
        actor=actor,
        instance=TemporaryChange(
            jurisdiction_id=code,
            line=line,
            cause=cause,
            description=description[:300],
            starts_on=starts_on,
            ends_on=ends_on,
            suspended=bool(suspended),
            itinerary=coords,
            stops=clean,
            act=act[:300],
        ),
        reason=reason,
        action="temporary_change.created",
    )


@transaction.atomic
def cancel_temporary_change(*, actor: Any, change: TemporaryChange, reason: str) -> TemporaryChange:
    _text(reason, "o motivo (fica no histórico)")
    if change.cancelled:
        raise ValidationError("Esta alteração temporária já foi cancelada.")
    return update_audited(
        actor=actor,
        instance=change,
        changes={"cancelled": True},
        reason=reason,
        action="temporary_change.cancelled",
    )


def temporary_changes(line: Line, since: dt.date) -> list[TemporaryChange]:
    """The line's temporary changes not over by `since` (for the line page and the feed)."""
    return list(
        TemporaryChange.unscoped.filter(line=line, cancelled=False, ends_on__gte=since).order_by("starts_on")
    )
