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
from lotacao.core.formats import br_date
from lotacao.core.law import evaluate_case
from lotacao.documents import selectors as document_selectors
from lotacao.permits import rules
from lotacao.permits.models import Ban, Permit


@dataclass
class Reason:
    code: str
    message: str
    citation: str = ""
    unblock: str = ""


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

    def summary(self) -> str:
        return " ".join(f"{r.message}" + (f" ({r.citation})" if r.citation else "") for r in self.reasons)


def _documents_module() -> Any:
    """The document selectors (a function, so that tests may replace `document_check`)."""
    return document_selectors


def active_bans(*, person: Any = None, company: Any = None, on: dt.date) -> list[Ban]:
    if person is None and company is None:
        return []
    party = Q(person=person) if person is not None else Q(company=company)
    return list(Ban.unscoped.filter(party, starts_on__lte=on, ends_on__gte=on).order_by("-ends_on"))


def ban_reason(ban: Ban, party_label: str) -> Reason:
    return Reason(
        code="banned",
        message=(
            f"{party_label} em período de impedimento até {br_date(ban.ends_on)} — "
            f"{ban.get_cause_display().lower()} em {br_date(ban.starts_on)}"
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
    *, holder: Any, on: dt.date, application: Permit | None = None, procedure: str = "grant"
) -> Eligibility:
    """Every requirement the law sets for `holder` to be granted a permit on `on`."""
    code = holder.jurisdiction_id
    result = Eligibility(eligible=True, checked_on=on.isoformat())
    person, company = holder.person, holder.company

    def block(reason: Reason) -> None:
        result.reasons.append(reason)
        if reason.citation and reason.citation not in result.citations:
            result.citations.append(reason.citation)

    # 1. Documents complete, accepted and valid (H5's selector).
    check = _documents_module().document_check(
        jurisdiction_code=code, role="holder", person=person, company=company, on=on
    )
    result.missing_parameters += list(getattr(check, "missing_parameters", []) or [])
    if not check.complete:
        labels = getattr(check, "labels", {}) or {}
        explanation = list(getattr(check, "explanation", []) or [])
        for kind, what, items in (
            ("missing", "não apresentado", check.missing),
            ("expired", "vencido", check.expired),
            ("pending", "aguardando análise", check.pending),
        ):
            for item in items:
                block(
                    Reason(
                        code=f"document_{kind}",
                        message=f"Documento {what}: {labels.get(item, item)}.",
                        citation="; ".join(check.citations[:1]),
                        unblock=(
                            "Analisar o documento enviado."
                            if what == "aguardando análise"
                            else "Anexar o documento válido na ficha da pessoa e aceitá-lo."
                        ),
                    )
                )
        if not (check.missing or check.expired or check.pending):
            block(
                Reason(
                    code="documents_undefined",
                    message=" ".join(explanation) or "A lista de documentos exigidos não está definida.",
                    citation="; ".join(check.citations),
                    unblock="O órgão gestor deve informar a lista de documentos exigidos.",
                )
            )

    # 2. Not banned.
    for ban in active_bans(person=person, company=company, on=on):
        block(ban_reason(ban, party_label(holder)))

    # 3. No other permit where the law forbids it (or more than the law allows).
    exclude_ids = [application.pk] if application is not None and application.pk else []
    others = list(
        Permit.unscoped.filter(holder=holder, status__in=Permit.LIVE)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on))
        .exclude(pk__in=exclude_ids)
    )
    exclusive = rules.entry(code, "permit.exclusive", on)
    switch = rules.entry(code, "permit.switch_by_revocation", on)
    if exclusive is not None and exclusive.status == "value" and exclusive.value:
        if switch is not None and switch.value:
            way_out = f"Requerer a revogação do outro serviço para optar por este ({switch.citation})."
        else:
            way_out = "Somente após a extinção da outra permissão."
        for other in others:
            block(
                Reason(
                    code="other_permit",
                    message=f"Já é titular da {other} (situação: {other.get_status_display().lower()}).",
                    citation=str(exclusive.citation),
                    unblock=way_out,
                )
            )
        declared = application.other_service.strip() if application is not None else ""
        if declared:
            block(
                Reason(
                    code="other_service",
                    message=f"Declarou deter outro serviço ou vínculo: {declared}.",
                    citation=str(exclusive.citation),
                    unblock=way_out,
                )
            )
    quota_max = rules.entry(code, "quota.max_permits_per_holder", on)
    if quota_max is not None and quota_max.status != "repealed":
        outcome = evaluate_case(
            {"jurisdiction": code, "kind": "quota", "date": on.isoformat(), "permits": len(others) + 1}
        )
        result.missing_parameters += [
            p for p in outcome.get("missing_parameters", []) if p == "quota.max_permits_per_holder"
        ]
        for violation in outcome.get("violations", []):
            if violation.get("rule") == "max_permits_per_holder":
                block(
                    Reason(
                        code="permits_per_holder",
                        message=f"Já é titular de {len(others)} permissão(ões): {violation['message']}",
                        citation=violation["citation"],
                        unblock="Somente após a extinção de uma das permissões atuais.",
                    )
                )

    # 4. Residence, where required.
    residence = rules.entry(code, "permit.residence_min", on)
    if residence is not None and residence.status == "value":
        since = getattr(person, "residence_since", None) if person is not None else None
        if since is None and application is not None:
            since = application.residence_since
        needed = rules.describe(residence.value)
        if since is None:
            block(
                Reason(
                    code="residence_unknown",
                    message=f"Residência no município não comprovada (exige-se {needed}).",
                    citation=str(residence.citation),
                    unblock="Informar a data desde quando reside no município, com o comprovante.",
                )
            )
        elif rules.add(since, residence.value) > on:
            block(
                Reason(
                    code="residence_short",
                    message=(
                        f"Reside no município desde {br_date(since)}: a lei exige {needed} "
                        f"(completa em {br_date(rules.add(since, residence.value))})."
                    ),
                    citation=str(residence.citation),
                    unblock=f"Novo requerimento a partir de {br_date(rules.add(since, residence.value))}.",
                )
            )

    # 5. Age (adults).
    min_age = rules.entry(code, "permit.holder_min_age", on)
    if person is not None and min_age is not None and min_age.status == "value":
        if person.birth_date is None:
            block(
                Reason(
                    code="birth_date_unknown",
                    message="Data de nascimento não informada.",
                    citation=str(min_age.citation),
                    unblock="Completar a data de nascimento no cadastro da pessoa.",
                )
            )
        elif rules.age_on(person.birth_date, on) < int(min_age.value):
            adult_on = rules.add(person.birth_date, {"years": int(min_age.value)})
            block(
                Reason(
                    code="under_age",
                    message=f"Menor de {min_age.value} anos.",
                    citation=str(min_age.citation),
                    unblock=f"Novo requerimento a partir de {br_date(adult_on)}.",
                )
            )

    # 6. Clearance of fines and fees, where the law makes the procedure depend on it.
    clear = clearance(holder=holder, on=on, procedure=procedure)
    if not clear.clear:
        block(
            Reason(
                code="clearance",
                message=" ".join(clear.reasons),
                citation="; ".join(clear.citations),
                unblock="Quitar os débitos vencidos (ou apresentar defesa, quando cabível).",
            )
        )

    result.eligible = not result.reasons and not result.missing_parameters
    if result.missing_parameters and not result.reasons:
        result.reasons.append(
            Reason(
                code="undefined",
                message="Valores que a lei deixa indefinidos: " + ", ".join(result.missing_parameters) + ".",
                unblock="O órgão gestor deve informar esses valores.",
            )
        )
    return result


