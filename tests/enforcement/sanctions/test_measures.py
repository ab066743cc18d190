"""Administrative measures on a notice and their release, per law (sanctions/measures.py): Esteio
seizure (fault fixed, fees and dues — dues checked against the fines), Maricá retention
(authorization), Recife document seizure, Pernambuco seizure; every refusal; audit."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.audit.models import AuditEvent
from lotacao.enforcement.models import Fine, InfractionNotice, Measure
from lotacao.enforcement.notices import services
from lotacao.enforcement.sanctions import measures as svc
from tests.enforcement.conftest import at, make_jurisdiction
from tests.enforcement.sanctions.measure_helpers import (
    DAY,
    _apply,
    _clandestine,
    _fine,
    _meet,
    _release,
    _row,
)

pytestmark = pytest.mark.django_db


def test_esteio_seizure_needs_fault_fees_and_dues_and_checks_the_fines(world: Any) -> None:
    earlier = _clandestine(world.b, day="2025-05-02")
    fine = _fine(earlier, due_on=dt.date(2025, 6, 1))  # same plate, open, overdue
    notice = _clandestine(world.b)
    assert notice.penalty["measures"] == [{"type": "vehicle_seizure"}]
    measure = _apply(notice, "vehicle_seizure")
    assert [c["id"] for c in measure.conditions] == ["fault_fixed", "fees_paid", "dues_paid"]
    assert "Anexo I, art. 13, § 3º" in measure.citations and measure.missing_parameters == []
    _meet(measure, "fault_fixed")
    _meet(measure, "fees_paid", note="Guia de remoção e estadia paga, recibo 123")
    with pytest.raises(ValidationError, match=r"multa vencida e não paga.*art\. 13, § 3º") as refused:
        _meet(measure, "dues_paid")
    assert earlier.number in refused.value.messages[0]
    with pytest.raises(ValidationError, match="Todos os valores devidos pagos, inclusive multas"):
        _release(measure)
    assert not Measure.objects.get(pk=measure.pk).conditions[2]["met_on"]
    Fine.objects.filter(pk=fine.pk).update(status="paid", paid_on=DAY)
    measure = _meet(measure, "dues_paid")
    assert "Verificado pelo sistema" in measure.conditions[2]["note"]
    measure = _release(measure)
    assert measure.status == "released" and measure.released_on == DAY


def test_a_fine_not_yet_due_or_of_another_offender_does_not_block_dues(world: Any) -> None:
    _fine(_clandestine(world.b, day="2025-05-02"), due_on=dt.date(2025, 6, 30))  # not yet due
    _fine(_clandestine(world.b, day="2025-05-03", plate="OTH9E99"), due_on=dt.date(2025, 6, 1))
    measure = _apply(_clandestine(world.b), "vehicle_seizure")
    assert _meet(measure, "dues_paid").conditions[2]["met_on"] == DAY.isoformat()


def test_a_holders_overdue_fine_blocks_their_dues(world: Any, recife: dict[str, Any]) -> None:
    older = _row(recife["j"], "AI-R-1", [], offender_kind="permit_holder", holder=recife["holder"])
    _fine(older, due_on=dt.date(2025, 6, 10))
    notice = _row(
        recife["j"], "AI-R-2", ["vehicle_seizure"], offender_kind="permit_holder", holder=recife["holder"]
    )
    measure = _apply(notice, "vehicle_seizure")
    assert list(svc.overdue_fines(measure, DAY)) == [older.fine]


def test_marica_retention_needs_the_presidents_authorization(world: Any) -> None:
    marica = make_jurisdiction("marica")
    notice = _row(marica, "AI-M-1", [])  # the engine lists no retention for this notice
    with pytest.raises(ValidationError, match="não lista retenção do veículo"):
        _apply(notice, "vehicle_retention")
    why = "Veículo sem condições de segurança (art. 53, II), constatado pelo agente"
    measure = _apply(notice, "vehicle_retention", reason=why)
    assert measure.citations[0].startswith(svc.OUTSIDE_FLAG) and why in measure.detail
    assert [c["id"] for c in measure.conditions] == ["fault_fixed", "authorization"]
    _meet(measure, "fault_fixed", note="Pneu trocado")
    with pytest.raises(ValidationError, match=r"Autorização do Presidente da EPT \(art. 54\)"):
        _release(measure)
    _meet(measure, "authorization", note="Despacho do Presidente nº 12/2025")
    assert _release(measure).status == "released"


def test_recife_document_seizure_released_when_regularized(recife: dict[str, Any]) -> None:
    notice = services.draw_up_notice(
        actor=None,
        jurisdiction=recife["j"],
        drawn_up_at=at("2025-06-16"),
        infraction_code="G3-a",
        offender_kind="permit_holder",
        place="Av. Norte, 100",
        description="Descumpriu portaria",
        permit=recife["permit"],
        inspector=recife["fiscal"],
    )
    kinds = {m["type"] for m in notice.penalty["measures"]}
    assert {"vehicle_seizure", "document_seizure"} <= kinds
    measure = _apply(notice, "document_seizure", detail="CRLV e alvará recolhidos")
    assert measure.conditions == [
        {
            "id": "fault_fixed",
            "label": "Regularização do motivo do recolhimento",
            "cite": "art. 38, § 5º",
            "met_on": None,
            "note": "",
            "by": "",
        }
    ]
    _meet(measure, "fault_fixed", actor=recife["fiscal"], note="Portaria cumprida")
    measure = Measure.objects.get(pk=measure.pk)
    assert measure.conditions[0]["by"] == "fiscal.recife"
    assert _release(measure).status == "released"


def test_recife_retention_has_no_condition_so_release_needs_a_note(recife: dict[str, Any]) -> None:
    notice = _row(recife["j"], "AI-R-3", ["vehicle_retention"], holder=recife["holder"])
    measure = _apply(notice, "vehicle_retention")
    assert measure.conditions == []
    with pytest.raises(ValidationError, match="não fixa condição"):
        _release(measure)
    assert _release(measure, note="Irregularidade sanada no local").release_note


def test_pernambuco_seizure_needs_dues_and_fees(world: Any) -> None:
    pe = make_jurisdiction("pernambuco")
    overdue = _fine(_row(pe, "AI-P-0", []), due_on=dt.date(2025, 6, 1))
    measure = _apply(_row(pe, "AI-P-1", ["vehicle_seizure"]), "vehicle_seizure")
    assert [c["id"] for c in measure.conditions] == ["dues_paid", "fees_paid"]
    assert "art. 29-A, parágrafo único" in measure.citations
    with pytest.raises(ValidationError, match="AI-P-0"):
        _meet(measure, "dues_paid")
    Fine.objects.filter(pk=overdue.pk).update(status="paid")
    _meet(measure, "dues_paid")
    _meet(measure, "fees_paid", note="Transbordo, remoção e estadia pagos")
    assert _release(measure).status == "released"


def test_release_rechecks_dues_on_the_release_day(world: Any) -> None:
    pe = make_jurisdiction("pernambuco")
    measure = _apply(_row(pe, "AI-P-1", ["vehicle_seizure"]), "vehicle_seizure")
    _meet(measure, "dues_paid", on=DAY)
    _meet(measure, "fees_paid")
    _fine(_row(pe, "AI-P-2", []), due_on=DAY)  # falls overdue the next day
    with pytest.raises(ValidationError, match="multa vencida"):
        _release(measure, on=DAY + dt.timedelta(days=1))
    assert _release(measure, on=DAY).status == "released"


def test_esteio_suspension_takes_the_days_and_the_term_must_be_served(world: Any) -> None:
    notice = _row(world.b, "AI-E-1", [])
    notice.penalty = {"penalties": [], "measures": [{"type": "permit_suspension", "days": 60}]}
    notice.save()
    measure = _apply(notice, "permit_suspension")
    assert measure.days == 60
    with pytest.raises(ValidationError, match="só se cumpre em 15/08/2025"):
        _meet(measure, "term_served", on=dt.date(2025, 8, 14), note="Prazo")
    # a date of the future is refused too; the term ends within the past here
    assert dt.date(2025, 8, 15) <= timezone.localdate()
    assert _meet(measure, "term_served", on=dt.date(2025, 8, 15), note="Prazo").conditions[0]["met_on"]


def test_apply_refusals_change_nothing(world: Any, recife: dict[str, Any]) -> None:
    notice = _row(recife["j"], "AI-R-9", ["vehicle_seizure"])
    future = timezone.now() + dt.timedelta(days=1)
    cases = [
        ({"kind": "credit_offset"}, "desconhecida"),
        ({"kind": "vehicle_seizure", "applied_at": at("2025-06-15")}, "anterior à infração"),
        ({"kind": "vehicle_seizure", "applied_at": future}, "futuro"),
        ({"kind": "vehicle_seizure", "applied_at": dt.datetime(2025, 6, 16, 11)}, "fuso horário"),
        ({"kind": "vehicle_seizure", "reason": " "}, "motivo"),
        ({"kind": "vehicle_seizure", "days": 10}, "Dias só se informam"),
        ({"kind": "document_seizure", "reason": "curto"}, "não lista recolhimento de documentos"),
    ]
    for over, message in cases:
        with pytest.raises(ValidationError, match=message):
            _apply(notice, **over)
    assert not Measure.objects.filter(notice=notice).exists()
    _apply(notice, "vehicle_seizure")
    with pytest.raises(ValidationError, match="Já há remoção e apreensão do veículo em vigor"):
        _apply(notice, "vehicle_seizure")
    for status in ("annulled", "archived"):
        InfractionNotice.objects.filter(pk=notice.pk).update(status=status)
        with pytest.raises(ValidationError, match="não cabe medida"):
            _apply(notice, "document_seizure", reason="Motivo longo o bastante para registrar")
    assert Measure.objects.filter(notice=notice).count() == 1


def test_condition_and_release_refusals_change_nothing(world: Any) -> None:
    measure = _apply(_clandestine(world.b), "vehicle_seizure")
    before = list(Measure.objects.get(pk=measure.pk).conditions)
    cases = [
        ({"condition": "authorization"}, "não fixa a condição"),
        ({"condition": "fault_fixed", "on": dt.date(2025, 6, 15)}, "anterior à aplicação"),
        ({"condition": "fault_fixed", "on": timezone.localdate() + dt.timedelta(days=2)}, "futuro"),
        ({"condition": "fees_paid", "note": ""}, "Informe o que comprova"),
        ({"condition": "fault_fixed", "reason": ""}, "motivo"),
    ]
    for over, message in cases:
        with pytest.raises(ValidationError, match=message):
            _meet(measure, **over)
    assert Measure.objects.get(pk=measure.pk).conditions == before
    _meet(measure, "fault_fixed")
    with pytest.raises(ValidationError, match="já foi cumprida"):
        _meet(measure, "fault_fixed")
    with pytest.raises(
        ValidationError, match=r"Preços públicos de remoção e estadia pagos \(Anexo I, art. 13, § 2º\)"
    ):
        _release(measure)
    _meet(measure, "fees_paid")
    _meet(measure, "dues_paid")
    with pytest.raises(ValidationError, match="anterior à aplicação"):
        _release(measure, on=dt.date(2025, 6, 1))
    _release(measure)
    with pytest.raises(ValidationError, match="já foi liberada"):
        _release(measure)
    with pytest.raises(ValidationError, match="já foi liberada"):
        _meet(measure, "fault_fixed")


def test_every_step_is_audited_with_its_reason(world: Any) -> None:
    fiscal = world.users["fiscal.esteio"]
    measure = _apply(_clandestine(world.b), "vehicle_seizure", actor=fiscal)
    assert measure.recorded_by == fiscal
    _meet(measure, "fault_fixed", reason="Freio consertado")
    _meet(measure, "fees_paid")
    _meet(measure, "dues_paid")
    _release(measure)
    events = AuditEvent.objects.filter(object_type="enforcement.measure", object_id=str(measure.pk))
    actions = list(events.order_by("id").values_list("action", flat=True))
    assert actions == [
        "enforcement.measure_applied",
        "enforcement.measure_condition_met",
        "enforcement.measure_condition_met",
        "enforcement.measure_condition_met",
        "enforcement.measure_released",
    ]
    assert events.filter(reason="Freio consertado").exists()
    assert events.order_by("id").first().actor == fiscal  # type: ignore[union-attr]


def test_an_undefined_release_is_a_missing_parameter(world: Any, monkeypatch: Any) -> None:
    from lotacao.enforcement.sanctions import measures

    monkeypatch.setattr(measures, "entry", lambda *a, **k: None)
    notice = _clandestine(world.b)
    notice.engine_result = {k: v for k, v in notice.engine_result.items() if k != "release_conditions"}
    notice.save(update_fields=["engine_result"])  # a notice drawn up before the engine listed them
    measure = _apply(notice, "vehicle_seizure")
    assert measure.conditions == [] and measure.missing_parameters == ["measure.release"]
