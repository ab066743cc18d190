"""Eligibility of an applicant (or of a transfer's receiver): every reason, its citation, the way out.

`check_eligibility` never raises for a legal refusal: it returns every reason at once, so the
clerk sees all that blocks the application and what would unblock each item.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db.models import Q

from lotacao.billing.selectors import clearance
from lotacao.core import open_values
from lotacao.core.formats import br_date, lower_first
from lotacao.core.law import evaluate_case, pack_for
from lotacao.documents import selectors as document_selectors
from lotacao.law.citations import cited
from lotacao.law.words import plural
from lotacao.permits import rules
from lotacao.permits.models import Ban, Permit


@dataclass
class Reason:
    code: str
    message: str
    citation: str = ""
    unblock: str = ""
    document: str = ""  # the document's code, where a document blocks (its "Receber documento" link)
    parameters: list[str] = field(default_factory=list)  # the law's open values that block


@dataclass
class Eligibility:
    eligible: bool
    reasons: list[Reason] = field(default_factory=list)  # what blocks
    notes: list[Reason] = field(default_factory=list)  # duties and information, not blocking
    citations: list[str] = field(default_factory=list)
    missing_parameters: list[str] = field(default_factory=list)
    checked_on: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def block(self, *reasons: Reason) -> None:
        """Add what blocks the application, each citation once."""
        for reason in reasons:
            self.reasons.append(reason)
            if reason.citation and reason.citation not in self.citations:
                self.citations.append(reason.citation)

    def summary(self) -> str:
        return " ".join(cited(r.message, r.citation) for r in self.reasons)


def _documents_module() -> Any:
    """The document selectors (a function, so that tests may replace `document_check`)."""
    return document_selectors


def active_bans(*, person: Any = None, company: Any = None, on: dt.date) -> list[Ban]:
    if person is None and company is None:
        return []
    party = Q(person=person) if person is not None else Q(company=company)
    bans = Ban.unscoped.filter(party, starts_on__lte=on, ends_on__gte=on)
    bans = bans.filter(Q(lifted_on__isnull=True) | Q(lifted_on__gt=on))
    return list(bans.order_by("-ends_on"))


def ban_reason(ban: Ban, party_label: str) -> Reason:
    return Reason(
        code="banned",
        message=(
            f"{party_label} em período de impedimento até {br_date(ban.ends_on)} — "
            f"{lower_first(ban.get_cause_display())} em {br_date(ban.starts_on)}"
        ),
        citation=ban.citation,
        unblock=(
            "Aguardar o fim do impedimento: novo requerimento a partir de "
            f"{br_date(ban.ends_on + dt.timedelta(days=1))}."
        ),
    )


def party_label(holder: Any) -> str:
    return "CPF" if holder.person_id else "CNPJ"


def check_eligibility(
    *,
    holder: Any,
    on: dt.date,
    application: Permit | None = None,
    procedure: str = "grant",
    ending: tuple[int, ...] = (),
) -> Eligibility:
    """Every requirement the law sets for `holder` to be granted a permit on `on`, in the order the
    clerk reads them: documents, bans, other permits, residence, age, fines and fees. `ending`:
    ids of permits that end before the grant (a tender's award ends the provisional permits of
    its line, Maricá art. 76, § 1º), which do not count as other permits."""
    result = Eligibility(eligible=True, checked_on=on.isoformat())
    result.block(*_documents_complete(holder, on, result))
    result.block(*_not_banned(holder, on))
    others = [p for p in _other_live_permits(holder, on, application) if p.pk not in ending]
    result.block(*_no_other_service(holder.jurisdiction_id, on, others, application))
    result.block(*_permits_per_holder(holder.jurisdiction_id, on, others, result))
    result.block(*_resides_long_enough(holder, on, application))
    result.block(*_of_age(holder, on))
    result.block(*_cleared(holder, on, procedure))
    result.eligible = not result.reasons and not result.missing_parameters
    if result.missing_parameters and not result.reasons:
        words = [_described(holder.jurisdiction_id, p) for p in result.missing_parameters]
        result.reasons.append(
            Reason(
                code="undefined",
                message="Valores que a lei deixa em aberto: " + "; ".join(words) + ".",
                unblock=f"Quem informa: {open_values.WHO}, em Valores da lei.",
                parameters=list(result.missing_parameters),
            )
        )
    return result


def _documents_complete(holder: Any, on: dt.date, result: Eligibility) -> list[Reason]:
    """1. Documents complete, accepted and valid (the documents app's check)."""
    check = _documents_module().document_check(
        jurisdiction_code=holder.jurisdiction_id,
        role="holder",
        person=holder.person,
        company=holder.company,
        on=on,
    )
    result.missing_parameters += list(getattr(check, "missing_parameters", []) or [])
    if check.complete:
        return []
    labels = getattr(check, "labels", {}) or {}
    reasons = []
    for kind, what, items in (
        ("missing", "não apresentado", check.missing),
        ("expired", "vencido", check.expired),
        ("pending", "aguardando análise", check.pending),
    ):
        for item in items:
            reasons.append(
                Reason(
                    code=f"document_{kind}",
                    message=f"Documento {what}: {labels.get(item, item)}.",
                    citation="; ".join(check.citations[:1]),
                    unblock=(
                        "Analisar o documento enviado."
                        if what == "aguardando análise"
                        else "Anexar o documento válido na ficha da pessoa e aceitá-lo."
                    ),
                    document=item,
                )
            )
    if not reasons:
        explanation = list(getattr(check, "explanation", []) or [])
        reasons.append(
            Reason(
                code="documents_undefined",
                message=" ".join(explanation) or "A lista de documentos exigidos não está definida.",
                citation="; ".join(check.citations),
                unblock=f"Quem informa: {open_values.WHO}, em Valores da lei.",
                parameters=list(getattr(check, "missing_parameters", []) or []),
            )
        )
    return reasons


def _described(code: str, parameter: str) -> str:
    pack = pack_for(code)
    return pack.parameters[parameter].description if pack.has(parameter) else "valor da lei"


def _not_banned(holder: Any, on: dt.date) -> list[Reason]:
    """2. Not banned."""
    bans = active_bans(person=holder.person, company=holder.company, on=on)
    return [ban_reason(ban, party_label(holder)) for ban in bans]


def _other_live_permits(holder: Any, on: dt.date, application: Permit | None) -> list[Permit]:
    exclude_ids = [application.pk] if application is not None and application.pk else []
    return list(
        Permit.unscoped.filter(holder=holder, status__in=Permit.LIVE)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on))
        .exclude(pk__in=exclude_ids)
    )


