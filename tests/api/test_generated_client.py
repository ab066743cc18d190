"""A Python client generated from the served OpenAPI calls the live API (issue 24).

`openapi-python-client` writes a client from /api/openapi.json as a live test server serves it
(into a temporary folder; nothing from the network), with no warning (each answer of each
operation parsed: a file's media types map to its binary type, as a client's own configuration
does); then one operation of each tag is called through it, with a token, and its answer must come
back parsed as the declared model — a client generated from an operation without a 2xx schema
returns None there.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lotacao.accounts.tokens import create_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PACKAGE = "lotacao_api_client"
CONFIG = f"""\
project_name_override: lotacao-api-client
package_name_override: {PACKAGE}
post_hooks: []
content_type_overrides:
  application/zip: application/octet-stream
  application/pdf: application/octet-stream
  image/png: application/octet-stream
  image/jpeg: application/octet-stream
"""


@pytest.fixture
def generated(live_server: Any, tmp_path: Path) -> Iterator[Any]:
    """The generated package, imported (and forgotten afterwards). One test uses it: generating
    takes a while on a busy machine."""
    schema = httpx.get(f"{live_server.url}/api/openapi.json", timeout=30)
    assert schema.status_code == 200
    (tmp_path / "openapi.json").write_bytes(schema.content)
    (tmp_path / "config.yaml").write_text(CONFIG)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            "openapi.json",
            "--output-path",
            "client",
            "--meta",
            "none",
            "--config",
            "config.yaml",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "WARNING" not in output and "Cannot parse" not in output, output
    sys.path.insert(0, str(tmp_path))
    # --output-path is the package itself: import it as PACKAGE from a folder of that name
    (tmp_path / "client").rename(tmp_path / PACKAGE)
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _call(package: Any, tag: str, operation_id: str, client: Any, **arguments: Any) -> Any:
    module = importlib.import_module(f"{PACKAGE}.api.{tag.replace(' ', '_')}.{operation_id}")
    return module.sync(client=client, **arguments)


def test_each_tag_a_file_and_a_refusal_come_back_parsed(world: Any, live_server: Any, generated: Any) -> None:
    recife = world.objects["recife"]

    def client(user: str | None) -> Any:
        if user is None:
            return generated.Client(base_url=live_server.url, raise_on_unexpected_status=True)
        token = create_token(actor=None, user=world.users[user], label="cliente gerado")
        return generated.AuthenticatedClient(
            base_url=live_server.url, token=token, raise_on_unexpected_status=True
        )

    staff, holder = client("gestor.recife"), client("holder0.recife")
    # tag -> (operationId, client, arguments, the model's class name)
    calls: dict[str, tuple[str, Any, dict[str, Any], str]] = {
        "publico": (
            "lotacao_public_api_public_vehicle",
            client(None),
            {"plate": recife["registry.vehicle"].plate},
            "PlateAnswerOut",
        ),
        "cadastro": (
            "lotacao_registry_api_get_person",
            staff,
            {"person_id": recife["registry.person"].pk},
            "PersonOut",
        ),
        "permissoes": (
            "lotacao_permits_api_get_permit",
            staff,
            {"permit_id": recife["permits.permit"].pk},
            "PermitOut",
        ),
        "documentos": (
            "lotacao_documents_api_get_document",
            staff,
            {"document_id": recife["documents.document"].pk},
            "DocumentOut",
        ),
        "vistorias": (
            "lotacao_inspections_api_vehicle_status",
            staff,
            {"vehicle_id": recife["registry.vehicle"].pk},
            "StatusOut",
        ),
        "linhas": (
            "lotacao_lines_api_get_line",
            staff,
            {"line_id": recife["registry.line"].pk},
            "LineDetailOut",
        ),
        "fiscalizacao": (
            "lotacao_enforcement_notices_api_get_notice",
            staff,
            {"notice_id": recife["enforcement.infractionnotice"].pk},
            "NoticeOut",
        ),
        "multas": (
            "lotacao_enforcement_sanctions_api_fines_get_fine",
            staff,
            {"fine_id": recife["enforcement.fine"].pk},
            "FineOut",
        ),
        "defesa e recursos": (
            "lotacao_enforcement_due_process_api_notice_process",
            staff,
            {"notice_id": recife["enforcement.infractionnotice"].pk},
            "ProcessOut",
        ),
        "cobrancas": (
            "lotacao_billing_api_get_charge",
            staff,
            {"charge_id": recife["billing.charge"].pk},
            "ChargeOut",
        ),
        "fretamento": (
            "lotacao_chartering_api_company",
            staff,
            {"company_id": recife["chartering.charteringcompany"].pk},
            "CompanyOut",
        ),
        "portal": ("lotacao_portal_api_portal_summary", holder, {}, "PortalSummary"),
        "deveres do operador": ("lotacao_duties_api_list_incidents", holder, {}, "IncidentOut"),
        "requerimentos": (
            "lotacao_holder_requests_api_get_request",
            holder,
            {"request_id": recife["holder_requests.request"].pk},
            "RequestOut",
        ),
        "ouvidoria": ("lotacao_ombudsman_api_queue", staff, {}, "StaffRowOut"),
        "delegacao do servico": (
            "lotacao_delegation_api_get_contract",
            staff,
            {"contract_id": recife["delegation.contract"].pk},
            "DelegationContractOut",
        ),
        "autorizacoes de servico": (
            "lotacao_authorizations_api_get_authorization",
            staff,
            {"authorization_id": recife["authorizations.authorization"].pk},
            "ServiceAuthorizationOut",
        ),
        "editais e selecao": (
            "tenders_get_call",
            staff,
            {"call_id": recife["tenders.call"].pk},
            "CallDetailOut",
        ),
        "conselhos": (
            "lotacao_councils_api_get_council",
            staff,
            {"council_id": recife["councils.council"].pk},
            "CouncilDetailOut",
        ),
        "cursos": (
            "lotacao_training_api_get_class",
            staff,
            {"class_id": recife["training.courseclass"].pk},
            "ClassOut",
        ),
        "escalas e jornadas": (
            "lotacao_rosters_api_rosters_detail",
            staff,
            {"roster_id": recife["rosters.roster"].pk},
            "RosterOut",
        ),
    }
    document = httpx.get(f"{live_server.url}/api/openapi.json", timeout=30).json()
    tags = {tag["name"] for tag in document["tags"]}
    assert tags == set(calls), f"a tag without a call here: {sorted(tags ^ set(calls))}"
    for tag, (operation_id, caller, arguments, model) in calls.items():
        answer = _call(generated, tag, operation_id, caller, **arguments)
        first = answer[0] if isinstance(answer, list) and answer else answer
        assert type(first).__name__ == model, f"{tag}: {operation_id} answered {answer!r}"
        assert first.to_dict(), f"{tag}: {operation_id} answered an empty {model}"

    # A file comes back as a File, a refusal as problem details.
    token = create_token(actor=None, user=world.users["gestor.recife"], label="cliente gerado")
    staff = generated.AuthenticatedClient(base_url=live_server.url, token=token)
    upload = _call(
        generated,
        "documentos",
        "lotacao_documents_api_document_file",
        staff,
        document_id=recife["documents.document"].pk,
    )
    assert type(upload).__name__ == "File" and upload.payload.read()
    missing = _call(
        generated, "fiscalizacao", "lotacao_enforcement_notices_api_get_notice", staff, notice_id=2**62
    )
    assert type(missing).__name__ == "ProblemDetail" and missing.status == 404 and missing.detail
