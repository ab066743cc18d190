"""The files of the register: one per kind, its Portuguese columns, which are required, how each
cell is read and one example row (the downloadable template)."""

from __future__ import annotations

from dataclasses import dataclass, field

from lotacao.core.text import fold

TEXT, DATE, DATETIME, INT, MONEY, BOOL = "text", "date", "datetime", "int", "money", "bool"


@dataclass(frozen=True)
class Column:
    header: str
    name: str  # the key the importer reads (never shown)
    required: bool = False
    type: str = TEXT
    example: str = ""
    choices: dict[str, str] = field(default_factory=dict)  # stored value -> label people write


@dataclass(frozen=True)
class Kind:
    name: str  # the file's stem and the key of the counts ("pessoas")
    label: str  # in sentences ("pessoas")
    columns: tuple[Column, ...]

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def header(self, name: str) -> str:
        return self.column(name).header

    def by_folded_header(self) -> dict[str, Column]:
        return {fold(c.header): c for c in self.columns}


YES_NO = {"sim": "Sim", "nao": "Não"}
PERSON_DOC = Column("CPF ou CNPJ do permissionário", "holder_document", True, example="529.982.247-25")

PERSONS = Kind(
    "pessoas",
    "pessoas",
    (
        Column("CPF", "cpf", True, example="529.982.247-25"),
        Column("Nome completo", "full_name", True, example="Maria José da Silva"),
        Column("Data de nascimento", "birth_date", type=DATE, example="12/03/1975"),
        Column("E-mail", "email", example="maria@example.com"),
        Column("Telefone", "phone", example="81 99999-0000"),
        Column("Logradouro", "street", example="Rua da Aurora"),
        Column("Número", "number", example="100"),
        Column("Complemento", "complement", example="apto 201"),
        Column("Bairro", "district", example="Boa Vista"),
        Column("Município", "city", example="Recife"),
        Column("UF", "state", example="PE"),
        Column("CEP", "postal_code", example="50050000"),
        Column("CNH", "cnh_number", example="12345678900"),
        Column("Categoria da CNH", "cnh_category", example="D"),
        Column("Validade da CNH", "cnh_expiry", type=DATE, example="31/12/2027"),
        Column("Reside no município desde", "residence_since", type=DATE, example="01/01/2000"),
    ),
)

COMPANIES = Kind(
    "empresas",
    "pessoas jurídicas",
    (
        Column("CNPJ", "cnpj", True, example="11.222.333/0001-81"),
        Column("Razão social", "legal_name", True, example="Cooperativa de Transporte Ltda."),
        Column("Nome fantasia", "trade_name", example="Cooptrans"),
        Column(
            "Natureza",
            "kind",
            example="Cooperativa",
            choices={"empresa": "Empresa", "associacao": "Associação", "cooperativa": "Cooperativa"},
        ),
        Column("E-mail", "email", example="contato@example.com"),
        Column("Telefone", "phone", example="81 3333-0000"),
        Column("Município", "city", example="Recife"),
        Column("UF", "state", example="PE"),
    ),
)

HOLDERS = Kind(
    "permissionarios", "permissionários", (Column("CPF ou CNPJ", "document", True, example="529.982.247-25"),)
)

LINES = Kind(
    "linhas",
    "linhas",
    (
        Column("Código", "code", True, example="L01"),
        Column("Denominação", "name", True, example="Centro — Várzea"),
        Column("Origem", "origin", example="Centro"),
        Column("Destino", "destination", example="Várzea"),
        Column("Ativa", "active", type=BOOL, example="Sim", choices=YES_NO),
    ),
)

VEHICLE_CATEGORIES = {
    "car7": "Automóvel de 7 lugares",
    "van": "Van / kombi",
    "microbus": "Micro-ônibus",
    "bus": "Ônibus",
}
TENURES = {
    "proprio": "Próprio",
    "arrendamento": "Arrendamento mercantil",
    "comodato": "Comodato ou cessão de direitos",
    "alienacao": "Alienação fiduciária",
}

