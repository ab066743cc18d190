"""Demo data of enforcement: three notices per jurisdiction at three stages of the due process,
the judging bodies with the commission user as a member, and the holder's portal; idempotent."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from lotacao.accounts.models import HolderAccount, User
from lotacao.demo import base as demo
from lotacao.enforcement.models import (
    BodyMember,
    Decision,
    Filing,
    Fine,
    InfractionNotice,
    Measure,
    Session,
)

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]
# the bodies that judge the defended notice (Cabo: the appeal goes to the Mayor, art. 29)
COLLEGIATE = {"recife", "esteio"}


@pytest.fixture
def loaded(db: Any, settings: Any, tmp_path: Any) -> Any:
    settings.MEDIA_ROOT = tmp_path / "media"
    today = timezone.localdate()
    demo.load(today)
    return today


def _notice(code: str, n: int) -> InfractionNotice:
    return InfractionNotice.objects.get(
        jurisdiction_id=code, description__startswith=f"Auto de demonstração {n}:"
    )


def test_running_the_demo_twice_creates_nothing_new(loaded: Any) -> None:
    models = (InfractionNotice, Filing, Decision, Fine, BodyMember, Session, Measure)
    counts = [m.objects.count() for m in models]
    again = demo.load(loaded)
    assert again.created == 0
    assert counts == [m.objects.count() for m in models]


def test_each_jurisdiction_has_the_three_stages(loaded: Any) -> None:
    for code in CODES:
        _stages(code, loaded)


def _stages(code: str, loaded: Any) -> None:
    from lotacao.enforcement.due_process.stage import current_stage

    holder = HolderAccount.objects.get(user__username=f"permissionario.{code}").holder
    recent, defended, old = (_notice(code, n) for n in (1, 2, 3))
    assert {recent.holder_id, defended.holder_id, old.holder_id} == {holder.pk}
    assert all(n.inspector is not None and n.inspector.username == f"fiscal.{code}" for n in (recent, old))
    # 1: served, its deadline open — or, where the body applies the penalty first (Cabo's
    # Council, art. 29), waiting for that application
    assert recent.status == InfractionNotice.Status.NOTIFIED
    stage = current_stage(recent, loaded)
    assert stage.instance is not None and (not stage.blocked or stage.ex_officio)
    assert stage.due is None or stage.due >= loaded
    # 2: a defense waiting for judgment; a collegiate body has today's session with it on the agenda
    filing = defended.filings.get()
    assert filing.status == Filing.Status.PENDING and not filing.late and filing.body is not None
    if code in COLLEGIATE:
        session = Session.objects.get(body=filing.body, held_on=loaded)
        assert session.agenda.filter(filing=filing).exists()
    else:
        assert not filing.body.collegiate
    # 3: nothing filed in time: final, so it counts as history (where the body applied the
    # penalty, its application became final when the appeal's 10 days passed)
    assert old.status == InfractionNotice.Status.DECIDED_FINAL
    final = old.decisions.get(final=True)
    expected = Decision.Outcome.UPHELD if final.instance == "application" else Decision.Outcome.LAPSED
    assert final.outcome == expected
    # fines where the penalty has one (Cabo: the law leaves the amounts undefined)
    with_fine = [n for n in (recent, defended, old) if Fine.objects.filter(notice=n).exists()]
    assert (len(with_fine) == 0) if code == "cabo" else (len(with_fine) >= 2)


def test_the_defended_notices_of_recife_and_esteio_carry_a_measure_that_keeps_the_vehicle_running(
    loaded: Any,
) -> None:
    from lotacao.enforcement.models import Measure
    from lotacao.enforcement.sanctions.measures import BARS_OPERATION

    kinds = {
        code: set(Measure.objects.filter(notice=_notice(code, 2)).values_list("kind", flat=True))
        for code in CODES
    }
    assert kinds["recife"] == {"document_seizure"} and kinds["esteio"] == {"staff_removal"}
    assert not Measure.objects.filter(kind__in=BARS_OPERATION).exists()


def test_the_commission_user_is_a_member_of_every_body(loaded: Any) -> None:
    for code in CODES:
        _members(code)


def _members(code: str) -> None:
    from lotacao.enforcement.models import JudgingBody

    user = User.objects.get(username=f"comissao.{code}")
    bodies = JudgingBody.objects.filter(jurisdiction_id=code)
    assert bodies.exists()
    for body in bodies:
        assert body.members.filter(user=user).exists()
        if body.collegiate:
            assert body.members.count() >= 3
    if code == "esteio":
        cip = bodies.get(key="cip")
        assert cip.members.count() == 5
        assert cip.members.filter(role=BodyMember.Role.PRESIDENT).count() == 1


def test_the_holder_sees_home_and_the_notice_with_the_defense_button(loaded: Any, client: Any) -> None:
    for code in CODES:
        _holder_pages(client, code)


def _holder_pages(client: Any, code: str) -> None:
    client.force_login(User.objects.get(username=f"permissionario.{code}"))
    assert client.get("/", follow=True).status_code == 200
    page = client.get(f"/fiscalizacao/autos/{_notice(code, 1).pk}/")
    assert page.status_code == 200
    if code == "cabo":  # the Council applies the penalty first (art. 29): nothing to appeal yet
        assert "Aplicação da penalidade pelo Conselho ainda não registrada" in page.content.decode()
    elif code == "marica":  # the appeal is judged only once the fine is paid (art. 70, p.ú.): said up front
        assert "Condição para o julgamento" in page.content.decode()
        assert "Apresentar defesa" in page.content.decode()
    else:
        assert "Apresentar defesa" in page.content.decode()
    old = client.get(f"/fiscalizacao/autos/{_notice(code, 3).pk}/").content.decode()
    assert "definitiva" in old
    assert client.get(f"/fiscalizacao/autos/{_notice(code, 1).pk}/defesa/").status_code == 200


def test_the_commission_opens_todays_session(loaded: Any, client: Any) -> None:
    client.force_login(User.objects.get(username="comissao.esteio"))
    filing = _notice("esteio", 2).filings.get()
    session = Session.objects.get(body=filing.body, held_on=loaded)
    body = client.get(f"/fiscalizacao/julgamento/sessoes/{session.pk}/").content.decode()
    assert "Abrir sessão" in body and filing.receipt in body
