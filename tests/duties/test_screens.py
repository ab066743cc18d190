"""The /deveres/ screens: the holder files and asks, staff enter, review and decide; tenancy
(a row outside the scope is a 404) and roles (a refusal is a 403)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.duties.models import Authorization, IncidentReport
from tests import clock
from tests.duties.conftest import jpeg, set_value


def test_the_holder_files_an_accident_with_a_photo(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    page = client.get("/deveres/ocorrencias/nova/")
    assert page.status_code == 200
    assert "art. 13, VI" in page.content.decode()
    vehicle = world.objects["recife"]["registry.vehicle"]
    answer = client.post(
        "/deveres/ocorrencias/nova/",
        {
            "veiculo": vehicle.pk,
            "natureza": "accident",
            "data": (clock.today() - dt.timedelta(days=1)).isoformat(),
            "hora": "08:30",
            "local": "Av. Norte",
            "vitimas": "nao",
            "descricao": "Colisão leve.",
            "fotos": [jpeg()],
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    report = IncidentReport.objects.get()
    assert report.source == "holder" and report.photos.count() == 1
    detail = client.get(answer["Location"]).content.decode()
    assert report.protocol in detail and "Foto 1" in detail
    photo = client.get(f"/deveres/ocorrencias/fotos/{report.photos.get().pk}/")
    assert photo.status_code == 200 and photo["Content-Type"] == "image/jpeg"
    client.force_login(world.users["holder1.recife"])
    assert client.get(answer["Location"]).status_code == 404
    assert client.get(f"/deveres/ocorrencias/fotos/{report.photos.get().pk}/").status_code == 404
    client.force_login(world.users["atendente.esteio"])
    assert client.get(answer["Location"]).status_code == 404


def test_a_refused_form_keeps_what_was_typed_and_records_nothing(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    vehicle = world.objects["recife"]["registry.vehicle"]
    answer = client.post(
        "/deveres/ocorrencias/nova/",
        {
            "veiculo": vehicle.pk,
            "natureza": "accident",
            "data": "2099-01-01",
            "hora": "08:30",
            "descricao": "Texto X",
        },
    )
    assert answer.status_code == 422
    body = answer.content.decode()
    assert "não podem ser futuras" in body and "Texto X" in body
    assert not IncidentReport.objects.exists()


def test_staff_enter_a_report_by_plate_and_review_it(world: Any, client: Any) -> None:
    client.force_login(world.users["atendente.recife"])
    answer = client.post(
        "/deveres/ocorrencias/nova/",
        {
            "placa": "ABA1C23",
            "natureza": "incident",
            "data": "2025-06-06",
            "hora": "10:00",
            "descricao": "Pane elétrica.",
        },
    )
    assert answer.status_code == 302
    report = IncidentReport.objects.get()
    assert report.source == "staff" and report.late is True
    page = client.get(answer["Location"]).content.decode()
    assert "Infração sugerida" in page and "Grupo 2, o" in page
    on_time = client.post(
        "/deveres/ocorrencias/nova/",
        {
            "placa": "ABA1C23",
            "natureza": "accident",
            "data": "2025-06-06",
            "hora": "10:00",
            "descricao": "Comunicado por telefone.",
            "comunicado_data": "2025-06-09",
            "comunicado_hora": "09:00",
        },
    )
    assert on_time.status_code == 302
    assert IncidentReport.objects.get(description="Comunicado por telefone.").late is False
    client.post(answer["Location"], {"analise": "Auto lavrado."})
    report.refresh_from_db()
    assert report.reviewed_at is not None
    client.force_login(world.users["fiscal.recife"])
    assert client.post(answer["Location"], {"analise": "x"}).status_code == 403
    assert client.get("/deveres/ocorrencias/?atrasadas=1").status_code == 200


def test_the_holder_asks_and_the_manager_decides(world: Any, client: Any) -> None:
    client.force_login(world.users["holder0.recife"])
    form = client.get("/deveres/autorizacoes/nova/").content.decode()
    assert "Publicidade no veículo" in form and "Retirada ou venda" not in form
    vehicle = world.objects["recife"]["registry.vehicle"]
    answer = client.post(
        "/deveres/autorizacoes/nova/",
        {
            "autorizacao": "leave_municipality",
            "veiculo": vehicle.pk,
            "inicio": clock.today().isoformat(),
            "fim": (clock.today() + dt.timedelta(days=2)).isoformat(),
            "motivo": "Excursão a Olinda.",
        },
    )
    assert answer.status_code == 302
    row = Authorization.objects.get()
    url = answer["Location"]
    assert client.post(url, {"acao": "grant", "razoes": "x", "fundamento": "y"}).status_code == 403
    client.force_login(world.users["atendente.recife"])
    assert client.post(url, {"acao": "grant", "razoes": "x", "fundamento": "y"}).status_code == 403
    client.force_login(world.users["gestor.recife"])
    refused = client.post(url, {"acao": "grant", "razoes": "", "fundamento": "art. 13, XI"})
    assert refused.status_code == 422 and "razões" in refused.content.decode()
    client.post(url, {"acao": "grant", "razoes": "Viagem de um dia.", "fundamento": "art. 13, XI"})
    row.refresh_from_db()
    assert row.status == "granted"
    client.force_login(world.users["fiscal.recife"])
    register = client.get("/deveres/autorizacoes/?vigentes=1").content.decode()
    assert "Saída do veículo do município" in register
    client.force_login(world.users["gestor.esteio"])
    assert client.get(url).status_code == 404


def test_the_holder_withdraws_a_pending_request(world: Any, client: Any) -> None:
    from lotacao.duties import services

    row = services.request_authorization(
        actor=None,
        holder=world.objects["recife"]["registry.holder"],
        kind="interruption",
        starts_on=clock.today(),
        ends_on=clock.today() + dt.timedelta(days=3),
        purpose="Reforma.",
    )
    client.force_login(world.users["holder0.recife"])
    client.post(f"/deveres/autorizacoes/{row.pk}/", {"acao": "withdraw"})
    row.refresh_from_db()
    assert row.status == "withdrawn"


def test_reports_page_for_the_holder_and_for_staff(world: Any, client: Any) -> None:
    holder = world.objects["recife"]["registry.holder"]
    client.force_login(world.users["gestor.recife"])
    page = client.get("/deveres/relatorios/").content.decode()
    assert "valores a informar" in page and "art. 13, XXVI" in page
    set_value(
        "recife",
        "report.operational_data",
        {"every_months": 1, "due_days": 10},
        since=clock.today().replace(day=1) - dt.timedelta(days=70),
    )
    from lotacao.permits.models import Permit

    Permit.unscoped.filter(holder=holder).update(granted_on=clock.today() - dt.timedelta(days=70))
    holder.__class__.unscoped.filter(pk=holder.pk).update(created_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    client.force_login(world.users["holder0.recife"])
    page = client.get("/deveres/relatorios/").content.decode()
    assert "Entregar" in page and "Declarações de demanda" in page
    first = (clock.today().replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    answer = client.post(
        "/deveres/relatorios/",
        {"relatorio": "operational_data", "periodo": first.isoformat(), "observacoes": "Passageiros: 3.000."},
    )
    assert answer.status_code == 302
    assert "Entregue em" in client.get("/deveres/relatorios/").content.decode()
    home = client.get("/deveres/").content.decode()
    assert "Prazos" in home
    client.force_login(world.users["holder1.recife"])
    assert (
        client.get(f"/deveres/relatorios/?permissionario={holder.pk}").status_code == 200
    )  # their own, ignored
    client.force_login(world.users["atendente.esteio"])
    assert client.get(f"/deveres/relatorios/?permissionario={holder.pk}").status_code == 404


def test_pages_answer_for_every_role(world: Any, client: Any) -> None:
    for user in ("holder0.recife", "gestor.recife", "fiscal.esteio", "comissao.recife"):
        client.force_login(world.users[user])
        for url in ("/deveres/", "/deveres/ocorrencias/", "/deveres/autorizacoes/", "/deveres/relatorios/"):
            assert client.get(url).status_code == 200, (user, url)
    client.logout()
    assert client.get("/deveres/").status_code == 302


def test_the_road_check_shows_the_authorizations_in_force(world: Any, client: Any) -> None:
    from lotacao.duties import services

    row = services.request_authorization(
        actor=None,
        holder=world.objects["recife"]["registry.holder"],
        vehicle=world.objects["recife"]["registry.vehicle"],
        kind="other_use",
        starts_on=clock.today(),
        ends_on=clock.today() + dt.timedelta(days=1),
        purpose="Casamento no sábado.",
    )
    client.force_login(world.users["fiscal.recife"])
    before = client.get("/fiscalizacao/autos/novo/?placa=ABA1C23&jurisdicao=recife").content.decode()
    assert "Nenhuma autorização prévia vigente" in before
    services.decide_authorization(
        actor=world.users["gestor.recife"],
        authorization=row,
        grant=True,
        reasons="ok",
        citation="art. 13, XII",
    )
    after = client.get("/fiscalizacao/autos/novo/?placa=ABA1C23&jurisdicao=recife").content.decode()
    assert "Uso do veículo para outros fins" in after and "art. 13, XII; art. 16, § 2º" in after
