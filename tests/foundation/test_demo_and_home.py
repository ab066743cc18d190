from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from lotacao.accounts.models import HolderAccount, StaffMembership, User
from lotacao.core.models import Jurisdiction
from lotacao.registry.models import Holder, Line, Vehicle

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]


@pytest.fixture
def demo(db: Any) -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_demo_loads_five_jurisdictions_with_every_login(demo: str) -> None:
    assert set(Jurisdiction.objects.values_list("code", flat=True)) == set(CODES)
    for code in CODES:
        for role in ("gestor", "atendente", "fiscal", "comissao"):
            user = User.objects.get(username=f"{role}.{code}")
            assert user.check_password("lotacao-demo")
            assert StaffMembership.objects.filter(user=user, jurisdiction_id=code, role=role).exists()
            assert f"{role}.{code}" in demo
        account = HolderAccount.objects.get(user__username=f"permissionario.{code}")
        assert account.holder.jurisdiction_id == code
        assert Vehicle.objects.filter(jurisdiction_id=code).count() >= 3
    assert "http://127.0.0.1:8000/" in demo and "lotacao-demo" in demo


def test_pernambuco_demo_is_chartering_companies_without_lines(demo: str) -> None:
    assert not Line.objects.filter(jurisdiction_id="pernambuco").exists()
    assert all(h.kind == "company" for h in Holder.objects.filter(jurisdiction_id="pernambuco"))
    assert HolderAccount.objects.get(user__username="permissionario.pernambuco").holder.kind == "company"


def test_running_the_demo_twice_duplicates_nothing(demo: str) -> None:
    counts = (User.objects.count(), Holder.objects.count(), Vehicle.objects.count(), Line.objects.count())
    out = StringIO()
    call_command("load_demo", "--quiet-logins", stdout=out)
    assert "0 registros criados" in out.getvalue()
    assert counts == (
        User.objects.count(),
        Holder.objects.count(),
        Vehicle.objects.count(),
        Line.objects.count(),
    )


def test_manager_of_recife_sees_recife_counts_and_nothing_of_esteio(demo: str, client: Any) -> None:
    client.force_login(User.objects.get(username="gestor.recife"))
    body = client.get("/").content.decode()
    assert "Recife" in body and "Esteio" not in body
    vehicles = Vehicle.objects.filter(jurisdiction_id="recife").count()
    assert f"<strong>{vehicles}</strong> Veículos" in body
    vehicles_page = client.get("/cadastro/veiculos/").content.decode()
    assert "PEA" in vehicles_page and "IST" not in vehicles_page


def test_holder_home_shows_only_their_own_vehicles(demo: str, client: Any) -> None:
    account = HolderAccount.objects.get(user__username="permissionario.marica")
    client.force_login(account.user)
    body = client.get("/", follow=True).content.decode()
    own = Vehicle.objects.filter(holder=account.holder)
    others = Vehicle.objects.filter(jurisdiction_id="marica").exclude(holder=account.holder)
    assert all(v.plate_display in body for v in own)
    assert not any(v.plate_display in body for v in others)


def test_operator_sees_every_jurisdiction_and_the_admin(demo: str, client: Any) -> None:
    client.force_login(User.objects.get(username="operador"))
    body = client.get("/").content.decode()
    assert all(
        name in body for name in ("Recife", "Esteio", "Maricá", "Pernambuco", "Cabo de Santo Agostinho")
    )
    assert client.get("/admin/").status_code == 200


def test_the_demo_opens_on_a_filled_work_queue(demo: str, client: Any) -> None:
    from lotacao.workqueue.models import WorkItem

    for code in CODES:
        assert WorkItem.objects.filter(jurisdiction_id=code, status="aberto").exists(), code
    client.force_login(User.objects.get(username="atendente.recife"))
    assert "Nada pendente" not in client.get("/fila/").content.decode()


def test_each_role_opens_on_its_own_figures(demo: str, client: Any) -> None:
    client.force_login(User.objects.get(username="fiscal.recife"))
    body = client.get("/").content.decode()
    assert "Vistorias agendadas" in body and "Documentos a analisar" not in body
    client.force_login(User.objects.get(username="atendente.recife"))
    body = client.get("/").content.decode()
    assert "Documentos a analisar" in body and "Itens na fila de trabalho" in body
    client.force_login(User.objects.get(username="comissao.recife"))
    body = client.get("/").content.decode()
    assert "Permissões cassadas" in body and "Documentos a analisar" not in body


def test_holder_home_lists_their_permits(demo: str, client: Any) -> None:
    from lotacao.permits.models import Permit

    account = HolderAccount.objects.get(user__username="permissionario.recife")
    client.force_login(account.user)
    body = client.get("/", follow=True).content.decode()
    own = Permit.objects.filter(holder=account.holder)
    assert own.exists() and all(str(p) in body for p in own)
    others = Permit.objects.filter(jurisdiction_id="recife").exclude(holder=account.holder).exclude(number="")
    assert not any(f">{p}<" in body for p in others)