VEHICLES = Kind(
    "veiculos",
    "veículos",
    (
        Column("Placa", "plate", True, example="KGM1D23"),
        Column("RENAVAM", "renavam", example="63968772364"),
        Column("Chassi", "chassis", example="9BWZZZ377VT004251"),
        Column("Marca/modelo", "make_model", example="Renault Master"),
        Column("Ano de fabricação", "manufacture_year", True, INT, example="2021"),
        Column("Ano do modelo", "model_year", type=INT, example="2022"),
        Column("Categoria", "category", True, example="Van / kombi", choices=VEHICLE_CATEGORIES),
        Column("Lugares (com motorista e cobrador)", "seats", True, INT, example="16"),
        Column("Portas", "doors", True, INT, example="4"),
        Column("CPF ou CNPJ do permissionário", "holder_document", example="529.982.247-25"),
        Column("Posse", "tenure", example="Próprio", choices=TENURES),
        Column("Proprietário no CRLV", "owner_name", example="Maria José da Silva"),
        Column("CPF/CNPJ do proprietário", "owner_document", example="529.982.247-25"),
        Column("Baixado do serviço em", "deregistered_on", type=DATE, example=""),
    ),
)

INSURANCE = Kind(
    "seguros",
    "apólices de seguro",
    (
        Column("Placa", "plate", True, example="KGM1D23"),
        Column("Seguradora", "insurer", True, example="Seguradora Exemplo S.A."),
        Column("Número da apólice", "number", True, example="AP-2026-0001"),
        Column("Início da vigência", "valid_from", True, DATE, example="01/01/2026"),
        Column("Fim da vigência", "valid_until", True, DATE, example="31/12/2026"),
        Column("Responsabilidade civil (R$)", "civil_liability", type=MONEY, example="500000,00"),
        Column("Morte por passageiro (R$)", "death_per_passenger", type=MONEY, example="13000,00"),
        Column("Invalidez por passageiro (R$)", "disability_per_passenger", type=MONEY, example="5000,00"),
        Column("Danos a terceiros (R$)", "third_party", type=MONEY, example="50000,00"),
    ),
)

PERMIT_STATUSES = {
    "active": "Ativa",
    "suspended": "Suspensa",
    "revoked": "Cassada",
    "withdrawn": "Extinta por desistência",
    "expired": "Vencida",
    "transferred": "Transferida",
    "extinct": "Extinta",
}
PERMIT_KINDS = {"regular": "Regular", "provisional": "Provisória"}

PERMITS = Kind(
    "permissoes",
    "permissões",
    (
        Column("Número", "number", True, example="001/2020"),
        PERSON_DOC,
        Column("Placa", "plate", example="KGM1D23"),
        Column("Linha", "line", example="L01"),
        Column("Situação", "status", True, example="Ativa", choices=PERMIT_STATUSES),
        Column("Espécie", "kind", example="Regular", choices=PERMIT_KINDS),
        Column("Requerida em", "applied_on", type=DATE, example="10/01/2020"),
        Column("Outorgada em", "granted_on", True, DATE, example="01/02/2020"),
        Column("Válida até", "valid_until", True, DATE, example="31/01/2030"),
        Column("Suspensa até", "suspended_until", type=DATE, example=""),
        Column("Extinta em", "ends_on", type=DATE, example=""),
    ),
)

AGENT_ROLES = {
    "auxiliary_driver": "Condutor auxiliar",
    "relief_driver": "Condutor eventual",
    "fare_collector": "Cobrador",
}

AGENTS = Kind(
    "prepostos",
    "prepostos",
    (
        Column("Número da permissão", "permit", True, example="001/2020"),
        Column("CPF", "cpf", True, example="529.982.247-25"),
        Column("Função", "role", True, example="Condutor auxiliar", choices=AGENT_ROLES),
        Column("Desde", "starts_on", True, DATE, example="01/03/2020"),
        Column("Até", "ends_on", type=DATE, example=""),
    ),
)

