"""One checklist of what unblocks an action (issue 11): each blocking reason once, with the link
that resolves it — "Receber documento" for a missing document, "Informar o valor" for a value the
law leaves open (to the manager; a clerk sees who supplies it and the manager gets a work item)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from lotacao.core import open_values
from lotacao.permits.eligibility import Eligibility
from lotacao.workqueue.law_values import request_value


@dataclass
class Step:
    text: str
    citation: str = ""
    how: str = ""  # what resolves it, in words, where no link does
    link: str = ""
    link_label: str = ""


def unblock_steps(eligibility: Eligibility, *, holder: Any, manager: bool, on: dt.date) -> list[Step]:
    steps: list[Step] = []
    seen: set[str] = set()
    for reason in eligibility.reasons:
        if reason.document:
            steps.append(
                Step(reason.message, reason.citation, *_document_link(holder, reason.document, reason.code))
            )
            continue
        if reason.parameters:
            for parameter in reason.parameters:
                if parameter in seen:
                    continue
                seen.add(parameter)
                blocks = open_values.blocks(parameter)
                text = (
                    reason.message if len(reason.parameters) == 1 else blocks.capitalize() or reason.message
                )
                if manager:
                    url = reverse("law:parameter") + f"?j={holder.jurisdiction_id}&p={parameter}"
                    steps.append(Step(text, reason.citation, "", url, "Informar o valor"))
                else:
                    request_value(holder.jurisdiction_id, parameter, on)
                    how = f"Quem informa: {open_values.WHO} (avisado na fila de trabalho)."
                    steps.append(Step(text, reason.citation, how))
            continue
        steps.append(Step(reason.message, reason.citation, reason.unblock))
    return steps


def _document_link(holder: Any, document: str, code: str) -> tuple[str, str, str]:
    if code == "document_pending":
        page = (
            reverse("people:person", args=[holder.person_id])
            if holder.person_id
            else reverse("people:company", args=[holder.company_id])
        )
        return "", page, "Analisar o documento"
    if holder.person_id:
        upload = reverse("documents:upload_person", args=[holder.person_id])
    else:
        upload = reverse("documents:upload_company", args=[holder.company_id])
    return "", f"{upload}?tipo={document}", "Receber documento"