def rank_applications(applications: list[Permit], on: dt.date) -> list[Permit]:
    """Order applications by the selection criteria the law sets (pack `permit.selection_criteria`).

    Criteria ids: existing_operator (already operates with a permit), association (organized in an
    association), service_time (longer first), infractions (fewer first); ties by filing date.
    Applications of different jurisdictions are ranked separately, by their own law.
    """

    def key(p: Permit) -> tuple[Any, ...]:
        criteria = rules.value(p.jurisdiction_id, "permit.selection_criteria", on) or []
        parts: list[Any] = []
        for criterion in criteria:
            if criterion == "existing_operator":
                parts.append(0 if p.existing_operator else 1)
            elif criterion == "association":
                parts.append(0 if p.association_member else 1)
            elif criterion == "service_time":
                parts.append(-p.service_months)
            elif criterion == "infractions":
                parts.append(p.infraction_count)
        return (p.jurisdiction_id, *parts, p.applied_on, p.pk or 0)

    return sorted(applications, key=key)


def selection_basis(jurisdiction_code: str, on: dt.date) -> tuple[list[str], str]:
    labels = {
        "existing_operator": "quem já opera com alvará",
        "association": "organizados em associação",
        "service_time": "maior tempo de serviço",
        "infractions": "menos infrações",
    }
    criteria = rules.value(jurisdiction_code, "permit.selection_criteria", on) or []
    return [labels[c] for c in criteria], rules.cite(jurisdiction_code, "permit.selection_criteria", on)
