"""Every demo holder of the five jurisdictions does their side of the law over HTTP (issue 21,
"Done when"; the browser journey on a phone covers Recife and Maricá): sign in with the demo
password, land on the portal, read what they must do and what they owe in R$, file a request —
a document for review, or a Pernambuco company's CRC request through chartering —, report an
incident, and pay a slip whose Pix code works: the BR Code is valid (CRC16, amount) and the bank's
Pix notification carrying its txid pays the charge, which leaves the home. Then Recife's holder,
out of debt, books an inspection slot the agency opened."""

from __future__ import annotations

import html as html_lib
import re
from io import StringIO
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from lotacao.accounts.models import HolderAccount, User
from lotacao.accounts.tokens import create_token
from lotacao.billing.models import Charge
from lotacao.core.models import Jurisdiction
from lotacao.demo.documents import pdf_bytes
from lotacao.holder_requests.models import Request
from tests import clock
from tests.portal.brcode import check_pix, reais, txid

CODES = ["recife", "cabo", "esteio", "marica", "pernambuco"]
DEMO_PASSWORD = "lotacao-demo"
PERMIT_WORDS = ("Permissionário", "permissão", "Outorga", "preposto")


@pytest.fixture
def demo(db: Any) -> None:
    call_command("load_demo", "--quiet-logins", stdout=StringIO())


def _main(response: Any) -> str:
    page = response.content.decode()
    return page[page.find("<main") : page.find("</main>")]


def _text(fragment: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)))


def _link(fragment: str, words: str) -> str:
    """The href of the first link whose text contains `words`."""
    for href, inner in re.findall(r'<a [^>]*href="([^"]+)"[^>]*>(.*?)</a>', fragment, re.S):
        if words in _text(inner):
            return html_lib.unescape(href)
    raise AssertionError(f"sem link “{words}” em {_text(fragment)[:1500]}")


def _section(fragment: str, section_id: str) -> str:
    start = fragment.find(f'id="{section_id}"')
    assert start >= 0, f"sem a seção {section_id}"
    return fragment[start : fragment.find("</section>", start)]


def _options(fragment: str, name: str) -> list[str]:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', fragment, re.S)
    assert select, f"sem a lista {name}: {_text(fragment)[:2000]}"
    return [v for v in re.findall(r'<option value="([^"]*)"', select.group(1)) if v]


def _sign_in(code: str) -> tuple[Client, HolderAccount]:
    client = Client()
    username = f"permissionario.{code}"
    response = client.post("/conta/entrar/", {"username": username, "password": DEMO_PASSWORD}, follow=True)
    assert response.redirect_chain and response.redirect_chain[-1][0] == "/portal/", (
        code,
        response.redirect_chain,
    )
    return client, HolderAccount.objects.select_related("holder").get(user__username=username)


def _home(client: Client, code: str) -> str:
    home = _main(client.get("/portal/"))
    deadlines, debts = _section(home, "prazos"), _section(home, "debitos")
    assert "O que fazer e até quando" in deadlines and "<li" in deadlines, code
    assert "O que devo" in debts and "Total em reais" in _text(debts), code
    assert reais(_text(debts)) > 0, code
    return home


def _file_a_document(client: Client, home: str, code: str) -> str:
    """A municipal holder sends a document for review; returns its protocol."""
    requests_page = _main(client.get(_link(_section(home, "pedidos"), "Fazer um pedido")))
    form_url = _link(requests_page, "Enviar documento para análise")
    form = _main(client.get(form_url))
    assert "Enviar documento para análise" in form, code
    upload = SimpleUploadedFile("certidao.pdf", pdf_bytes("Certidão"), content_type="application/pdf")
    response = client.post(
        form_url,
        {
            "code": _options(form, "code")[0],
            "file": upload,
            "issued_on": clock.days_from_today(-2).isoformat(),
            "valid_until": clock.days_from_today(90).isoformat(),
            "statement": "Envio pelo portal.",
        },
        follow=True,
    )
    found = re.search(r"Pedido protocolado sob o nº (\S+?)\.", _text(_main(response)))
    assert found, (code, _text(_main(response))[:1500])
    return found.group(1)