INSPECTION_KINDS = {
    "annual": "Anual",
    "random": "Aleatória",
    "entry": "De ingresso",
    "representation": "Reapresentação",
}
INSPECTION_STATUSES = {
    "passed": "Aprovada",
    "failed": "Reprovada",
    "scheduled": "Agendada",
    "cancelled": "Cancelada",
}

INSPECTIONS = Kind(
    "vistorias",
    "vistorias e selos",
    (
        Column("Placa", "plate", True, example="KGM1D23"),
        Column("Tipo", "kind", example="Anual", choices=INSPECTION_KINDS),
        Column("Data marcada", "scheduled_for", True, DATE, example="10/01/2026"),
        Column("Situação", "status", True, example="Aprovada", choices=INSPECTION_STATUSES),
        Column("Realizada em", "performed_on", type=DATE, example="10/01/2026"),
        Column("Local", "place", example="Pátio do órgão gestor"),
        Column("Observações", "notes", example=""),
        Column("Número do selo", "seal_number", example="S-2026-0001"),
        Column("Selo emitido em", "seal_issued_on", type=DATE, example="10/01/2026"),
        Column("Selo válido até", "seal_valid_until", type=DATE, example="09/01/2027"),
    ),
)

OFFENDER_KINDS = {
    "permit_holder": "Permissionário",
    "auxiliary_driver": "Condutor auxiliar",
    "relief_driver": "Condutor eventual",
    "fare_collector": "Cobrador",
    "company": "Empresa",
    "unlicensed": "Transporte clandestino",
}
NOTICE_STATUSES = {
    "decided_final": "Decisão definitiva",
    "annulled": "Anulado",
    "archived": "Arquivado",
    "notified": "Notificado",
    "drawn_up": "Lavrado",
}

NOTICES = Kind(
    "autos",
    "autos de infração",
    (
        Column("Número", "number", True, example="AI-2024-000123"),
        Column("Data e hora", "drawn_up_at", True, DATETIME, example="15/05/2024 14:30"),
        Column("Infrator", "offender_kind", True, example="Permissionário", choices=OFFENDER_KINDS),
        Column("Enquadramento", "infraction_code", example="G2-f"),
        Column("Grupo", "infraction_group", example=""),
        Column("CPF ou CNPJ do permissionário", "holder_document", example="529.982.247-25"),
        Column("Número da permissão", "permit", example="001/2020"),
        Column("Placa", "plate", example="KGM1D23"),
        Column("CPF do preposto", "agent_cpf", example=""),
        Column("Nome do infrator", "offender_name", example=""),
        Column("Documento do infrator", "offender_document", example=""),
        Column("Local", "place", example="Av. Caxangá, 1000"),
        Column("Descrição", "description", example="Veículo operando fora do itinerário."),
        Column("Situação", "status", True, example="Decisão definitiva", choices=NOTICE_STATUSES),
        Column("Multa aplicada (R$)", "fine_amount", type=MONEY, example=""),
        Column("Notificado em", "served_on", type=DATE, example="20/05/2024"),
        Column("Arquivado em", "archived_on", type=DATE, example=""),
    ),
)

CHARGE_KINDS = {"fine": "Multa", "fee": "Taxa"}

DEBTS = Kind(
    "debitos",
    "débitos",
    (
        Column("Referência", "reference", True, example="DA-2025-0001"),
        PERSON_DOC,
        Column("Natureza", "kind", True, example="Taxa", choices=CHARGE_KINDS),
        Column("Descrição", "description", True, example="Taxa de vistoria de 2025"),
        Column("Valor (R$)", "amount", True, MONEY, example="150,00"),
        Column("Vencimento", "due_on", True, DATE, example="31/03/2025"),
        Column("Competência", "competence", type=DATE, example="01/03/2025"),
    ),
)

# The order of the import: what a row refers to comes before it.
KINDS: tuple[Kind, ...] = (
    PERSONS,
    COMPANIES,
    HOLDERS,
    LINES,
    VEHICLES,
    INSURANCE,
    PERMITS,
    AGENTS,
    INSPECTIONS,
    NOTICES,
    DEBTS,
)
BY_NAME = {k.name: k for k in KINDS}
FORMATS = ("csv", "xlsx", "ods")
