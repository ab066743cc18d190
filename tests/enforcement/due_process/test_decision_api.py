"""The API's decisions, as the screens make them: Cabo's Council applies the penalty (Lei 2.019/2002,
art. 29), Esteio's CIP chooses one measure by the members' votes (Anexo II, IV-02), and the EPTI
suspends a chartering company's CRC (Pernambuco, Lei 16.205/2017, art. 23, III)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from lotacao.chartering.models import Sanction
from lotacao.enforcement.models import BodyMember, Decision
from lotacao.permits.models import Permit
from lotacao.web.agency_values import set_agency_value
from tests.chartering.conftest import pe  # noqa: F401 - the Pernambuco fixture
from tests.clock import today
from tests.enforcement.conftest import make_jurisdiction
from tests.enforcement.due_process.process_helpers import _notice
from tests.enforcement.due_process.test_application import _open_council, _staff
from tests.enforcement.sanctions.test_crc_sanctions import _defense
from tests.enforcement.sanctions.test_crc_sanctions import _notice as _pe_notice
from tests.enforcement.scenario_walk import Walk

pytestmark = pytest.mark.django_db


def _post(client: Any, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, content_type="application/json")


def test_the_council_applies_the_penalty_through_the_api(world: Any, client: Any) -> None:
    j = make_jurisdiction("cabo")
    notice = _notice(
        j, served=today() - dt.timedelta(days=3), day=(today() - dt.timedelta(days=5)).isoformat()
    )
    session = _open_council(j)
    url = f"/api/due-process/notices/{notice.pk}/application"
    body = {"outcome": "upheld", "reasons": "Infração comprovada.", "decided_on": today().isoformat()}
    client.force_login(_staff(j, "atendente"))
    assert _post(client, url, {**body, "session_id": session.pk}).status_code == 403
    client.force_login(_staff(j, "comissao"))
    refused = _post(client, url, body)  # the Council decides in session
    assert refused.status_code == 422 and "decide em sessão" in refused.json()["errors"][0]
    assert _post(client, url, {**body, "outcome": "x", "session_id": session.pk}).status_code == 422
    zero_fine = {**body, "session_id": session.pk, "new_penalty": "fine", "new_value": "0"}
    bad_value = _post(client, url, zero_fine)
    assert bad_value.status_code == 422 and "Informe o valor da multa" in bad_value.json()["errors"][0]
    assert not Decision.unscoped.filter(notice=notice).exists()
    made = _post(client, url, {**body, "session_id": session.pk})
    assert made.status_code == 201, made.content.decode()
    data = made.json()
    assert data["instance"] == "application" and data["outcome"] == "upheld" and not data["final"]
    again = _post(client, url, {**body, "session_id": session.pk})
    assert again.status_code == 422 and "Não há aplicação de penalidade" in again.json()["errors"][0]
    client.force_login(world.users["gestor.recife"])
    assert _post(client, url, {**body, "session_id": session.pk}).status_code == 404  # another agency's


def test_the_cip_chooses_one_measure_by_votes_through_the_api(world: Any, client: Any) -> None:
    """Esteio, Anexo II, IV-02: "desconto do valor devido ou suspensão da permissão"."""
    o = world.objects["esteio"]
    permit = o["permits.permit"]
    w = Walk(world, world.b, o["registry.holder"], "permit_holder", permit=permit)
    notice = w.serve(w.draw("2025-06-02", "IV-02"), dt.date(2025, 6, 3))
    appeal = w.file(notice, dt.date(2025, 6, 10))
    session = w.session(appeal.body, dt.date(2025, 6, 20))
    present = [m for m in session.present.all() if m.role != BodyMember.Role.PRESIDENT]
    url = f"/api/due-process/filings/{appeal.pk}/decision"
    body: dict[str, Any] = {
        "reasons": "Valores devidos não pagos.",
        "decided_on": "2025-06-20",
        "session_id": session.pk,
        "votes": [{"member_id": m.pk, "vote": "uphold"} for m in present],
    }
    client.force_login(world.users["comissao.esteio"])
    none_chosen = _post(client, url, body)
    assert none_chosen.status_code == 422 and "escolher uma só medida" in none_chosen.json()["errors"][0]
    stranger = _post(client, url, {**body, "votes": [{"member_id": 999999, "vote": "uphold"}]})
    assert stranger.status_code == 422 and "não está presente" in stranger.json()["errors"][0]
    set_agency_value(
        actor=None,
        jurisdiction=world.b,
        parameter="measure.suspension_days",
        valid_from=dt.date(2025, 1, 1),
        value={"IV-02": 15},
        cite="Decreto (teste)",
        reason="valor",
    )
    made = _post(client, url, {**body, "measure_choice": "permit_suspension"})
    assert made.status_code == 201, made.content.decode()
    data = made.json()
    assert data["final"] and data["penalty"]["measures"] == [
        {"type": "permit_suspension", "days": 15, "chosen": True}
    ]
    permit.refresh_from_db()
    assert permit.status == Permit.Status.SUSPENDED


def test_the_epti_suspends_the_crc_through_the_api(pe: Any, client: Any) -> None:  # noqa: F811
    company = pe.company(on=pe.today - dt.timedelta(days=40))
    notice = _pe_notice(pe, company, pe.today - dt.timedelta(days=20))
    filing = _defense(notice, pe.today - dt.timedelta(days=18))
    url = f"/api/due-process/filings/{filing.pk}/decision"
    body = {
        "outcome": "changed",
        "reasons": "Suspensão do CRC.",
        "decided_on": (pe.today - dt.timedelta(days=10)).isoformat(),
        "new_penalty": "crc_suspension",
    }
    client.force_login(pe.users["fiscal"])
    assert _post(client, url, body).status_code == 403
    client.force_login(pe.users["gestor"])
    made = _post(client, url, body)
    assert made.status_code == 201, made.content.decode()
    data = made.json()
    assert [p["type"] for p in data["penalty"]["penalties"]] == ["fine", "crc_suspension"]
    assert any(e["type"] == "crc_suspension" and e["done"] for e in data["effects"])
    assert Sanction.objects.get(company=company).days == 90
