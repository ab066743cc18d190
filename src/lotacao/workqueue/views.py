from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from lotacao.workqueue.models import KIND_LABELS, WorkItem


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    access = request.access  # type: ignore[attr-defined]
    if not (access.is_staff_member or access.operator):
        raise Http404
    items = WorkItem.objects.filter(status=WorkItem.Status.OPEN)
    kind = request.GET.get("tipo", "")
    if kind:
        items = items.filter(kind=kind)
    codes = set(WorkItem.objects.filter(status=WorkItem.Status.OPEN).values_list("kind", flat=True))
    kinds = sorted(((code, KIND_LABELS.get(code, code)) for code in codes), key=lambda pair: pair[1])
    return render(
        request,
        "workqueue/queue.html",
        {"items": items[:500], "kinds": kinds, "kind": kind, "title": "Fila de trabalho"},
    )