def _ask_an_authorization(client: Client, home: str, code: str) -> str:
    """A prior authorization (Esteio: the sale of the vehicle, Anexo II, IV-08): returns its page."""
    authorizations = _main(client.get(_link(_section(home, "pedidos"), "Autorizações prévias")))
    form_url = _link(authorizations, "Pedir autorização prévia")
    form = _main(client.get(form_url))
    kinds = _options(form, "autorizacao")
    kind = "sale" if "sale" in kinds else kinds[0]
    response = client.post(
        form_url,
        {
            "autorizacao": kind,
            "veiculo": _options(form, "veiculo")[0],
            "inicio": clock.days_from_today(5).isoformat(),
            "fim": clock.days_from_today(35).isoformat(),
            "motivo": "Venda do veículo para a troca por um mais novo.",
        },
        follow=True,
    )
    assert "Pedido registrado: o órgão gestor vai decidir" in _text(response.content.decode()), (
        code,
        _text(_main(response))[:1500],
    )
    return str(response.redirect_chain[-1][0])


def _file_a_crc_request(client: Client, home: str) -> str:
    """Pernambuco's company asks the CRC's renewal through chartering; returns the request page."""
    requests = _section(home, "pedidos")
    assert "Pedidos e comunicações da empresa" in _text(requests)
    form_url = _link(requests, "Pedir a renovação do CRC")
    form = _main(client.get(form_url))
    modalities = re.findall(r'name="modalities" value="([^"]+)"', form)
    assert modalities, _text(form)[:1500]
    response = client.post(
        form_url, {"modalities": modalities[:2], "reason": "Renovação pelo portal"}, follow=True
    )
    assert response.status_code == 200 and "/fretamento/requerimentos/" in response.redirect_chain[-1][0], (
        _text(_main(response))[:1500]
    )
    page = _text(_main(response))
    assert "Requerimento protocolado" in response.content.decode(), page[:1500]
    for word in PERMIT_WORDS:
        assert word not in page, (word, page[:1500])
    return str(response.redirect_chain[-1][0])


def _report_an_incident(client: Client, home: str, code: str) -> None:
    form_url = _link(_section(home, "pedidos"), "Comunicar um acidente ou uma ocorrência")
    form = _main(client.get(form_url))
    now = timezone.localtime()
    response = client.post(
        form_url,
        {
            "veiculo": _options(form, "veiculo")[0],
            "natureza": "incident",
            "data": now.date().isoformat(),
            "hora": "00:01",
            "local": "Avenida principal, em frente ao terminal",
            "vitimas": "nao",
            "descricao": "Pneu furado; os passageiros seguiram no veículo seguinte.",
        },
        follow=True,
    )
    page = _text(_main(response))
    protocol = re.search(r"Comunicação registrada: protocolo (\S+?)[.,]", _text(response.content.decode()))
    assert protocol and protocol.group(1) in page, (code, page[:1500])
    assert "Prazo da comunicação" in page, code
    if code == "pernambuco":  # the law puts no such duty on the company: taken as information
        assert "Empresa" in page and "Permissionário" not in page, page[:1500]
    deadline = page[page.find("Prazo da comunicação") :]
    assert re.search(r"\d{2}/\d{2}/\d{4}", deadline) or "o órgão gestor" in deadline, (code, deadline[:400])


def _pay_a_slip(client: Client, home: str, code: str, bank_token: str) -> None:
    """The first slip on the home: a valid BR Code for its total, paid by the bank's Pix notice."""
    slip_url = _link(_section(home, "debitos"), "Pagar com PIX")
    charge = Charge.unscoped.get(pk=int(re.search(r"/cobranca/(\d+)/guia/", slip_url).group(1)))  # type: ignore[union-attr]
    slip = _main(client.get(slip_url))
    payload = _text(re.search(r'<code id="pix">(.*?)</code>', slip, re.S).group(1)).strip()  # type: ignore[union-attr]
    total = reais(_text(slip)[_text(slip).find("Total:") :])
    fields = check_pix(payload, total)
    assert txid(fields) == charge.slip_code, code
    notice = {
        "pix": [
            {
                "endToEndId": f"E0003816620261202{charge.pk:015d}",
                "txid": txid(fields),
                "valor": fields["54"],
                "horario": timezone.now().isoformat(),
            }
        ]
    }
    answer = Client().post(
        f"/api/billing/pix-webhook/{code}/pix",
        notice,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {bank_token}",
    )
    assert answer.status_code == 200 and answer.json()["matched"] == 1, (code, answer.content)
    charge.refresh_from_db()
    assert charge.paid_on == clock.today(), code
    after = _section(_main(client.get("/portal/")), "debitos")
    assert f"guia nº {charge.slip_code}" not in _text(after), code


