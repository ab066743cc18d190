"""The manager's setup (issue 11): a checklist of what each jurisdiction's law leaves open and what
it blocks, a typed form per value (no JSON), and the Esteio grant: the clerk meets the missing
document list, the manager gets a work item, supplies the list, and the grant goes through."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from lotacao.core import law, open_values
from lotacao.core.models import AgencyValue
from lotacao.demo.documents import pdf_bytes
from lotacao.law.packs import get_pack
from lotacao.web.value_forms import TypedValueForm, shape
from lotacao.workqueue.law_values import KIND
from lotacao.workqueue.models import WorkItem

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]
ACT = {"cite": "Portaria nº 1/2026", "reason": "Ato do órgão"}


def _open(code: str) -> list[Any]:
    today = timezone.localdate()
    pack = get_pack(code)
    return [p for p in pack.iter_parameters() if (e := p.at(today)) is not None and e.status == "undefined"]


@pytest.mark.parametrize("code", CODES)
def test_every_open_value_has_a_typed_form_and_says_what_it_blocks(code: str) -> None:
    pack = get_pack(code)
    for parameter in _open(code):
        assert shape(pack, parameter), f"{code}: {parameter.name} sem formulário"
        assert open_values.blocks(parameter.name), f"{code}: {parameter.name} sem o que bloqueia"
        form = TypedValueForm(pack=pack, parameter=parameter)
        html = str(form.as_p()) + "".join(str(f) for row in form.row_fields() for f in row)
        assert "JSON" not in html


def test_the_checklist_lists_each_open_value_with_what_it_blocks_and_its_link(
    world: Any, client: Any
) -> None:
    client.force_login(world.users["gestor.esteio"])
    page = client.get("/lei/?j=esteio").content.decode()
    assert "Documentos exigidos do permissionário" in page
    assert "nenhuma permissão pode ser outorgada" in page
    assert "/lei/parametro/?j=esteio&amp;p=documents.holder" in page
    assert "documents.holder</" not in page and "JSON" not in page


def _post(client: Any, name: str, code: str, data: dict[str, Any]) -> Any:
    body = {"j": code, "valid_from": "01/01/2026", **ACT, **data}
    return client.post(f"/lei/parametro/?j={code}&p={name}", body)


def _count(code: str) -> int:
    return AgencyValue.objects.filter(jurisdiction_id=code).count()


@pytest.mark.parametrize(
    ("code", "name", "good", "bad", "expected"),
    [
        # money as R$ with a comma
        ("esteio", "fiscal_unit.UFRM", {"value": "R$ 4,56"}, {"value": "quatro reais"}, "4.56"),
        # a duration as a number and a unit
        (
            "esteio",
            "inspection.representation_deadline",
            {"amount": "15", "unit": "business_days"},
            {"amount": "-1", "unit": "business_days"},
            {"business_days": 15},
        ),
        # a yes/no question as a choice
        ("esteio", "notice.agent_notice_to_holder", {"value": "sim"}, {"value": "talvez"}, True),
        # a code as a choice
        ("marica", "notice.missed_notification_effect", {"value": "flag"}, {"value": "sumir"}, "flag"),
        # a list of codes as checkboxes
        ("esteio", "billing.monthly_fees", {"value": ["management"]}, {"value": ["outra"]}, ["management"]),
        # a list as rows
        (
            "marica",
            "lines.regions",
            {"rows": "3", "r0_text": "Itaipuaçu", "r1_text": "Centro"},
            {"rows": "3"},
            ["Itaipuaçu", "Centro"],
        ),
        # dates as dd/mm/aaaa
        (
            "esteio",
            "calendar.municipal_holidays",
            {"rows": "3", "r0_day": "20/01", "r1_day": "08/12/2026"},
            {"rows": "3", "r0_day": "2026-12-08"},
            ["01-20", "2026-12-08"],
        ),
        # groups as choices, one number per group
        ("cabo", "penalty.points", {}, {}, None),
        # a mapping of named fields (money with a comma)
        (
            "esteio",
            "vehicle.insurance_min",
            {"k_death_per_passenger": "13.000,00", "k_third_party": "50000"},
            {"k_third_party": "muito"},
            {"death_per_passenger": "13000.00", "third_party": "50000"},
        ),
    ],
)
def test_each_type_s_form_saves_typed_input_and_refuses_bad_input(
    world: Any, client: Any, code: str, name: str, good: dict[str, Any], bad: dict[str, Any], expected: Any
) -> None:
    from lotacao.core.models import Jurisdiction
    from lotacao.web.agency_values import set_agency_value  # noqa: F401 - the service the form calls

    if code not in ("recife", "esteio"):
        Jurisdiction.objects.get_or_create(code=code, defaults={"name": code.title(), "state": "RJ"})
        from lotacao.accounts.models import StaffMembership

        StaffMembership.objects.get_or_create(
            user=world.users["gestor.esteio"], jurisdiction_id=code, role="gestor"
        )
    if name == "penalty.points":
        groups = list(get_pack(code).groups)
        good = {f"k_{g}": str(n) for n, g in enumerate(groups, 1)}
        bad = {f"k_{groups[0]}": "-3"}
        expected = {g: n for n, g in enumerate(groups, 1)}
    client.force_login(world.users["gestor.esteio"])
    form_page = client.get(f"/lei/parametro/?j={code}&p={name}")
    assert form_page.status_code == 200 and "JSON" not in form_page.content.decode()
    before = _count(code)
    refused = _post(client, name, code, bad)
    assert refused.status_code == 400 and _count(code) == before
    assert "Valores da lei" in refused.content.decode()
    assert (
        _post(client, name, code, {**good, "valid_from": "31/02/2026"}).status_code == 400
    )  # an impossible date refused
    assert _count(code) == before
    # the date input sends ISO (2026-01-01); dd/mm/aaaa typed by hand is read the same (issue 24)
    day = "2026-01-01" if "value" in good else "01/01/2026"
    saved = _post(client, name, code, {**good, "valid_from": day})
    assert saved.status_code == 302, saved.content.decode()[-3000:]
    law.forget(code)
    row = AgencyValue.objects.get(jurisdiction_id=code, parameter=name, valid_from=dt.date(2026, 1, 1))
    assert row.value == expected


def test_after_a_refusal_the_checklist_keeps_its_portuguese_words(world: Any, client: Any) -> None:
    client.force_login(world.users["gestor.esteio"])
    refused = _post(client, "vehicle.insurance_min", "esteio", {"k_third_party": "muito"})
    page = refused.content.decode()
    assert refused.status_code == 400
    assert "Danos a terceiros (R$)" in page and "third_party</" not in page


def test_esteio_grant_block_reaches_the_manager_and_the_supplied_list_unblocks_it(
    world: Any, client: Any
) -> None:
    from lotacao.documents import services as documents
    from lotacao.permits import services as permits
    from lotacao.permits.models import Permit

    holder = world.users["holder1.esteio"].holder_account.holder  # a holder with no permit yet
    assert not Permit.objects.filter(holder=holder).exists()
    application = permits.apply_for_permit(actor=None, holder=holder, reason="requerimento")
    grant_url = f"/permissoes/{application.pk}/outorga/"
    client.force_login(world.users["atendente.esteio"])
    page = client.get(grant_url).content.decode()
    assert "O que falta para outorgar" in page
    assert "Quem informa: o gestor do órgão" in page
    assert "disabled" in page  # the grant button is off while something blocks it
    assert "documents.holder" not in page
    item = WorkItem.objects.get(jurisdiction_id="esteio", kind=KIND, key="documents.holder", status="aberto")
    assert item.url == "/lei/parametro/?j=esteio&p=documents.holder"
    client.get(grant_url)  # meeting the block again opens no second item
    assert WorkItem.objects.filter(kind=KIND, status="aberto").count() == 1

    client.force_login(world.users["fiscal.esteio"])  # the manager's item, not the inspector's
    assert "Valor da lei a informar" not in client.get("/fila/").content.decode()
    client.force_login(world.users["gestor.esteio"])
    assert "Valor da lei a informar" in client.get("/fila/").content.decode()
    saved = _post(
        client,
        "documents.holder",
        "esteio",
        {
            "rows": "3",
            "r0_label": "Certidão negativa criminal",
            "r0_cite": "Portaria nº 1/2026, art. 1º",
            "r0_expires": "on",
        },
    )
    assert saved.status_code == 302
    listing = client.get(saved["Location"]).content.decode()
    assert '<div class="br-message success" role="status">' in listing  # a success, not a warning
    item.refresh_from_db()
    assert item.status == "encerrado"
    law.forget("esteio")

    client.force_login(world.users["atendente.esteio"])
    page = client.get(grant_url).content.decode()
    assert "Certidão negativa criminal" in page and "Receber documento" in page
    assert "/novo/?tipo=certidao_negativa_criminal" in page
    today = timezone.localdate()
    document = documents.upload_document(
        actor=None,
        code="certidao_negativa_criminal",
        file=SimpleUploadedFile("c.pdf", pdf_bytes("Certidão"), content_type="application/pdf"),
        reason="recebido no balcão",
        person=holder.person,
        issued_on=today,
        valid_until=today + dt.timedelta(days=90),
    )
    documents.review_document(actor=None, document=document, accepted=True, reason="conferido")
    page = client.get(grant_url).content.decode()
    assert "O que falta para outorgar" not in page, page[-4000:]
