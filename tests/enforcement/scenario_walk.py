"""The walk of one scenario through the services the screens use (draw up, notify, file, judge,
settle), and small helpers of the per-law scenarios."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.due_process import decisions, filings, judging
from lotacao.enforcement.models import BodyMember, Decision, InfractionNotice, Session
from lotacao.enforcement.notices import services
from lotacao.enforcement.notices.notification import record_notification
from lotacao.registry import services as registry
from lotacao.registry.models import Holder
from tests.enforcement.conftest import at

TODAY = dt.date(2025, 12, 1)


SEQ = itertools.count(1)


class Walk:
    """One offender in one jurisdiction, walked through the due process."""

    def __init__(self, world: Any, j: Any, holder: Any, offender: str, **links: Any) -> None:
        self.world, self.j, self.holder, self.offender, self.links = world, j, holder, offender, links
        self.clerk = world.users.get(f"atendente.{j.code}")

    def draw(self, day: str, code: str, group: str = "") -> InfractionNotice:
        return services.draw_up_notice(
            actor=None,
            jurisdiction=self.j,
            drawn_up_at=at(day),
            infraction_code=code,
            infraction_group=group,
            offender_kind=self.offender,
            holder=self.holder,
            place="Terminal Central",
            description="Constatado em fiscalização de rotina",
            inspector=self.world.users["fiscal.recife"],
            **self.links,
        )

    def serve(self, notice: InfractionNotice, day: dt.date) -> InfractionNotice:
        record_notification(actor=None, notice=notice, method="hand", received_on=day, today=TODAY)
        notice.refresh_from_db()
        return notice

    def file(self, notice: InfractionNotice, day: dt.date) -> Any:
        return filings.file_defense(
            actor=None,
            notice=notice,
            text="O fato não ocorreu como descrito.",
            channel="counter",
            reason="Protocolo",
            filed_at=at(day.isoformat(), 11),
        )

    def session(self, body: Any, day: dt.date) -> Session:
        members = list(body.members.all())
        if not members:
            for i in range(5 if body.key == "cip" else 3):
                members.append(
                    judging.add_member(
                        actor=None,
                        body=body,
                        name=f"Membro {i}",
                        role=BodyMember.Role.PRESIDENT if i == 0 else BodyMember.Role.MEMBER,
                        starts_on=dt.date(day.year, 1, 1),
                        ends_on=dt.date(day.year, 12, 31),
                        reason="Nomeação",
                    )
                )
        session = judging.schedule_session(actor=None, body=body, held_on=day, reason="Convocação")
        judging.open_session(actor=None, session=session, present=members[:3], reason="Abertura")
        return session

    def judge(self, filing: Any, day: dt.date, outcome: str, votes: list[str] | None = None) -> Decision:
        filing.refresh_from_db()
        session = self.session(filing.body, day) if filing.body.collegiate else None
        by_vote = None
        if votes is not None and session is not None:
            present = [m for m in session.present.all() if m.role != BodyMember.Role.PRESIDENT]
            by_vote = dict(zip(present, votes, strict=False))
        return decisions.decide(
            actor=None,
            filing=filing,
            session=session,
            outcome=None if by_vote else outcome,
            votes=by_vote,
            reasons="Fundamentação da decisão.",
            decided_on=day,
        )


def _final(notice: InfractionNotice) -> bool:
    notice.refresh_from_db()
    return notice.status == InfractionNotice.Status.DECIDED_FINAL


def _person_holder(j: Any) -> Holder:
    person = registry.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(310_000_000 + next(SEQ)),
        full_name=f"Titular de {j.name}",
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    return Holder.objects.create(jurisdiction=j, person=person)