def _bank_token(code: str) -> str:
    bank = User.objects.create_user(f"banco.{code}", password="senha-do-banco-de-teste")
    return create_token(
        actor=None,
        user=bank,
        label="Pix",
        scope="pix_webhook",
        jurisdiction=Jurisdiction.objects.get(pk=code),
    )


def test_every_demo_holder_sees_files_reports_and_pays(demo: None) -> None:
    for code in CODES:
        client, account = _sign_in(code)
        home = _home(client, code)
        if code == "esteio":  # fines in UFRM, charged at the demo's fictitious value, said so
            debts = _text(_section(home, "debitos"))
            assert "UFRM × R$ 5,00" in debts and "valor fictício, não é o valor oficial" in debts
        if code == "pernambuco":
            request_page = _file_a_crc_request(client, home)
            home = _home(client, code)
            assert request_page.rstrip("/").rsplit("/", 1)[-1] in re.findall(
                r"/fretamento/requerimentos/(\d+)/", _section(home, "pedidos")
            )
            for word in PERMIT_WORDS:
                assert word not in _text(home), (word, code)
        elif code == "esteio":
            # the law leaves the list of documents to the agency, which has not typed it in:
            # the form says so before anything is typed, and the holder asks an authorization
            document_form = _text(_main(client.get("/requerimentos/novo/documento/")))
            assert "a lista de documentos ainda não foi definida" in document_form
            assert "O pedido não pode ser protocolado agora" in document_form
            page = _ask_an_authorization(client, home, code)
            assert "Retirada ou venda do veículo" in _text(_main(client.get(page))), code
        else:
            protocol = _file_a_document(client, home, code)
            home = _home(client, code)
            assert protocol in _text(_section(home, "pedidos")), code
        _report_an_incident(client, home, code)
        _pay_a_slip(client, home, code, _bank_token(code))
        assert (
            not Charge.unscoped.filter(holder__jurisdiction_id=code)
            .exclude(holder=account.holder)
            .filter(payments__isnull=False, paid_on=clock.today())
            .exists()
        ), code  # only the holder's own slip was paid


def test_a_holder_out_of_debt_books_an_inspection_slot(demo: None) -> None:
    """Recife's demo holder owes overdue charges: the booking form says up front that they block
    the inspection (art. 26) and offers the way to pay; paid by Pix, the holder books a slot."""
    client, account = _sign_in("recife")
    form_url = "/requerimentos/novo/vistoria/"
    assert form_url in re.findall(r'href="([^"]+)"', _main(client.get("/requerimentos/")))
    before = _text(_main(client.get(form_url)))
    assert "Débitos pagos antes do pedido" in before and "Pague a guia em Minhas cobranças" in before
    token = _bank_token("recife")
    for _ in range(10):
        home = _main(client.get("/portal/"))
        if "Pagar com PIX" not in _section(home, "debitos"):
            break
        _pay_a_slip(client, home, "recife", token)
    form = _main(client.get(form_url))
    page = _text(form)
    assert "Pague a guia em Minhas cobranças" not in page, page[:1500]
    slots = re.findall(r'name="slot" value="(\d+)"', form)
    assert slots, page[:1500]
    response = client.post(
        form_url,
        {"vehicle": _options(form, "vehicle")[0], "slot": slots[0], "statement": "Vistoria anual."},
        follow=True,
    )
    found = re.search(r"Pedido protocolado sob o nº (\S+?)\.", _text(_main(response)))
    assert found, _text(_main(response))[:1500]
    booking = Request.unscoped.get(protocol=found.group(1), holder=account.holder)
    assert booking.kind == Request.Kind.INSPECTION and booking.slot_id == int(slots[0])
    assert found.group(1) in _text(_section(_main(client.get("/portal/")), "pedidos"))
