"""`{% fine_context notice as f %}`: what the notice page's fine section shows and which forms the
signed-in user may use (staff atendente/gestor; the holder only reads and downloads the slip)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from lotacao.core.law import entry, value
from lotacao.enforcement import permissions
from lotacao.enforcement.models import Fine
from lotacao.enforcement.reading import infraction_day as _infraction_day
from lotacao.enforcement.sanctions.fine_due import fine_terms
from lotacao.enforcement.sanctions.fine_payment import slip_available, slip_refusal
from lotacao.enforcement.sanctions.refunds import refundable

register = template.Library()


@register.simple_tag(takes_context=True)
def fine_context(context: Any, notice: Any) -> dict[str, Any]:
    request = context.get("request")
    access = getattr(request, "access", None)
    code = notice.jurisdiction_id
    fine = Fine.objects.filter(notice=notice).select_related("charge").first()
    day = _infraction_day(notice)
    due_rule = entry(code, "fine.due", day)
    law_gives_due = value(code, "fine.due", day) is not None
    effects = value(code, "fine.nonpayment", timezone.localdate()) or []
    credit = any(e.get("effect") == "credit_offset" for e in effects)
    can_manage = permissions.allowed(access, code, permissions.FINE_ROLES)
    return {
        "fine": fine,
        "has_fine_penalty": fine_terms(notice.penalty) is not None,
        "can_manage": can_manage,
        "can_offset": credit and permissions.allowed(access, code, permissions.MANAGER_ROLES),
        "can_refund": fine is not None
        and refundable(fine)[0] > 0
        and permissions.allowed(access, code, permissions.MANAGER_ROLES),
        "refundable": refundable(fine) if fine is not None else None,
        "law_gives_due": law_gives_due,
        "due_rule_citation": str(due_rule.citation) if due_rule is not None else "",
        "due_rule_reason": (due_rule.reason or "") if due_rule is not None else "",
        "slip": fine is not None and slip_available(fine),
        "slip_refusal": slip_refusal(fine, timezone.localdate()) if fine is not None else "",
        # a slip issued before a defense or an appeal: its address stays, and says why it is on hold
        "slip_on_hold": fine is not None
        and fine.status != Fine.Status.OPEN
        and fine.slip_count > 0
        and fine.paid_on is None,
        "open": fine is not None and fine.status in (Fine.Status.OPEN, Fine.Status.AWAITING),
        "today": timezone.localdate(),
    }
