from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

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
    return render(
        request,
        "workqueue/queue.html",
        {"items": items[:500], "kinds": kinds, "kind": kind, "title": "Fila de trabalho"},
    )
