"""The OpenAPI declares every status an operation answers, with the problem-details body.

django-ninja writes only the success statuses of each `response=` mapping; the errors every
operation can answer come from shared machinery (lotacao.core.middleware, the exception handlers
of lotacao.api.main, authentication, throttling, `get_object_or_404`), so they are declared here,
from what each operation is, instead of by hand in 61 mappings (where ninja would also start
choosing a view's success status differently: with one entry it answers that entry's status):

| status | declared on |
|---|---|
| 400 | every operation (a NUL character, a number the database cannot hold, a body that is not JSON) |
| 401, 403 | operations that require a token or a session |
| 404 | every operation (a row named in the path or body is not there or out of scope; an unknown path) |
| 409 | operations that read the `Idempotency-Key` header (the first request is still running) |
| 422 | every operation (pydantic's input errors and the law's refusals) |
| 429 | operations with a throttle |

An operation may declare more in its `response=` mapping (those stay as written, their body the
same shared ProblemDetail). Every success has its schema in the operation's own `response=`
(or, for a file, `openapi_extra=file_response(...)`, lotacao.core.api_schema); the document lists
its tags (ASCII, for the generated clients) with their Portuguese names (TAGS);
tests/api/test_openapi_complete.py fails on an operation that lacks any of it.
"""

from __future__ import annotations

from typing import Any

from ninja.openapi.schema import OpenAPISchema
from ninja.operation import Operation

from lotacao.core.api_schema import ProblemDetail
from lotacao.core.problems import MEDIA_TYPE, TITLES

PROBLEM_REF = "#/components/schemas/ProblemDetail"

# Each router's tag (ASCII: a generated client names its modules after it), with what it is.
TAGS = {
    "publico": (
        "Público: consulta de veículos pela placa, linhas em vigor, GTFS e fretamento "
        "(sem autenticação, sem dados pessoais)."
    ),
    "cadastro": "Cadastro: pessoas, veículos, permissionários e linhas.",
    "permissoes": "Permissões: pedido, outorga e cada ato sobre a permissão.",
    "documentos": "Documentos: envio, análise e arquivo.",
    "vistorias": "Vistorias: seguro, vistorias, selos e a situação legal do veículo.",
    "linhas": "Linhas: versões, aprovação, ordens de serviço e a rede de ônibus.",
    "fiscalizacao": "Fiscalização: autos de infração e medidas administrativas.",
    "multas": "Multas: consulta e registro do pagamento.",
    "defesa e recursos": "Defesa e recursos: notificação, protocolo, julgamento e comunicação das decisões.",
    "cobrancas": "Cobranças: guias, certidão de regularidade, declarações, faturamento e Pix.",
    "fretamento": "Fretamento: posições do rastreador, empresas e viagens.",
    "portal": "Portal do permissionário: o resumo do titular.",
    "deveres do operador": "Deveres do operador: comunicação de ocorrências e autorizações.",
    "requerimentos": "Requerimentos do permissionário e a decisão do órgão.",
    "ouvidoria": "Ouvidoria: manifestações do público e a fila do órgão.",
    "delegacao do servico": "Delegação do serviço: contrato, inquérito de caducidade, extinção e encampação.",
    "autorizacoes de servico": "Autorizações de táxi, transporte escolar e fretado: pedido, concessão pelo "
    "ato do órgão, suspensão, cassação e as condições do serviço.",
    "editais e selecao": "Editais e seleção: editais, inscrições, classificação, sorteio público, recursos e "
    "adjudicação.",
    "escalas e jornadas": "Escalas e jornadas: escalas das linhas, a escala em vigor e as jornadas "
    "dos condutores.",
    "conselhos": "Conselhos e comissões: membros, sessões, presenças, resoluções e as decisões que dependem "
    "delas.",
    "cursos": "Cursos e capacitação: catálogo, turmas, inscrições e certificados.",
}


DESCRIPTIONS = {
    400: "Requisição inválida (caractere nulo, número fora do intervalo ou corpo ilegível).",
    401: "Autenticação necessária (token ou sessão).",
    403: "O perfil não permite esta operação nesta jurisdição.",
    404: "Não encontrado (ou fora do alcance de quem pergunta).",
    409: "A primeira requisição com esta chave de idempotência ainda está em andamento.",
    422: "Dados recusados: cada motivo em `errors`.",
    429: "Muitas requisições: aguarde o tempo de Retry-After.",
}


def error_statuses(operation: Operation) -> set[int]:
    statuses = {400, 404, 422}
    if operation.auth_callbacks:
        statuses |= {401, 403}
    if any(
        getattr(param, "alias", None) == "Idempotency-Key"
        for model in operation.models
        for param in model.model_fields.values()
    ):
        statuses.add(409)
    if operation.throttle_objects:
        statuses.add(429)
    return statuses


class LotacaoOpenAPISchema(OpenAPISchema):
    def __init__(self, api: Any, path_prefix: str) -> None:
        super().__init__(api, path_prefix)
        used = {
            tag
            for item in self["paths"].values()
            for operation in item.values()
            for tag in operation.get("tags", [])
        }
        self["tags"] = [
            {"name": name, "description": description} for name, description in TAGS.items() if name in used
        ] + [{"name": name} for name in sorted(used - set(TAGS))]

    def get_components(self) -> dict[str, Any]:
        components: dict[str, Any] = super().get_components()
        schema = ProblemDetail.model_json_schema()
        schema.pop("title", None)
        components.setdefault("schemas", {})["ProblemDetail"] = schema
        return components

    def responses(self, operation: Operation) -> dict[int, Any]:
        result: dict[int, Any] = super().responses(operation)
        for status, declared in result.items():
            # An error an operation declares itself (`response={422: ProblemOut}`) is sent as a
            # problem (core.problems), so its body is declared under the problem's media type.
            content = declared.get("content") if isinstance(declared, dict) else None
            if int(status) >= 400 and content and "application/json" in content:
                declared["content"] = {MEDIA_TYPE: {"schema": {"$ref": PROBLEM_REF}}}
        for status in sorted(error_statuses(operation)):
            result.setdefault(
                status,
                {
                    "description": DESCRIPTIONS.get(status, TITLES.get(status, "Erro")),
                    "content": {MEDIA_TYPE: {"schema": {"$ref": PROBLEM_REF}}},
                },
            )
        return result
