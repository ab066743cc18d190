from __future__ import annotations

import datetime as dt

from django.contrib.auth.decorators import login_required
from django.db.models import F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from lotacao.workqueue.models import KIND_LABELS, WorkItem

MANAGER_KIND = "law.value_missing"  # lotacao.workqueue.law_values.KIND


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    access = request.access  # type: ignore[attr-defined]
    if not (access.is_staff_member or access.operator):
        raise Http404
    items = WorkItem.objects.filter(status=WorkItem.Status.OPEN)
    if not access.operator:  # a value the law leaves open is the manager's to supply
        managed = [code for code, roles in access.roles.items() if "gestor" in roles]
        items = items.exclude(Q(kind=MANAGER_KIND) & ~Q(jurisdiction_id__in=managed))
    codes = set(items.values_list("kind", flat=True))
    kind = request.GET.get("tipo", "")
    if kind:
        items = items.filter(kind=kind)
    kinds = sorted(((code, KIND_LABELS.get(code, code)) for code in codes), key=lambda pair: pair[1])
    # Overdue first, then by deadline; items without a deadline last, on every database (SQLite
    # puts NULL first in ascending order, PostgreSQL last).
    items = items.order_by(F("due_on").asc(nulls_last=True), "id")
    today = timezone.localdate()
    rows = [(item, _urgency(item.due_on, today)) for item in items[:500]]
    return render(
        request,
        "workqueue/queue.html",
        {"rows": rows, "kinds": kinds, "kind": kind, "title": "Fila de trabalho", "today": today},
    )


def _urgency(due: dt.date | None, today: dt.date) -> str:
    """What a deadline means today, in words (not only a colour): "vencido há 3 dias", "vence hoje"."""
    if due is None:
        return ""
    days = (due - today).days
    if days < 0:
        return "vencido há 1 dia" if days == -1 else f"vencido há {-days} dias"
    if days == 0:
        return "vence hoje"
    return ""
