"""What each law requires before a request can be filed, read from the packs and from the owning
apps' own checks (permits' eligibility and renewal rules, inspections' replacement rules,
billing's clearance, documents' lists) — so a form says it up front, and filing refuses with the
same words the clerk's screens use.

`check(kind, holder=…, on=…, **inputs)` returns every requirement with whether it is met; the
blocking ones (`Check.blocking`) stop the filing. Nothing here branches on a jurisdiction's name.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils import timezone

from lotacao.billing.selectors import clearance
from lotacao.core.formats import br_date
from lotacao.core.law import pack_for
from lotacao.core.validators import normalize_plate
from lotacao.documents.rules import document_types
from lotacao.inspections import rules as inspection_rules
from lotacao.permits import rules as permit_rules
from lotacao.permits import states as permit_states
from lotacao.permits.eligibility import check_eligibility
from lotacao.permits.models import Permit
from lotacao.permits.services import term as permit_term
from lotacao.registry.models import Holder, Vehicle

from .models import InspectionSlot, Request

K = Request.Kind


@dataclass
class Requirement:
    label: str
    met: bool
    detail: str = ""
    citation: str = ""


@dataclass
class Check:
    items: list[Requirement] = field(default_factory=list)
    notes: list[Requirement] = field(default_factory=list)  # what the decision will ask, not blocking

    def add(self, label: str, met: bool, detail: str = "", citation: str = "") -> None:
        self.items.append(Requirement(label, met, detail, citation))

    def note(self, label: str, detail: str = "", citation: str = "") -> None:
        self.notes.append(Requirement(label, True, detail, citation))

    @property
    def blocking(self) -> list[Requirement]:
        return [item for item in self.items if not item.met]

    @property
    def ok(self) -> bool:
        return not self.blocking

    def messages(self) -> list[str]:
        return [
            f"{item.label}: {item.detail}" + (f" ({item.citation})" if item.citation else "")
            for item in self.blocking
        ]

    def citations(self) -> list[str]:
        return list(dict.fromkeys(i.citation for i in self.items + self.notes if i.citation))

    def as_list(self) -> list[dict[str, Any]]:
        return [asdict(item) for item in self.items]


class _Draft:
    """What the engine needs of a substitute vehicle that does not exist yet."""

    def __init__(self, category: str, manufacture_year: int, seats: int, doors: int) -> None:
        self.category = category
        self.manufacture_year = int(manufacture_year)
        self.seats = int(seats)
        self.doors = int(doors)


def check(kind: str, *, holder: Holder, on: dt.date | None = None, **inputs: Any) -> Check:
    day = on or timezone.localdate()
    result = Check()
    CHECKS[kind](result, holder, day, inputs)
    return result


def _clearance(result: Check, holder: Holder, day: dt.date, procedure: str) -> None:
    """Debts that block the procedure where the law makes it depend on payment (quitação)."""
    clear = clearance(holder=holder, on=day, procedure=procedure)
    if clear.clear:
        return
    result.add(
        "Débitos pagos antes do pedido",
        False,
        " ".join(clear.reasons) + " Pague a guia em Minhas cobranças e volte a este formulário.",
        "; ".join(clear.citations),
    )


def _open_request(result: Check, holder: Holder, kind: str, exclude: Any = None, **match: Any) -> None:
    pending = (
        Request.unscoped.filter(holder=holder, kind=kind, status=Request.Status.FILED, **match)
        .exclude(pk=exclude)
        .first()
    )
    if pending is not None:
        result.add(
            "Nenhum pedido igual em análise",
            False,
            f"já existe o protocolo nº {pending.protocol}, de {br_date(pending.filed_on)}, em análise",
        )


def _fee(result: Check, holder: Holder, day: dt.date) -> None:
    """The fees: none of the procedures filed here has a fee in the law (the taxes the laws list are
    monthly management fees, re-registration, second copies and advertising)."""
    result.note("Taxa", f"a {pack_for(holder.jurisdiction_id).law} não fixa taxa para este pedido.")


# ---------------------------------------------------------------- application


def application_route(code: str, day: dt.date) -> tuple[str, str, str]:
    """How the law grants a new permit: (route, sentence, citation); route is "provisional"
    (a provisional permit may be asked), "inscription", "closed" or "tender"."""
    law = pack_for(code).law
    procedure = permit_rules.entry(code, "permit.grant_procedure", day)
    if procedure is None or procedure.status != "value":
        return "closed", f"A {law} não regula a outorga de permissões por requerimento.", ""
    cite = str(procedure.citation)
    if procedure.value == "inscription":
        window = permit_rules.entry(code, "permit.application_window", day)
        if window is not None and window.status == "value":
            start = pack_for(code).start
            last = permit_rules.add(start, window.value)
            if day > last:
                return (
                    "closed",
                    f"as inscrições da lei eram feitas em até {permit_rules.describe(window.value)} da "
                    f"publicação da lei ({br_date(start)}), isto é, até {br_date(last)}; a lei não abre "
                    "novo prazo de inscrição, e o pedido não pode ser recebido",
                    str(window.citation),
                )
        return "inscription", "a lei admite a inscrição por requerimento", cite
    provisional = permit_rules.entry(code, "permit.provisional_max_term", day)
    if provisional is not None and provisional.status == "value":
        return (
            "provisional",
            f"a permissão regular é obtida só em licitação ({cite}); a lei admite pedir permissão "
            f"provisória, de até {permit_rules.describe(provisional.value)}, para operadores cadastrados",
            str(provisional.citation),
        )
    return (
        "tender",
        f"a {law} só outorga a permissão por licitação: não há requerimento avulso de nova "
        "permissão; acompanhe os editais do órgão gestor",
        cite,
    )


def _application(result: Check, holder: Holder, day: dt.date, inputs: dict[str, Any]) -> None:
    route, sentence, cite = application_route(holder.jurisdiction_id, day)
    result.add(
        "A lei admite o pedido fora de licitação", route in ("provisional", "inscription"), sentence, cite
    )
    if route not in ("provisional", "inscription"):
        return
    eligibility = check_eligibility(holder=holder, on=day)
    for reason in eligibility.reasons:
        detail = reason.message + (f" {reason.unblock}" if reason.unblock else "")
        result.add("Requisito do requerente", False, detail, reason.citation)
    if eligibility.eligible:
        result.add("Requisitos do requerente (documentos, impedimentos, cotas, idade, débitos)", True)
    _open_request(result, holder, K.APPLICATION, inputs.get("request_pk"))
    _fee(result, holder, day)
    result.note("Decisão", "o órgão gestor analisa o pedido e, se deferido, o registra para a outorga.")


# ---------------------------------------------------------------- renewal


def _renewal(result: Check, holder: Holder, day: dt.date, inputs: dict[str, Any]) -> None:
    permit: Permit | None = inputs.get("permit")
    if permit is None or permit.holder_id != holder.pk:
        result.add("Permissão", False, "escolha uma das suas permissões")
        return
    why = permit_states.refusal(permit, "renew", day)
    result.add("Permissão vigente", why is None, why or f"válida até {br_date(permit.valid_until)}")
    if why is not None:
        return
    if permit.kind == Permit.Kind.PROVISIONAL:
        result.add("Permissão regular", False, "a permissão provisória não se renova por requerimento")
        return
    for label, test in (
        ("A lei prevê a renovação", lambda: permit_term._renewable(permit.jurisdiction_id, day)),
        ("Limite de renovações", lambda: permit_term._within_renewal_limit(permit, day)),
        ("Pedido feito no prazo", lambda: permit_term._requested_in_time(permit, day, day)),
    ):
        try:
            test()
        except Exception as error:  # a ValidationError carrying the law's words and article
            result.add(label, False, " ".join(getattr(error, "messages", [str(error)])))
        else:
            result.add(label, True)
    _clearance(result, holder, day, "renewal")
    _open_request(result, holder, K.RENEWAL, permit=permit)
    approval = permit_rules.entry(permit.jurisdiction_id, "permit.renewal_approval", day)
    if approval is not None and approval.status == "value":
        result.note(
            "Aprovação",
            f"a renovação depende de aprovação do {approval.value}, com base na avaliação de desempenho, "
            "ouvidos os usuários: o órgão registra o ato na decisão.",
            str(approval.citation),
        )
    _fee(result, holder, day)


# ---------------------------------------------------------------- document


def document_choices(holder: Holder, day: dt.date) -> list[tuple[str, str]]:
    """The documents the law lists for the holder (as a person) and for their vehicles."""
    choices = [
        (f"pessoa:{code}", item.label) for code, item in document_types(holder.jurisdiction_id, day).items()
    ]
    choices += [
        (f"veiculo:{code}", f"{item.label} (veículo)")
        for code, item in document_types(holder.jurisdiction_id, day, owner="vehicle").items()
    ]
    return choices


def _document(result: Check, holder: Holder, day: dt.date, inputs: dict[str, Any]) -> None:
    choices = document_choices(holder, day)
    result.add(
        "A lei lista os documentos exigidos",
        bool(choices),
        ""
        if choices
        else "a lista de documentos ainda não foi definida; o órgão gestor a informa em Valores da lei",
    )
    code = inputs.get("code") or ""
    if code and code not in dict(choices):
        result.add("Tipo de documento", False, "escolha um dos documentos que a lei exige")
    if code.startswith("veiculo:") and inputs.get("vehicle") is None:
        result.add("Veículo", False, "escolha o veículo a que o documento se refere")
    result.note(
        "Arquivo", "PDF, PNG ou JPEG, legível; o órgão confere o documento e o aceita ou recusa com o motivo."
    )
    _fee(result, holder, day)


# ---------------------------------------------------------------- substitution


def _own_vehicle(result: Check, holder: Holder, vehicle: Vehicle | None) -> bool:
    if vehicle is None or vehicle.holder_id != holder.pk:
        result.add("Veículo", False, "escolha um dos seus veículos")
        return False
    if vehicle.deregistered_on is not None:
        result.add(
            "Veículo em serviço",
            False,
            f"o veículo {vehicle.plate_display} foi baixado em {br_date(vehicle.deregistered_on)}",
        )
        return False
    return True


def _substitution(result: Check, holder: Holder, day: dt.date, inputs: dict[str, Any]) -> None:
    vehicle = inputs.get("vehicle")
    if not _own_vehicle(result, holder, vehicle):
        return
    code = holder.jurisdiction_id
    rule = inspection_rules.entry(code, "inspection.replaced_vehicle_decharacterization", day)
    if rule is not None and rule.status == "value" and rule.value:
        proof = str(inputs.get("decharacterization_proof") or "").strip()
        label = "Descaracterização do veículo substituído"
        detail = (
            "informe como foi comprovada a descaracterização do veículo substituído e a baixa da "
            "placa de aluguel"
        )
        if inputs.get("filing"):
            result.add(label, bool(proof), "" if proof else detail, str(rule.citation))
        else:
            result.note(label, detail, str(rule.citation))
    fields = ("category", "manufacture_year", "seats", "doors")
    if not all(inputs.get(f) not in (None, "") for f in fields):
        result.note(
            "Veículo novo",
            "a idade, os lugares e a categoria do veículo novo são conferidos pela lei ao protocolar.",
        )
        return
    draft = _Draft(*(inputs[f] for f in fields))
    answer = inspection_rules.assess(code, "replace", day, draft, replaced=vehicle)
    if answer.get("eligible") is False:
        for text in inspection_rules.violations_text(answer):
            result.add("Veículo novo admitido pela lei", False, text)
    else:
        result.add(
            "Veículo novo admitido pela lei (idade, lugares, categoria)",
            True,
            "",
            "; ".join(answer.get("citations", [])[:3]),
        )
    plate = str(inputs.get("plate") or "").strip()
    if plate:
        try:
            normalized = normalize_plate(plate)
        except Exception as error:
            result.add("Placa", False, " ".join(getattr(error, "messages", [str(error)])))
        else:
            taken = Vehicle.unscoped.filter(jurisdiction_id=code, plate=normalized).exists()
            result.add(
                "Placa não cadastrada", not taken, f"a placa {plate} já está cadastrada" if taken else ""
            )
    _open_request(result, holder, K.SUBSTITUTION, vehicle=vehicle)
    _fee(result, holder, day)


# ---------------------------------------------------------------- inspection booking


def slot_taken(slot: InspectionSlot) -> int:
    return Request.unscoped.filter(
        slot=slot, status__in=(Request.Status.FILED, Request.Status.APPROVED)
    ).count()


def open_slots(code: str, now: dt.datetime | None = None) -> list[InspectionSlot]:
    moment = now or timezone.now()
    slots = InspectionSlot.unscoped.filter(jurisdiction_id=code, closed=False, starts_at__gt=moment)
    return [s for s in slots.order_by("starts_at") if slot_taken(s) < s.capacity]


def _inspection(result: Check, holder: Holder, day: dt.date, inputs: dict[str, Any]) -> None:
    vehicle = inputs.get("vehicle")
    if (inputs.get("filing") or vehicle is not None) and not _own_vehicle(result, holder, vehicle):
        return
    slots = open_slots(holder.jurisdiction_id)
    result.add(
        "Horário aberto pelo órgão",
        bool(slots),
        "" if slots else "o órgão ainda não abriu horários de vistoria com vagas; volte mais tarde",
    )
    slot: InspectionSlot | None = inputs.get("slot")
    if slot is not None:
        free = (
            slot.jurisdiction_id == holder.jurisdiction_id
            and not slot.closed
            and slot.starts_at > timezone.now()
            and slot_taken(slot) < slot.capacity
        )
        result.add("Vaga no horário escolhido", free, "" if free else "o horário escolhido não tem mais vaga")
    elif inputs.get("filing"):
        result.add("Horário", False, "escolha um dos horários abertos")
    _clearance(result, holder, day, "inspection")
    if vehicle is not None:
        _open_request(result, holder, K.INSPECTION, vehicle=vehicle)
    _fee(result, holder, day)


CHECKS: dict[str, Any] = {
    K.APPLICATION: _application,
    K.RENEWAL: _renewal,
    K.DOCUMENT: _document,
    K.SUBSTITUTION: _substitution,
    K.INSPECTION: _inspection,
}
