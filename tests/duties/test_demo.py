"""The demo: each holder whose law has the duties has a late report (its infraction suggested),
authorizations granted and waiting, the agency's values for the reports; Maricá an accident with
its inspection; the holder's deadlines come from them; a second run adds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from lotacao.duties import selectors, services
from lotacao.duties.models import Authorization, IncidentReport
from lotacao.workqueue.models import WorkItem
from tests import clock


def test_the_demo_has_the_operator_duties(db: Any, client: Any) -> None:
    call_command("load_demo", stdout=StringIO())
    today = clock.today()
    for code in ("recife", "esteio", "marica"):
        assert IncidentReport.objects.filter(jurisdiction_id=code, late=True).exists(), code
        assert Authorization.objects.filter(jurisdiction_id=code, status="granted").exists(), code
        assert Authorization.objects.filter(jurisdiction_id=code, status="requested").exists(), code
    for code in ("cabo", "pernambuco"):
        assert not IncidentReport.objects.filter(jurisdiction_id=code).exists()
    recife_late = IncidentReport.objects.get(jurisdiction_id="recife", late=True)
    assert [i["code"] for i in recife_late.suggested_infractions] == ["G2-o"]
    assert WorkItem.objects.filter(kind=services.LATE_INCIDENT_KIND, jurisdiction_id="recife").exists()
    accident = IncidentReport.objects.get(jurisdiction_id="marica", kind="accident")
    assert accident.inspection is not None or WorkItem.objects.filter(kind=services.INSPECTION_KIND).exists()
    advertising = Authorization.objects.get(jurisdiction_id="recife", kind="advertising")
    assert advertising.charge is not None and advertising.months == 3
    holder = IncidentReport.objects.filter(jurisdiction_id="recife").first().holder  # type: ignore[union-attr]
    assert selectors.holder_duties(holder, today), "the Recife holder has deadlines"
    before = (IncidentReport.objects.count(), Authorization.objects.count())
    call_command("load_demo", stdout=StringIO())
    assert (IncidentReport.objects.count(), Authorization.objects.count()) == before
    from lotacao.accounts.models import User

    client.force_login(User.objects.get(username="permissionario.recife"))
    page = client.get("/deveres/").content.decode()
    assert "Prazos" in page and "Entregar" in page