def _no_other_service(
    code: str, on: dt.date, others: list[Permit], application: Permit | None
) -> list[Reason]:
    """3. No other permit (or other service declared) where the law makes the permit exclusive."""
    exclusive = rules.entry(code, "permit.exclusive", on)
    if exclusive is None or exclusive.status != "value" or not exclusive.value:
        return []
    switch = rules.entry(code, "permit.switch_by_revocation", on)
    if switch is not None and switch.value:
        way_out = f"Requerer a revogação do outro serviço para optar por este ({switch.citation})."
    else:
        way_out = "Somente após a extinção da outra permissão."
    reasons = [
        Reason(
            code="other_permit",
            message=f"Já é titular da {other} (situação: {lower_first(other.get_status_display())}).",
            citation=str(exclusive.citation),
            unblock=way_out,
        )
        for other in others
    ]
    declared = application.other_service.strip() if application is not None else ""
    if declared:
        reasons.append(
            Reason(
                code="other_service",
                message=f"Declarou deter outro serviço ou vínculo: {declared}.",
                citation=str(exclusive.citation),
                unblock=way_out,
            )
        )
    return reasons


def _permits_per_holder(code: str, on: dt.date, others: list[Permit], result: Eligibility) -> list[Reason]:
    """3. (cont.) No more permits than the law allows one holder."""
    quota_max = rules.entry(code, "quota.max_permits_per_holder", on)
    if quota_max is None or quota_max.status == "repealed":
        return []
    outcome = evaluate_case(
        {"jurisdiction": code, "kind": "quota", "date": on.isoformat(), "permits": len(others) + 1}
    )
    result.missing_parameters += [
        p for p in outcome.get("missing_parameters", []) if p == "quota.max_permits_per_holder"
    ]
    return [
        Reason(
            code="permits_per_holder",
            message=(
                f"Já é titular de {plural(len(others), 'permissão', 'permissões')}: {violation['message']}"
            ),
            citation=violation["citation"],
            unblock="Somente após a extinção de uma das permissões atuais.",
        )
        for violation in outcome.get("violations", [])
        if violation.get("rule") == "max_permits_per_holder"
    ]


