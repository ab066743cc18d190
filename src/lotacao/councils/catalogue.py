"""The councils and commissions each law names, as the law describes them (read from the texts in
/work/shared/laws). Maricá's Lei 2.627/2015 and Pernambuco's EPTI law name no council or
commission of their own: their lists are empty.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CouncilSpec:
    key: str
    name: str
    acronym: str
    kind: str  # "conselho" | "comissao"
    legal_basis: str
    duties: str
    seat_count: int | None = None
    mandate_months: int | None = None
    parent: str = ""


LAWS = {
    "recife": "Lei Municipal 16.856/2003",
    "cabo": "Lei Municipal 2.019/2002",
    "esteio": "Lei Municipal 3.839/2004",
    "marica": "Lei Municipal 2.627/2015",
    "pernambuco": "Lei Estadual 16.205/2017",
}

COUNCILS: dict[str, tuple[CouncilSpec, ...]] = {
    "recife": (
        CouncilSpec(
            "cmtt",
            "Conselho Municipal de Trânsito e Transporte",
            "CMTT/Recife",
            "conselho",
            "Lei Municipal 16.748/2002; Lei 16.856/2003, arts. 2º, 3º, § 1º, 47 e 49",
            "Aprova a prorrogação da permissão (art. 2º), a criação e a extinção de linhas, a "
            "modificação do tipo e da quantidade de veículos, o modelo de remuneração e a política "
            "tarifária (art. 3º, § 1º); é ouvido na regulamentação da lei (art. 49). O art. 47 inclui "
            "na sua composição o Superintendente de Trens Urbanos do Recife e um representante dos "
            "operadores do STCP/Recife.",
        ),
        CouncilSpec(
            "cdtc",
            "Comissão Disciplinar do Transporte Complementar",
            "CDTC",
            "comissao",
            "Lei 16.856/2003, arts. 39, §§ 1º a 3º, 40 e 42",
            "Julga as defesas dos permissionários contra as penalidades (art. 39, § 1º), em até 30 "
            "dias (art. 42). Cinco membros eleitos dentre os integrantes do CMTT/Recife, um deles o "
            "representante dos operadores (art. 39, § 2º); mandato de um ano, com recondução (art. "
            "39, § 3º); perde o mandato quem faltar sem justificativa a 3 reuniões consecutivas ou 5 "
            "alternadas em um semestre (art. 40, I).",
            seat_count=5,
            mandate_months=12,
            parent="cmtt",
        ),
    ),
    "esteio": (
        CouncilSpec(
            "cmtt",
            "Conselho Municipal de Trânsito e Transportes",
            "CMTT",
            "conselho",
            "Lei Municipal 3.506/2003; Lei 3.839/2004, arts. 9º, III, 26, parágrafo único, 32, 34 e 46, § 3º",
            "Controle da qualidade dos serviços e fiscalização dos atos do Poder Público (art. 9º, "
            "III); decide, com a SMOVT, as modificações de linhas pedidas por operadores ou usuários "
            "(art. 26, parágrafo único); assessora o Poder Público (art. 32); é ouvido antes da "
            "fixação da tarifa (art. 34); recomenda ao Prefeito a extinção da concessão ou permissão "
            "por descumprimento contratual (art. 46, § 3º, a).",
        ),
        CouncilSpec(
            "qualidade",
            "Comissão de fiscalização da qualidade dos serviços",
            "",
            "comissao",
            "Lei 3.839/2004, art. 23",
            "Fiscalização periódica, por comissão composta do CMTT e de representantes dos usuários, "
            "para aferir a qualidade dos serviços (art. 23); a composição fica para o Regulamento de "
            "Operação e Controle.",
            parent="cmtt",
        ),
        CouncilSpec(
            "cip",
            "Comissão de Julgamento de Infrações e Penalidades",
            "CIP",
            "comissao",
            "Lei 3.839/2004, Anexo II, arts. 20 a 25",
            "Julga os recursos contra as notificações de infração (Anexo II, art. 20). Cinco membros: "
            "presidente e um funcionário da SMASPT, um representante dos permissionários e "
            "concessionários e dois dos usuários, com suplentes (art. 23, redação da Lei 4.483/2007); "
            "sessões com pelo menos 3 membros, decisões por maioria simples (art. 25).",
            seat_count=5,
        ),
    ),
    "cabo": (
        CouncilSpec(
            "conselho",
            "Conselho Municipal do Transporte Complementar",
            "",
            "conselho",
            "Lei 2.019/2002, arts. 8º, 26 e 29",
            "Quatro membros: um da Prefeitura, um da Câmara Municipal, um do concessionário e um do "
            "Conselho das Associações de Moradores; participa da gestão da atividade (art. 8º); "
            "expede o regulamento das infrações (art. 26) e aplica as penalidades (art. 29).",
            seat_count=4,
        ),
    ),
    "marica": (),
    "pernambuco": (),
}


def spec(code: str, key: str) -> CouncilSpec | None:
    for item in COUNCILS.get(code, ()):
        if item.key == key:
            return item
    return None
