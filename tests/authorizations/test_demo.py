"""The demo: Esteio (the law with the táxi, escolar and fretado authorizations) has them turned on
and a few of each kind; the other laws none; a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from lotacao.authorizations.models import Authorization
from lotacao.core.models import Jurisdiction


def test_the_demo_has_esteios_authorizations(db: Any) -> None:
    call_command("load_demo", stdout=StringIO())
    rows = Authorization.objects.all()
    assert {r.jurisdiction_id for r in rows} == {"esteio"}
    assert {r.kind for r in rows} == set(Authorization.Kind.values)
    assert {r.status for r in rows} >= {"requested", "granted", "suspended", "revoked"}
    esteio = Jurisdiction.objects.get(pk="esteio")
    assert esteio.authorize_taxi_common and esteio.authorize_chartered
    assert not Jurisdiction.objects.get(pk="recife").authorize_school
    count = rows.count()
    call_command("load_demo", stdout=StringIO())
    assert Authorization.objects.count() == count