def _resides_long_enough(holder: Any, on: dt.date, application: Permit | None) -> list[Reason]:
    """4. Residence in the municipality, where the law requires a minimum time."""
    residence = rules.entry(holder.jurisdiction_id, "permit.residence_min", on)
    if residence is None or residence.status != "value":
        return []
    person = holder.person
    since = getattr(person, "residence_since", None) if person is not None else None
    if since is None and application is not None:
        since = application.residence_since
    needed = rules.describe(residence.value)
    if since is None:
        return [
            Reason(
                code="residence_unknown",
                message=f"Residência no município não comprovada (exige-se {needed}).",
                citation=str(residence.citation),
                unblock="Informar a data desde quando reside no município, com o comprovante.",
            )
        ]
    complete_on = rules.add(since, residence.value)
    if complete_on <= on:
        return []
    return [
        Reason(
            code="residence_short",
            message=(
                f"Reside no município desde {br_date(since)}: a lei exige {needed} "
                f"(completa em {br_date(complete_on)})."
            ),
            citation=str(residence.citation),
            unblock=f"Novo requerimento a partir de {br_date(complete_on)}.",
        )
    ]


def _of_age(holder: Any, on: dt.date) -> list[Reason]:
    """5. Age (adults), for a person."""
    person = holder.person
    min_age = rules.entry(holder.jurisdiction_id, "permit.holder_min_age", on)
    if person is None or min_age is None or min_age.status != "value":
        return []
    if person.birth_date is None:
        return [
            Reason(
                code="birth_date_unknown",
                message="Data de nascimento não informada.",
                citation=str(min_age.citation),
                unblock="Completar a data de nascimento no cadastro da pessoa.",
            )
        ]
    if rules.age_on(person.birth_date, on) >= int(min_age.value):
        return []
    adult_on = rules.add(person.birth_date, {"years": int(min_age.value)})
    return [
        Reason(
            code="under_age",
            message=f"Menor de {min_age.value} anos.",
            citation=str(min_age.citation),
            unblock=f"Novo requerimento a partir de {br_date(adult_on)}.",
        )
    ]


def _cleared(holder: Any, on: dt.date, procedure: str) -> list[Reason]:
    """6. Fines and fees paid, where the law makes the procedure depend on it (quitação)."""
    clear = clearance(holder=holder, on=on, procedure=procedure)
    if clear.clear:
        return []
    return [
        Reason(
            code="clearance",
            message=" ".join(clear.reasons),
            citation="; ".join(clear.citations),
            unblock="Quitar os débitos vencidos (ou apresentar defesa, quando cabível).",
        )
    ]


def rank_applications(applications: list[Permit], on: dt.date) -> list[Permit]:
    """Order applications by the selection criteria the law sets (pack `permit.selection_criteria`).

    Criteria ids: existing_operator (already operates with a permit), association (organized in an
    association), service_time (longer first), infractions (fewer first); ties by filing date.
    Applications of different jurisdictions are ranked separately, by their own law.
    """

    def key(p: Permit) -> tuple[Any, ...]:
        criteria = rules.value(p.jurisdiction_id, "permit.selection_criteria", on) or []
        facts = {
            "existing_operator": p.existing_operator,
            "association": p.association_member,
            "service_time": p.service_months,
            "infractions": p.infraction_count,
        }
        return (p.jurisdiction_id, *selection_key(criteria, facts), p.applied_on, p.pk or 0)

    return sorted(applications, key=key)


def selection_key(criteria: list[str], facts: dict[str, Any]) -> tuple[Any, ...]:
    """The sort key of one applicant under the criteria, in their order (smaller ranks first):
    existing_operator and association (yes before no), service_time in months (longer first),
    infractions (fewer first). Shared by `rank_applications` and the tenders' ranking."""
    parts: list[Any] = []
    for criterion in criteria:
        if criterion == "existing_operator":
            parts.append(0 if facts.get("existing_operator") else 1)
        elif criterion == "association":
            parts.append(0 if facts.get("association") else 1)
        elif criterion == "service_time":
            parts.append(-int(facts.get("service_time") or 0))
        elif criterion == "infractions":
            parts.append(int(facts.get("infractions") or 0))
    return tuple(parts)


CRITERIA_LABELS = {
    "existing_operator": "quem já opera com alvará",
    "association": "organizados em associação",
    "service_time": "maior tempo de serviço",
    "infractions": "menos infrações",
}


def selection_basis(jurisdiction_code: str, on: dt.date) -> tuple[list[str], str]:
    criteria = rules.value(jurisdiction_code, "permit.selection_criteria", on) or []
    return [CRITERIA_LABELS[c] for c in criteria], rules.cite(
        jurisdiction_code, "permit.selection_criteria", on
    )
