"""Helpers for the tenders tests: the permits' factory (jurisdictions, people, vehicles, lines)
with documents faked complete, and a call walked to a given stage."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.permits.conftest import Factory, docs  # noqa: F401  (the fixture: documents faked complete)

OPENS = dt.date(2025, 6, 2)
CLOSES = dt.date(2025, 6, 11)
RANKS = dt.date(2025, 6, 12)
PUBLISHES = dt.date(2025, 6, 13)
APPEALS_FROM = dt.date(2025, 6, 16)
APPEALS_UNTIL = dt.date(2025, 6, 20)
AWARDS = dt.date(2025, 6, 23)


class Tenders(Factory):
    def call(self, j: Any, *, places: int = 1, line: Any = None, **fields: Any) -> Any:
        from lotacao.tenders import services

        fields.setdefault("tie_break_clause", "Item 9 do edital: sorteio público entre os empatados")
        return services.create_call(
            actor=None,
            jurisdiction=j,
            number=fields.pop("number", "1/2025"),
            subject=fields.pop("subject", "Vagas de permissão na linha"),
            line=line or self.line(j),
            places=places,
            opens_on=fields.pop("opens_on", OPENS),
            closes_on=fields.pop("closes_on", CLOSES),
            reason="edital",
            **fields,
        )

    def open(self, call: Any) -> Any:
        from lotacao.tenders import services

        return services.open_call(actor=None, call=call, reason="publicação do edital", on=OPENS)

    def apply(self, call: Any, holder: Any = None, on: dt.date = OPENS, **fields: Any) -> Any:
        from lotacao.tenders import services

        holder = holder or self.holder(call.jurisdiction)
        vehicle = fields.pop("vehicle", None) or self.vehicle(call.jurisdiction, holder)
        return services.file_application(
            actor=None, call=call, holder=holder, vehicle=vehicle, reason="inscrição", on=on, **fields
        )

    def close_and_rank(self, call: Any) -> Any:
        from lotacao.tenders import services

        services.close_call(actor=None, call=call, reason="fim do prazo", on=RANKS)
        return services.rank_call(actor=None, call=call, reason="apuração", on=RANKS)

    def draw(self, call: Any, seed: str = "Loteria Federal 05921, 1º prêmio 48.213") -> Any:
        from lotacao.tenders import services

        services.record_seed(
            actor=None, call=call, seed=seed, published_in="Diário Oficial de 12/06/2025", reason="semente"
        )
        return services.draw_ties(actor=None, call=call, reason="sessão pública", on=RANKS)

    def publish_and_open_appeals(self, call: Any) -> Any:
        from lotacao.tenders import services

        services.publish_ranking(
            actor=None,
            call=call,
            appeals_from=APPEALS_FROM,
            appeals_until=APPEALS_UNTIL,
            reason="publicação",
            on=PUBLISHES,
        )
        return services.open_appeals(actor=None, call=call, reason="prazo de recurso", on=APPEALS_FROM)

    def award(self, call: Any, on: dt.date = AWARDS) -> Any:
        from lotacao.tenders import services

        return services.award_call(actor=None, call=call, reason="homologação", on=on)


@pytest.fixture
def tenders(db: Any) -> Tenders:
    return Tenders()
