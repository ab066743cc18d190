"""The demo has Recife's edital (art. 2º, § 1º) open with two applications by eligible applicants;
its page and the public list answer; a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from lotacao.tenders.models import Call, TenderApplication


def test_the_demo_has_an_open_call_with_applications(db: Any, client: Any) -> None:
    call_command("load_demo", stdout=StringIO())
    call = Call.objects.get(jurisdiction_id="recife")
    assert call.status == "open" and "art. 2º, § 1º" in call.criteria_citations[0]
    applications = TenderApplication.objects.filter(call=call)
    assert applications.count() == 2
    assert all(a.eligibility["eligible"] for a in applications)
    before = (Call.objects.count(), TenderApplication.objects.count())
    call_command("load_demo", stdout=StringIO())
    assert (Call.objects.count(), TenderApplication.objects.count()) == before
    from lotacao.accounts.models import User

    client.force_login(User.objects.get(username="gestor.recife"))
    assert client.get(f"/editais/{call.pk}/").status_code == 200
