"""An engine error is a validation error: 422 on the API, a form error on a screen, never a 500."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.core import law
from lotacao.enforcement.models import InfractionNotice

pytestmark = pytest.mark.django_db

BEFORE_THE_LAW = "2001-06-16T10:00"  # Recife's Lei 16.856 took effect on 16/04/2003


def notices() -> int:
    return InfractionNotice.unscoped.exclude(number__startswith="AI-T-").count()


def test_core_law_turns_an_engine_error_into_a_validation_error() -> None:
    with pytest.raises(ValidationError) as info:
        law.entry("recife", "notice.required_fields", dt.date(2001, 6, 16))
    assert isinstance(info.value, law.LawError)
    assert info.value.messages == [
        "A data 16/06/2001 é anterior à vigência da lei: a Lei Municipal 16.856/2003 (Recife) vale desde "
        "16/04/2003."
    ]


def test_api_notice_before_the_law_is_422_and_creates_nothing(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    before = notices()
    response = client.post(
        "/api/infraction-notices",
        {
            "jurisdiction": "recife",
            "drawn_up_at": BEFORE_THE_LAW + ":00-03:00",
            "offender_kind": "permit_holder",
            "infraction_code": "G2-a",
            "place": "Av. Norte, 100",
            "description": "Veículo fora do itinerário",
            "permit_id": world.objects["recife"]["permits.permit"].pk,
        },
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="antes-da-lei",
    )
    assert response.status_code == 422, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == 422 and body["title"] == "Dados recusados"
    assert "anterior à vigência da lei" in body["detail"] and body["errors"] == [body["detail"]]
    assert notices() == before


def test_screen_notice_before_the_law_is_a_form_error(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    before = notices()
    response = client.post(
        "/fiscalizacao/autos/novo/",
        {
            "jurisdicao": "recife",
            "idempotency_key": "antes-da-lei",
            "plate": world.objects["recife"]["registry.vehicle"].plate,
            "offender_kind": "permit_holder",
            "infraction_code": "G2-a",
            "drawn_up_at": BEFORE_THE_LAW,
            "place": "Av. Norte, 100",
            "description": "Fora do itinerário",
        },
    )
    assert response.status_code == 422  # the form again, with the error
    assert "anterior à vigência da lei" in response.content.decode()
    assert notices() == before


def test_typed_answers_raise_on_a_case_the_engine_refuses() -> None:
    answer = law.evaluate_penalty(
        {"jurisdiction": "recife", "date": "2025-06-16", "offender": "permit_holder",
         "infraction": {"code": "G2-k"}, "history": []}
    )
    assert answer["penalties"] and answer["kind"] == "penalty"
    with pytest.raises(law.LawError) as info:
        law.evaluate_penalty({"jurisdiction": "recife", "date": "2025-06-16", "offender": "permit_holder",
                              "infraction": {"code": "G9-z"}, "history": []})
    assert info.value.engine_code and info.value.messages[0]
    due = law.evaluate_deadline({"jurisdiction": "esteio", "deadline": "defense", "date": "2025-03-10"})
    assert due["due"] == "2025-03-31" and due["counting"] == "business_days"
