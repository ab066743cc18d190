"""The faults fuzzing and hostile input found (issue 25): each is a Portuguese refusal, never a 500.

1. an engine error (a date before the law) on the API and on a screen → 422 / form error;
2. an integer too large for the database in a query, a path or a body → 422 / 400;
3. the same in an idempotent POST (the key's payload hash) → 422 problem+json;
4. a GTFS zip bomb → refused at once, by its declared and its streamed size;
5. an API path no operation matches → problem+json 404; an undeclared method on the public plate
   check → 405 problem+json; a date beyond the horizon, or not typed as a date, → 422.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from lotacao.accounts.tokens import create_token
from lotacao.enforcement.models import InfractionNotice
from lotacao.inspections.models import Inspection

pytestmark = pytest.mark.django_db

HUGE = 99999999999999999999999999
PROBLEM = "application/problem+json"


def _token(world: Any, username: str = "gestor.recife") -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {create_token(actor=None, user=world.users[username], label='t')}"}


def _problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"] == PROBLEM, response["Content-Type"]
    body = response.json()
    assert body["status"] == status and body["detail"]
    return body


# --------------------------------------------------------------------- 1. engine errors


@pytest.mark.parametrize("day", ["2001-06-16", "0292-07-07", "1686-11-18"])
def test_inspection_result_before_the_law_is_422(world: Any, client: Any, day: str) -> None:
    inspection = Inspection.objects.create(
        jurisdiction=world.a,
        vehicle=world.objects["recife"]["registry.vehicle"],
        scheduled_for=dt.date(2025, 1, 10),
    )
    response = client.post(
        f"/api/inspections/inspections/{inspection.pk}/result",
        {"performed_on": day, "checklist": {}, "faults": ["Pneu careca"]},
        content_type="application/json",
        **_token(world, "fiscal.recife"),
    )
    body = _problem(response, 422)
    assert "vigência" in body["detail"] or "01/01/1900" in body["detail"], body
    inspection.refresh_from_db()
    assert inspection.performed_on is None


@pytest.mark.parametrize("day", ["16/06/2001", "07/07/0292"])
def test_inspection_result_before_the_law_on_the_screen_is_a_form_error(
    world: Any, client: Any, day: str
) -> None:
    inspection = Inspection.objects.create(
        jurisdiction=world.a,
        vehicle=world.objects["recife"]["registry.vehicle"],
        scheduled_for=dt.date(2025, 1, 10),
    )
    client.force_login(world.users["fiscal.recife"])
    response = client.post(
        f"/vistorias/{inspection.pk}/",
        {"performed_on": day, "faults": "Pneu careca", "reason": "vistoria"},
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "anterior à vigência" in page or "01/01/1900" in page
    assert 'name="performed_on"' in page  # the form again, with the error on it
    inspection.refresh_from_db()
    assert inspection.performed_on is None


def test_a_raw_engine_error_is_a_422_on_the_api_and_a_page_on_a_screen(world: Any, client: Any) -> None:
    """The last line of defence: whatever path lets a CaseError out, it is a refusal."""
    from lotacao.api.main import engine_error
    from lotacao.core.middleware import BadInputMiddleware
    from lotacao.law.errors import CaseError

    request = type("R", (), {"path_info": "/api/x"})()
    error = CaseError("date_before_law", "A data é anterior à vigência da lei.", "date")
    assert engine_error(request, error).status_code == 422  # type: ignore[arg-type]
    screen = type("R", (), {"path_info": "/vistorias/"})()
    answer = BadInputMiddleware(lambda r: None).process_exception(screen, error)  # type: ignore[arg-type]
    assert answer is not None and answer.status_code == 422
    assert "anterior à vigência" in answer.content.decode()


def test_the_pack_the_django_side_reads_refuses_with_a_validation_error() -> None:
    from django.core.exceptions import ValidationError

    from lotacao.core import law

    with pytest.raises(ValidationError) as info:
        law.pack_for("recife").resolve("notice.required_fields", dt.date(2001, 6, 16))
    assert info.value.messages == [
        "A data 16/06/2001 é anterior à vigência da lei: a Lei Municipal 16.856/2003 (Recife) vale desde "
        "16/04/2003."
    ]


# --------------------------------------------------------------------- 2, 3. integers


def test_a_huge_integer_in_a_query_is_422(world: Any, client: Any) -> None:
    response = client.get("/api/billing/charges?holder=14284011888133983919832788275036160", **_token(world))
    body = _problem(response, 422)
    assert "query.holder" in body["detail"]


def test_a_huge_integer_in_a_path_is_422(world: Any, client: Any) -> None:
    response = client.get(f"/api/inspections/inspections/{HUGE}", **_token(world))
    _problem(response, 422)


def test_a_huge_integer_in_an_idempotent_body_is_422_and_creates_nothing(world: Any, client: Any) -> None:
    client.force_login(world.users["fiscal.recife"])
    before = InfractionNotice.unscoped.count()
    response = client.post(
        "/api/infraction-notices",
        {
            "jurisdiction": "recife",
            "drawn_up_at": "2025-06-16T10:00:00-03:00",
            "offender_kind": "permit_holder",
            "infraction_code": "G2-a",
            "place": "Av. Norte, 100",
            "description": "Veículo fora do itinerário",
            "permit_id": HUGE,
        },
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="numero-enorme",
    )
    body = _problem(response, 422)
    assert "permit_id" in body["detail"]
    assert InfractionNotice.unscoped.count() == before


def test_the_idempotency_hash_takes_any_json_number() -> None:
    from lotacao.core.idempotency import payload_hash

    assert payload_hash({"n": HUGE}) != payload_hash({"n": HUGE + 1})
    assert payload_hash({"a": 1, "b": 2}) == payload_hash({"b": 2, "a": 1})


@pytest.mark.parametrize(
    "url",
    [
        f"/cadastro/veiculos/{HUGE}/",
        f"/vistorias/{HUGE}/",
        "/fila/?pagina=99999999999999999999999999999",
        "/cadastro/pessoas/?pagina=99999999999999999999999999999",
    ],
)
def test_a_huge_integer_on_a_screen_is_never_a_500(world: Any, client: Any, url: str) -> None:
    client.force_login(world.users["gestor.recife"])
    response = client.get(url)
    assert response.status_code in (200, 302, 400, 404), (url, response.status_code)


# --------------------------------------------------------------------- 4. uploads


def _bomb(uncompressed: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in ("routes.txt", "trips.txt", "stops.txt"):
            archive.writestr(name, "a,b\n1,2\n")
        with archive.open("stop_times.txt", "w", force_zip64=True) as member:
            chunk = b"0" * (1 << 20)
            for _ in range(uncompressed // len(chunk)):
                member.write(chunk)
    return out.getvalue()


def test_a_gtfs_zip_bomb_is_refused_by_its_declared_size(world: Any, client: Any, settings: Any) -> None:
    settings.LOTACAO_UPLOAD_MAX_UNZIPPED_BYTES = 8 * 1024 * 1024
    client.force_login(world.users["gestor.recife"])
    upload = SimpleUploadedFile("bomba.zip", _bomb(16 * 1024 * 1024), content_type="application/zip")
    response = client.post(
        "/linhas/rede-de-onibus/",
        {"jurisdiction": "recife", "file": upload, "reason": "teste"},
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "descompactado" in page and "stop_times.txt" in page


def test_a_zip_member_is_cut_while_it_inflates(settings: Any) -> None:
    """The declared size is checked first, but the read itself is counted too: whatever the headers
    say, no more than the limit is ever inflated."""
    from django.core.exceptions import ValidationError

    from lotacao.core.uploads import open_zip

    settings.LOTACAO_UPLOAD_MAX_UNZIPPED_BYTES = 4 * 1024 * 1024
    with (
        pytest.raises(ValidationError) as error,
        open_zip(io.BytesIO(_bomb(8 * 1024 * 1024)), "b.zip") as archive,
    ):
        for member in archive.members():  # check_declared() skipped: as if the headers lied
            archive.read_limited(member)
    assert "descompactado" in error.value.messages[0] and "b.zip" in error.value.messages[0]


def test_a_gtfs_with_too_many_rows_or_too_slow_is_refused(settings: Any, tmp_path: Any) -> None:
    from django.core.exceptions import ValidationError

    from lotacao.core.uploads import open_zip

    settings.LOTACAO_UPLOAD_MAX_ROWS = 100
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("stop_times.txt", "trip_id,stop_id\n" + "t,s\n" * 500)
    with pytest.raises(ValidationError) as error, open_zip(io.BytesIO(out.getvalue()), "g.zip") as bounded:
        bounded.extract_flat(tmp_path)
    assert "linhas demais em stop_times.txt" in error.value.messages[0]
    settings.LOTACAO_UPLOAD_MAX_ROWS = 1000
    settings.LOTACAO_UPLOAD_MAX_SECONDS = -1
    with pytest.raises(ValidationError) as error, open_zip(io.BytesIO(out.getvalue()), "g.zip") as bounded:
        bounded.extract_flat(tmp_path)
    assert "tempo limite" in error.value.messages[0]


def test_a_csv_with_too_many_rows_is_refused(settings: Any) -> None:
    from django.core.exceptions import ValidationError

    from lotacao.core.uploads import bounded_lines

    settings.LOTACAO_UPLOAD_MAX_ROWS = 10
    with pytest.raises(ValidationError) as error:
        list(bounded_lines(io.StringIO("a\n" * 50), name="extrato.csv"))
    assert "linhas demais" in error.value.messages[0] and "extrato.csv" in error.value.messages[0]
    assert len(list(bounded_lines(io.StringIO("a\n" * 10), name="x.csv"))) == 10


# --------------------------------------------------------------------- 5. the smaller ones


def test_an_api_path_no_operation_matches_is_problem_json(world: Any, client: Any) -> None:
    response = client.get("/api/due-process/notices/null%2Cnull", **_token(world))
    _problem(response, 404)


def test_an_undeclared_method_on_an_api_operation_is_405_problem_json(world: Any, client: Any) -> None:
    for method in ("post", "put", "delete", "patch"):
        response = getattr(client, method)("/api/public/vehicles/ABC1D23")
        _problem(response, 405)
        assert "GET" in response["Allow"]
    response = client.put("/api/billing/charges", **_token(world))
    _problem(response, 405)


@pytest.mark.parametrize("when", ["9999-12-31T10:00:00-03:00", "1899-12-31T10:00:00-03:00"])
def test_a_notice_beyond_the_date_horizon_is_refused(world: Any, client: Any, when: str) -> None:
    client.force_login(world.users["fiscal.recife"])
    before = InfractionNotice.unscoped.count()
    response = client.post(
        "/api/infraction-notices",
        {
            "jurisdiction": "recife",
            "drawn_up_at": when,
            "offender_kind": "permit_holder",
            "infraction_code": "G2-a",
            "place": "Av. Norte, 100",
            "description": "Veículo fora do itinerário",
            "permit_id": world.objects["recife"]["permits.permit"].pk,
        },
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=f"horizonte-{when[:4]}",
    )
    body = _problem(response, 422)
    assert "drawn_up_at" in body["detail"] and "01/01/1900" in body["detail"]
    assert InfractionNotice.unscoped.count() == before


@pytest.mark.parametrize("value", [0, 1700000000, True, "2025-01-01T00:00:00", "20250101", "2025-1-1"])
def test_a_wrongly_typed_date_is_refused(world: Any, client: Any, value: Any) -> None:
    inspection = world.objects["recife"]["inspections.inspection"]
    response = client.post(
        f"/api/inspections/inspections/{inspection.pk}/result",
        {"performed_on": value, "checklist": {}, "faults": []},
        content_type="application/json",
        **_token(world, "fiscal.recife"),
    )
    body = _problem(response, 422)
    assert "body.performed_on" in body["detail"], body


def test_a_date_beyond_the_horizon_on_a_form_is_a_form_error() -> None:
    from django import forms

    class Form(forms.Form):
        day = forms.DateField()
        when = forms.DateTimeField()

    form = Form({"day": "31/12/9999", "when": "31/12/9999 10:00"})
    assert not form.is_valid()
    assert "01/01/1900" in form.errors["day"][0] and "01/01/1900" in form.errors["when"][0]
    assert Form({"day": "16/06/2025", "when": "16/06/2025 10:00"}).is_valid()


def test_an_xlsx_bomb_is_refused_before_openpyxl_opens_it(settings: Any) -> None:
    from django.core.exceptions import ValidationError

    from lotacao.chartering.forms import read_passengers

    settings.LOTACAO_UPLOAD_MAX_UNZIPPED_BYTES = 4 * 1024 * 1024
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"<row/>" * (1 << 20))
    upload = SimpleUploadedFile("passageiros.xlsx", out.getvalue())
    with pytest.raises(ValidationError) as error:
        read_passengers(upload)
    assert "descompactado" in error.value.messages[0]
