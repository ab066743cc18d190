"""Drawing up notices: the law's required fields, history from final decisions only, agents
charged to the holder, clandestine transport, points, and the audited override."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from lotacao.audit.models import AuditEvent
from lotacao.core.sample_ids import sample_cpf
from lotacao.enforcement.models import InfractionNotice, PointsEntry
from lotacao.enforcement.notices import penalty, services
from lotacao.permits.models import PermitAgent
from lotacao.registry import services as registry
from tests.enforcement.conftest import at, make_jurisdiction

pytestmark = pytest.mark.django_db


def _holder_notice(r: dict[str, Any], **over: Any) -> InfractionNotice:
    data: dict[str, Any] = {
        "actor": r["fiscal"],
        "jurisdiction": r["j"],
        "drawn_up_at": at("2025-06-16"),
        "infraction_code": "G2-a",
        "offender_kind": "permit_holder",
        "place": "Av. Norte, 100",
        "description": "Veículo flagrado na linha",
        "permit": r["permit"],
        "inspector": r["fiscal"],
    }
    data.update(over)
    return services.draw_up_notice(**data)


def test_notice_stores_the_engine_penalty_with_citations(recife: dict[str, Any]) -> None:
    notice = _holder_notice(recife)
    assert notice.number.startswith("AI-2025-")
    assert notice.holder == recife["holder"] and notice.vehicle == recife["vehicle"]
    assert notice.plate == recife["vehicle"].plate and notice.line == recife["line"]
    assert notice.penalty["penalties"] == [{"type": "fine", "amount": "100.00"}]
    assert notice.engine_result["repeat"] == 0
    assert any("art. 36" in c for c in notice.citations)
    assert (
        notice.law.startswith("Lei Municipal 16.856/2003")
        and notice.evaluated_for.isoformat() == "2025-06-16"
    )
    assert AuditEvent.objects.filter(action="enforcement.notice_drawn_up", object_id=str(notice.pk)).exists()
    second = _holder_notice(recife, drawn_up_at=at("2025-06-17"))
    assert second.number != notice.number


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        (
            {"place": ""},
            "Falta o local da infração, exigido no auto de infração "
            "(Lei Municipal 16.856/2003 (Recife), art. 30).",
        ),
        ({"description": ""}, "Falta a descrição da ocorrência"),
        ({"inspector": None}, "Falta a identificação do agente fiscal"),
    ],
)
def test_recife_refuses_a_notice_missing_a_field_of_art_30(
    recife: dict[str, Any], missing: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError) as error:
        _holder_notice(recife, **missing)
    assert any(m.startswith(message) for m in error.value.messages), error.value.messages
    assert "art. 30" in " ".join(error.value.messages)
    assert InfractionNotice.objects.count() == 2  # only the world's two rows: nothing was written


def test_recife_requires_the_line_for_a_permit_holder(recife: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as error:
        _holder_notice(recife, permit=None, holder=recife["holder"], vehicle=recife["vehicle"])
    assert "Falta a linha, exigido no auto de infração (Lei Municipal 16.856/2003 (Recife), art. 30)." in (
        error.value.messages
    )


def test_marica_refuses_without_the_holder_art_61(world: Any) -> None:
    j = make_jurisdiction("marica")
    with pytest.raises(ValidationError) as error:
        services.draw_up_notice(
            actor=None,
            jurisdiction=j,
            drawn_up_at=at("2025-06-16"),
            infraction_code="art42-I",
            infraction_group="C",
            offender_kind="auxiliary_driver",
            offender_name="Fulano",
            plate="ABC1D23",
            place="Centro",
            description="x",
            inspector=world.users["fiscal.recife"],
        )
    text = " ".join(error.value.messages)
    assert "art. 61" in text and "Falta o permissionário" in text


def test_pernambuco_unidentified_offender_needs_image_or_gps(world: Any) -> None:
    j = make_jurisdiction("pernambuco")
    kwargs: dict[str, Any] = {
        "actor": None,
        "jurisdiction": j,
        "drawn_up_at": at("2025-06-16"),
        "infraction_code": "I-a",
        "offender_kind": "unlicensed",
        "plate": "XYZ9A99",
    }
    with pytest.raises(ValidationError) as error:
        services.draw_up_notice(**kwargs)
    assert "(Lei Estadual 16.205/2017 (Pernambuco), art. 25, § 1º)" in error.value.messages[0]
    assert InfractionNotice.objects.filter(jurisdiction=j).count() == 0
    notice = services.draw_up_notice(
        **{**kwargs, "infraction_code": "", "evidence_latitude": "-8.05", "evidence_longitude": "-34.9"}
    )
    assert "notice.required_fields" in notice.missing_parameters  # art. 25's list is not in the text


def test_repeat_offence_counts_only_final_earlier_notices(recife: dict[str, Any]) -> None:
    earlier = _holder_notice(recife, drawn_up_at=at("2025-05-01"), infraction_code="G2-b")
    pending = _holder_notice(recife, drawn_up_at=at("2025-05-10"), infraction_code="G2-c")
    annulled = _holder_notice(recife, drawn_up_at=at("2025-05-20"), infraction_code="G2-d")
    InfractionNotice.objects.filter(pk=annulled.pk).update(status="annulled")
    del pending
    first = _holder_notice(recife)
    assert first.engine_result["repeat"] == 0  # pending and annulled do not count
    assert first.penalty["penalties"] == [{"type": "fine", "amount": "100.00"}]
    InfractionNotice.objects.filter(pk=earlier.pk).update(status="decided_final")
    again = _holder_notice(recife, drawn_up_at=at("2025-06-18"))
    assert again.engine_result["repeat"] == 1
    assert again.penalty["penalties"] == [{"type": "fine", "amount": "200.00"}]


def test_agent_notice_is_charged_to_the_holder(recife: dict[str, Any]) -> None:
    person = registry.create_person(
        actor=None,
        jurisdiction=recife["j"],
        cpf=sample_cpf(300_000_001),
        full_name="Condutor Auxiliar",
        birth_date=dt.date(1990, 1, 1),
        reason="teste",
    )
    PermitAgent.objects.create(
        jurisdiction=recife["j"],
        permit=recife["permit"],
        person=person,
        role="auxiliary_driver",
        starts_on=dt.date(2025, 1, 1),
    )
    notice = _holder_notice(recife, offender_kind="auxiliary_driver", agent=person)
    assert notice.charged_to_holder is True
    assert notice.holder == recife["holder"]
    assert recife["holder"].infraction_notices.filter(pk=notice.pk).exists()  # in the holder's dossier
    with pytest.raises(ValidationError, match="preposto"):
        _holder_notice(recife, offender_kind="auxiliary_driver", agent=None)


def test_clandestine_notice_without_registry_records(recife: dict[str, Any]) -> None:
    notice = services.draw_up_notice(
        actor=recife["fiscal"],
        jurisdiction=recife["j"],
        drawn_up_at=at("2025-06-16"),
        offender_kind="unlicensed",
        plate="qwe-1r23",
        offender_name="Motorista Sem Cadastro",
        offender_document="12345678900",
        place="Terminal",
        description="Transporte remunerado sem permissão",
        inspector=recife["fiscal"],
    )
    assert notice.infraction_code == "unlicensed_transport"
    assert notice.plate == "QWE1R23" and notice.holder is None and notice.vehicle is None
    assert notice.penalty["penalties"] == [{"type": "fine", "amount": "2000.00"}]
    assert notice.penalty["measures"] == [{"type": "vehicle_seizure"}]
    assert not notice.charged_to_holder


def test_marica_points_go_to_the_ledger(world: Any) -> None:
    j = make_jurisdiction("marica")
    person = registry.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(300_000_002),
        full_name="Permissionária de Maricá",
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    holder = registry.register_holder(actor=None, person=person, reason="teste")
    notice = services.draw_up_notice(
        actor=None,
        jurisdiction=j,
        drawn_up_at=at("2025-06-16"),
        infraction_code="art42-I",
        infraction_group="C",
        offender_kind="permit_holder",
        holder=holder,
        plate="ABC1D23",
        place="Centro",
        description="Condutor não registrado",
        inspector=world.users["fiscal.recife"],
        line=world.objects["recife"]["registry.line"].__class__.objects.create(
            jurisdiction=j, code="M1", name="M1"
        ),
    )
    entry = PointsEntry.objects.get(notice=notice)
    assert entry.points == 4 and entry.person == person and entry.holder == holder
    assert "art. 49, III" in entry.citation


def test_override_needs_a_reason_and_is_audited(recife: dict[str, Any]) -> None:
    notice = _holder_notice(recife)
    new = {"penalties": [{"type": "warning"}], "measures": []}
    with pytest.raises(ValidationError, match="motivo"):
        services.override_penalty(actor=recife["fiscal"], notice=notice, penalty=new, reason="  ")
    notice.refresh_from_db()
    assert (
        notice.penalty["penalties"] == [{"type": "fine", "amount": "100.00"}]
        and not notice.penalty_overridden
    )
    services.override_penalty(
        actor=recife["fiscal"], notice=notice, penalty=new, reason="Erro de enquadramento"
    )
    notice.refresh_from_db()
    assert notice.penalty["penalties"] == [{"type": "warning"}] and notice.penalty_overridden
    assert notice.engine_result["penalties"] == [
        {"type": "fine", "amount": "100.00"}
    ]  # the computed one is kept
    event = AuditEvent.objects.get(action="enforcement.penalty_overridden", object_id=str(notice.pk))
    assert event.reason == "Erro de enquadramento"
    assert event.before["penalty"]["penalties"][0]["type"] == "fine"


@pytest.mark.parametrize(
    ("code", "penalty", "measure"),
    [
        ("esteio", {"type": "fine", "units": "2000", "unit": "UFRM"}, "vehicle_seizure"),  # art. 18
        ("cabo", {"type": "fine", "units": "500", "unit": "UFIR"}, "vehicle_retention"),  # "Da Fiscalização"
    ],
)
def test_clandestine_in_other_laws_records_plate_and_person_outside_registries(
    world: Any, code: str, penalty: dict[str, str], measure: str
) -> None:
    j = world.b if code == "esteio" else make_jurisdiction(code)
    kwargs: dict[str, Any] = {
        "actor": None,
        "jurisdiction": j,
        "drawn_up_at": at("2025-06-16"),
        "offender_kind": "unlicensed",
        "plate": "KLM2N34",
        "offender_name": "Sem Cadastro",
        "place": "Rodoviária",
    }
    first = services.draw_up_notice(**kwargs)
    assert first.penalty["penalties"] == [penalty] and first.penalty["measures"] == [{"type": measure}]
    assert first.vehicle is None and first.holder is None and first.offender_name == "Sem Cadastro"
    if code == "cabo":  # the law does not say what a notice must contain
        assert "notice.required_fields" in first.missing_parameters
    InfractionNotice.objects.filter(pk=first.pk).update(status="decided_final")
    again = services.draw_up_notice(**{**kwargs, "drawn_up_at": at("2025-07-16")})
    if code == "esteio":  # art. 18, par. único: doubled on recidivism, same plate
        assert again.penalty["penalties"] == [{"type": "fine", "units": "4000", "unit": "UFRM"}]


def test_the_infraction_day_is_the_jurisdictions_local_day(world: Any) -> None:
    notice = services.draw_up_notice(
        actor=None,
        jurisdiction=world.b,  # Esteio, America/Sao_Paulo
        drawn_up_at=dt.datetime(2025, 6, 16, 1, 30, tzinfo=dt.UTC),
        offender_kind="unlicensed",
        plate="KLM2N34",
        place="Rodoviária",
    )
    assert notice.evaluated_for == dt.date(2025, 6, 15)


def test_a_law_without_catalogue_takes_the_group_alone_and_never_matches_codes(world: Any) -> None:
    j = make_jurisdiction("cabo")
    person = registry.create_person(
        actor=None,
        jurisdiction=j,
        cpf=sample_cpf(300_000_077),
        full_name="Titular do Cabo",
        birth_date=dt.date(1980, 1, 1),
        reason="teste",
    )
    holder = registry.register_holder(actor=None, person=person, reason="teste", on=dt.date(2010, 1, 1))
    kwargs: dict[str, Any] = {
        "actor": None,
        "jurisdiction": j,
        "infraction_code": "",
        "infraction_group": "grave",
        "offender_kind": "permit_holder",
        "holder": holder,
        "plate": "CAB1O23",
        "place": "Centro",
        "description": "Transporte sem permissão",
        "inspector": world.users["fiscal.recife"],
    }
    first = services.draw_up_notice(**{**kwargs, "drawn_up_at": at("2010-06-01")})
    assert first.infraction_code == "" and first.infraction_group == "grave"
    second = services.prepare_notice(
        **{k: v for k, v in kwargs.items() if k != "actor"}, drawn_up_at=at("2010-06-10")
    )
    codes = [h["code"] for h in penalty.offender_history(second)]
    assert codes == [f"sem-enquadramento-{first.pk}"]  # never equal to another notice's code


def test_a_notice_without_infraction_is_refused(recife: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="Escolha a infração do quadro da lei"):
        _holder_notice(recife, infraction_code="")
