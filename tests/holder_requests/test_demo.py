"""The demo opens with pending online requests the holder and the clerk can see."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command
from django.urls import reverse

from lotacao.accounts.models import User
from lotacao.holder_requests.models import InspectionSlot, Request
from lotacao.holder_requests.selectors import open_requests
from lotacao.registry.models import Holder


def test_the_demo_has_pending_requests_and_open_slots(
    db: Any, client: Any, settings: Any, tmp_path: Any
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("load_demo", stdout=StringIO())
    pending = Request.objects.filter(status=Request.Status.FILED)
    assert pending.count() >= 2
    assert InspectionSlot.objects.filter(jurisdiction_id="marica").count() == 2
    assert not InspectionSlot.objects.filter(jurisdiction_id="pernambuco").exists()  # chartering
    request = pending.select_related("holder").first()
    assert request is not None
    assert open_requests(Holder.objects.get(pk=request.holder_id))[0]["protocol"] == request.protocol
    call_command("load_demo", stdout=StringIO())
    assert Request.objects.filter(status=Request.Status.FILED).count() == pending.count()  # idempotent
    client.force_login(User.objects.get(username=f"permissionario.{request.jurisdiction_id}"))
    body = client.get(reverse("holder_requests:list")).content.decode()
    assert request.protocol in body
