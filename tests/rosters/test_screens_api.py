"""The screens under /escalas/, the road check's "escala em vigor", the duty log's "lavrar auto"
link prefilled, and the API."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.urls import reverse
from django.utils import timezone

from lotacao.rosters import services
from lotacao.rosters.models import DutyLog, Roster

pytestmark = pytest.mark.django_db


def _approved(s: Any) -> Roster:
    roster = services.create_roster(
        actor=s.atendente,
        line=s.line,
        starts_on=timezone.localdate() - dt.timedelta(days=3),
        ends_on=None,
        entries=[
            services.EntryData(
                s.vehicles[0], s.holders[0].person, "1234567", dt.time(6), dt.time(12), "06:00, 07:30"
            )
        ],
    )
    services.submit_roster(
        actor=s.atendente, roster=roster, representative=s.representatives["representative"]
    )
    return services.decide_roster(actor=s.gestor, roster=roster, approve=True, reasons="ok")


def test_roster_screens_walk_recife(setup_for: Any, client: Any) -> None:
    s = setup_for("recife")
    client.force_login(s.atendente)
    assert "Escalas das linhas" in client.get(reverse("rosters:list")).content.decode()
    response = client.post(
        reverse("rosters:create"), {"linha": s.line.pk, "inicio": timezone.localdate().isoformat()}
    )
    assert response.status_code == 302
    roster = Roster.objects.get(line=s.line)
    url = reverse("rosters:detail", args=[roster.pk])
    page = client.get(url).content.decode()
    assert "Incluir veículo e condutor" in page and s.auxiliary.full_name in page
    bad = client.post(
        url,
        {
            "acao": "entry",
            "veiculo": s.vehicles[1].pk,
            "condutor": s.auxiliary.pk,
            "dias": ["1", "2"],
            "inicio": "06:00",
            "fim": "12:00",
        },
    )
    assert bad.status_code == 422 and "não é o permissionário nem condutor" in bad.content.decode()
    ok = client.post(
        url,
        {
            "acao": "entry",
            "veiculo": s.vehicles[0].pk,
            "condutor": s.auxiliary.pk,
            "dias": ["6", "7"],
            "inicio": "06:00",
            "fim": "12:00",
            "partidas": "06:00",
        },
    )
    assert ok.status_code == 302
    refused = client.post(url, {"acao": "submit", "representante": s.representatives["coordinator"].pk})
    assert refused.status_code == 422 and "representante da linha" in refused.content.decode()
    assert (
        client.post(
            url, {"acao": "submit", "representante": s.representatives["representative"].pk}
        ).status_code
        == 302
    )
    # the atendente cannot decide
    assert client.post(url, {"acao": "approve", "razoes": "ok"}).status_code == 403
    client.force_login(s.gestor)
    assert "Aprovar" in client.get(url).content.decode()
    assert client.post(url, {"acao": "approve", "razoes": ""}).status_code == 422
    assert client.post(url, {"acao": "approve", "razoes": "Cumpre a OSO"}).status_code == 302
    roster.refresh_from_db()
    assert roster.status == Roster.Status.APPROVED
    page = client.get(url).content.decode()
    assert "Aprovada" in page and "aprovação da escala da linha" in page


def test_the_road_check_shows_the_roster_in_force(setup_for: Any, client: Any) -> None:
    s = setup_for("recife")
    client.force_login(s.fiscal)
    url = reverse("enforcement:notice_create")
    page = client.get(url, {"jurisdicao": "recife", "placa": s.vehicles[0].plate}).content.decode()
    assert "Escala em vigor" in page and "não tem escala aprovada" in page
    _approved(s)
    page = client.get(url, {"jurisdicao": "recife", "placa": s.vehicles[0].plate}).content.decode()
    assert "Escala em vigor" in page and s.holders[0].person.full_name in page and "todos os dias" in page
    page = client.get(url, {"jurisdicao": "recife", "placa": s.vehicles[1].plate}).content.decode()
    assert "não consta da escala em vigor" in page


def test_an_excess_offers_the_notice_prefilled(setup_for: Any, client: Any) -> None:
    s = setup_for("esteio")
    client.force_login(s.atendente)
    day = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    response = client.post(
        reverse("rosters:duty_log_create"),
        {
            "placa": s.vehicles[0].plate,
            "cpf": s.auxiliary.cpf,
            "dia": day,
            "inicio0": "05:00",
            "fim0": "11:00",
            "inicio1": "12:00",
            "fim1": "17:00",
        },
    )
    assert response.status_code == 302
    log = DutyLog.objects.get(driver=s.auxiliary)
    page = client.get(reverse("rosters:duty_log", args=[log.pk])).content.decode()
    assert "Acima dos limites" in page and "Lavrar auto" in page and "III-16" in page
    client.force_login(s.fiscal)
    page = client.get(reverse("rosters:duty_log", args=[log.pk])).content.decode()
    link = next(part.split('"')[0] for part in page.split('href="')[1:] if "infracao=III-16" in part)
    query = parse_qs(urlparse(link.replace("&amp;", "&")).query)
    assert query["placa"] == [s.vehicles[0].plate] and query["jurisdicao"] == ["esteio"]
    form = client.get(link.replace("&amp;", "&")).content.decode()
    assert "III-16" in form and "acima do máximo diário" in form
    bad = client.post(reverse("rosters:duty_log_create"), {})
    assert bad.status_code == 403  # the fiscal does not record duty logs


def test_duty_log_form_refuses_bad_input(setup_for: Any, client: Any) -> None:
    s = setup_for("recife")
    client.force_login(s.atendente)
    url = reverse("rosters:duty_log_create")
    day = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    for data, words in (
        (
            {"placa": "ZZZ9Z99", "cpf": s.auxiliary.cpf, "dia": day, "inicio0": "06:00", "fim0": "07:00"},
            "não é de um veículo",
        ),
        (
            {"placa": s.vehicles[0].plate, "cpf": "123", "dia": day, "inicio0": "06:00", "fim0": "07:00"},
            "CPF",
        ),
        ({"placa": s.vehicles[0].plate, "cpf": s.auxiliary.cpf, "dia": day}, "Informe ao menos um período"),
        (
            {
                "placa": s.vehicles[0].plate,
                "cpf": s.auxiliary.cpf,
                "dia": day,
                "inicio0": "08:00",
                "fim0": "07:00",
            },
            "termina antes",
        ),
    ):
        response = client.post(url, data)
        assert response.status_code == 422 and words in response.content.decode(), words
    assert not DutyLog.objects.filter(vehicle=s.vehicles[0]).exists()


def test_api(setup_for: Any, client: Any) -> None:
    s = setup_for("recife")
    roster = _approved(s)
    client.force_login(s.fiscal)
    body = client.get("/api/rosters/in-force", {"plate": s.vehicles[0].plate}).json()
    assert body["roster"]["id"] == roster.pk and body["scheduled_today"] is True
    assert client.get("/api/rosters/rosters").status_code == 200
    response = client.post(
        "/api/rosters/duty-logs",
        {
            "plate": s.vehicles[0].plate,
            "cpf": s.holders[0].person.cpf,
            "day": timezone.localdate().isoformat(),
            "periods": [{"start": "06:00", "end": "13:00"}],
        },
        content_type="application/json",
    )
    assert response.status_code == 403
    client.force_login(s.atendente)
    response = client.post(
        "/api/rosters/duty-logs",
        {
            "plate": s.vehicles[0].plate,
            "cpf": s.holders[0].person.cpf,
            "day": timezone.localdate().isoformat(),
            "periods": [{"start": "06:00", "end": "13:00"}],
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert [v["rule"] for v in response.json()["violations"]] == ["max_continuous"]
    bad = client.post(
        "/api/rosters/duty-logs",
        {
            "plate": s.vehicles[0].plate,
            "cpf": s.auxiliary.cpf,
            "day": timezone.localdate().isoformat(),
            "periods": [{"start": "6", "end": "13:00"}],
        },
        content_type="application/json",
    )
    assert bad.status_code == 422 and "HH:MM" in bad.json()["detail"]
    assert (
        client.post(
            f"/api/rosters/rosters/{roster.pk}/decision",
            {"approve": True, "reasons": "x"},
            content_type="application/json",
        ).status_code
        == 403
    )
    # a holder sees only their own duty logs
    from lotacao.accounts.models import HolderAccount

    client.force_login(HolderAccount.objects.get(holder=s.holders[1]).user)
    assert client.get("/api/rosters/duty-logs").json() == []
    client.force_login(HolderAccount.objects.get(holder=s.holders[0]).user)
    assert len(client.get("/api/rosters/duty-logs").json()) == 1


def test_a_holder_records_and_sees_only_their_own_duty_logs(setup_for: Any, client: Any) -> None:
    from lotacao.accounts.models import HolderAccount

    s = setup_for("recife")
    day = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    client.force_login(HolderAccount.objects.get(holder=s.holders[0]).user)
    other = client.post(
        reverse("rosters:duty_log_create"),
        {
            "placa": s.vehicles[1].plate,
            "cpf": s.holders[1].person.cpf,
            "dia": day,
            "inicio0": "06:00",
            "fim0": "10:00",
        },
    )
    assert other.status_code == 422 and "em seu nome" in other.content.decode()
    own = client.post(
        reverse("rosters:duty_log_create"),
        {
            "placa": s.vehicles[0].plate,
            "cpf": s.auxiliary.cpf,
            "dia": day,
            "inicio0": "06:00",
            "fim0": "10:00",
        },
    )
    assert own.status_code == 302
    log = DutyLog.objects.get(driver=s.auxiliary)
    assert client.get(reverse("rosters:duty_log", args=[log.pk])).status_code == 200
    assert "Lavrar auto" not in client.get(reverse("rosters:duty_log", args=[log.pk])).content.decode()
    client.force_login(HolderAccount.objects.get(holder=s.holders[1]).user)
    assert client.get(reverse("rosters:duty_log", args=[log.pk])).status_code == 404
    assert s.auxiliary.full_name not in client.get(reverse("rosters:duty_logs")).content.decode()
    assert client.get(reverse("rosters:list")).status_code == 403  # rosters are the agency's
