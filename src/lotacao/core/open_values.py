"""What each value a law leaves open blocks, and the words of its form (issue 11).

The manager's checklist (`/lei/`), the blocks a clerk meets and the typed form of each value read
these declarations: one place per parameter. A sentence here says what the system cannot do while
the value is missing — found where the code reads the parameter — never what the value should be:
that is the agency's to supply, as a dated value with its act.
"""

from __future__ import annotations

from dataclasses import dataclass

WHO = "o gestor do órgão"

# Parameter → what stays blocked while the agency has not supplied it. Prefixes end with ".".
BLOCKS: dict[str, str] = {
    "documents.holder": "sem a lista de documentos do permissionário, nenhuma permissão pode ser outorgada "
    "nem transferida",
    "documents.vehicle": "sem a lista de documentos do veículo, a conferência dos documentos do veículo "
    "não se completa",
    "documents.auxiliary_driver": "sem a lista de documentos do condutor auxiliar, nenhum condutor auxiliar "
    "pode ser incluído numa permissão",
    "documents.relief_driver": "sem a lista de documentos do condutor eventual, nenhum condutor eventual "
    "pode ser incluído numa permissão",
    "documents.fare_collector": "sem a lista de documentos do cobrador, nenhum cobrador pode ser incluído "
    "numa permissão",
    "agents.limits": "sem o número máximo de prepostos por função, a inclusão de prepostos não é conferida "
    "pelo limite",
    "billing.late_charges": "sem a multa e os juros de mora, as guias pagas em atraso são cobradas "
    "sem acréscimos",
    "billing.pix": "sem a chave PIX, as guias saem sem o código para pagamento por PIX",
    "billing.monthly_fees": "sem a lista de taxas mensais, o faturamento mensal não gera cobranças",
    "fee.": "sem o valor ou a base da taxa, a cobrança dessa taxa não pode ser emitida",
    "fine.due": "sem a regra de vencimento da multa, o atendente informa o vencimento à mão em cada guia",
    "fiscal_unit.": "sem o valor em reais da unidade fiscal, as multas fixadas nela não podem ser "
    "convertidas nem cobradas",
    "penalty.fine.": "sem o valor da multa desta classe, os autos dessas infrações não têm o valor da multa",
    "infraction.groups": "sem o grupo (A, B ou C) de uma conduta do art. 42, o fiscal não pode lavrar auto "
    "dessa conduta",
    "penalty.points": "sem os pontos por classe, a pontuação do permissionário não é calculada",
    "penalty.recidivism_window": "sem o período de reincidência, a reincidência não é considerada no cálculo "
    "da penalidade",
    "penalty.course_codes": "sem a lista das infrações de segurança, a exigência do curso por repetição "
    "não é verificada",
    "measure.suspension_days": "sem os prazos de suspensão, a comissão escolhe o prazo a cada decisão",
    "inspection.representation_deadline": "sem o prazo de reapresentação, o veículo reprovado em vistoria "
    "não recebe data para voltar",
    "inspection.replaced_vehicle_decharacterization": "sem essa regra, a substituição de veículo não sabe se "
    "exige a descaracterização do substituído",
    "inspection.checklist": "sem os itens da inspeção, a vistoria não tem lista de itens a conferir",
    "inspection.seal": "sem a validade do selo, o selo de vistoria não pode ser emitido",
    "vehicle.insurance_min": "sem as coberturas mínimas, o seguro do veículo não é conferido pelo valor",
    "vehicle.max_age": "sem a idade máxima, a idade do veículo não é conferida",
    "vehicle.seats": "sem a capacidade admitida, a lotação do veículo não é conferida",
    "vehicle.categories": "sem as categorias admitidas, a categoria do veículo não é conferida",
    "quota.max_permits_per_holder": "sem o limite de permissões por permissionário, a outorga não confere "
    "esse limite",
    "permit.term": "sem o prazo da permissão, a permissão outorgada fica sem data de vencimento",
    "permit.transfer_causes": "sem as causas de transferência, nenhuma transferência pode ser requerida",
    "people.representative_term": "sem o mandato, o representante de linha é registrado sem data de término",
    "people.line_representatives": "sem as funções de representação, nenhum representante de linha pode "
    "ser registrado",
    "notice.required_fields": "sem os dados obrigatórios do auto, o formulário do auto não confere o que a "
    "lei exige",
    "notice.notification_deadline": "sem o prazo para notificar, o atraso na notificação do auto "
    "não é apontado",
    "notice.notification_deadline_event": "sem esse ato, o prazo para notificar é contado até a "
    "notificação feita",
    "notice.missed_notification_effect": "sem essa regra, o auto notificado fora do prazo vai ao "
    "gestor decidir",
    "notice.edital_service_deadline": "sem essa data, a notificação por edital não pode ser dada como feita",
    "notice.edital_requires_failed_attempt": "sem essa regra, o edital é aceito sem tentativa "
    "anterior frustrada",
    "notice.agent_notice_to_holder": "sem essa regra, a notificação de multa de preposto não é enviada "
    "ao permissionário",
    "notice.agent_fines_charged_to_holder": "sem essa regra, as multas dos prepostos não são cobradas "
    "do permissionário",
    "notice.returned_counts_as_served": "sem essa regra, a notificação devolvida não é dada como feita",
    "lines.shared_stretch": "sem as distâncias, a superposição de itinerários com as linhas de ônibus não "
    "é conferida",
    "lines.regions": "sem a lista de regiões, as permissões e os itinerários não podem ser fixados "
    "por região",
    "law.in_force": "sem a confirmação da vigência, o motor trata a lei como vigente",
    "chartering.tracker_silence": "sem esse tempo, o veículo sem posição do rastreador não é apontado",
    "chartering.passenger_list_retention": "sem esse prazo, as listas de passageiros não são apagadas",
    "deadline.accident_report": "sem esse prazo, a comunicação de acidente ou de interrupção não tem data "
    "para ser feita e nenhuma é apontada como atrasada",
    "report.": "sem a periodicidade e o prazo, o relatório não tem períodos a entregar e nenhum atraso é "
    "apontado ao órgão gestor",
    "fare.benefits": "sem a lista, as páginas das linhas e os dados abertos dizem que as gratuidades não "
    "foram informadas",
    "fare.reserved_seats": "sem o número, as páginas das linhas não informam os lugares reservados",
    "gtfs.contact_email": "sem o endereço, o GTFS e o catálogo de dados abertos saem sem contato",
    "deadline.caducidade_defense": "sem o prazo de defesa, a notificação do inquérito de caducidade não "
    "pode ser registrada e a caducidade não pode ser declarada",
    "workday.max_daily_minutes": "sem a jornada máxima diária, as jornadas registradas não são conferidas "
    "pelo limite e nenhum excesso é apontado",
    "training.min_attendance": "sem a frequência mínima, nenhuma turma pode ser encerrada nem ter "
    "certificados emitidos",
    "authorization.validity": "sem o prazo da autorização, nenhuma autorização de táxi, escolar ou fretado "
    "pode ser concedida",
    "authorization.taxi_fare": "sem a bandeirada e o valor do quilômetro, a autorização do táxi diz que a "
    "tarifa não foi informada",
    "authorization.regulation_date": "sem a data da regulamentação, nenhum táxi de duas portas pode ser "
    "incluído pela garantia da lei",
}


def blocks(parameter: str) -> str:
    """What stays blocked while `parameter` is missing (the declared sentence), or ""."""
    if parameter in BLOCKS:
        return BLOCKS[parameter]
    prefixes = [p for p in BLOCKS if p.endswith(".") and parameter.startswith(p)]
    return BLOCKS[max(prefixes, key=len)] if prefixes else ""


@dataclass(frozen=True)
class Field:
    """One entry of a typed form: a mapping's key or a row's column. `kind` is a value type of the
    packs (money, decimal, integer, boolean, string) or `choice` with `choices`."""

    key: str
    label: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()
    required: bool = True


CATEGORIES = (
    ("any", "qualquer categoria"),
    ("car7", "automóvel de 7 lugares"),
    ("van", "van"),
    ("microbus", "micro-ônibus"),
    ("bus", "ônibus"),
)
FISCAL_UNITS = (("BRL", "reais"), ("UFIR", "UFIR"), ("UFRM", "UFRM"), ("UFIMA", "UFIMA"))

# The words and value type of each key a mapping parameter's schema allows.
KEYS: dict[str, Field] = {
    f.key: f
    for f in (
        Field("penalty_percent", "Multa de mora (%)", "decimal"),
        Field("monthly_interest_percent", "Juros de mora ao mês (%)", "decimal"),
        Field("key", "Chave PIX", "string"),
        Field("beneficiary", "Nome do beneficiário", "string"),
        Field("city", "Cidade do beneficiário", "string"),
        Field("method", "Como o órgão apura a base", "string"),
        Field("civil_liability", "Responsabilidade civil (R$)", "money"),
        Field("death_per_passenger", "Morte, por passageiro (R$)", "money"),
        Field("disability_per_passenger", "Invalidez, por passageiro (R$)", "money"),
        Field("third_party", "Danos a terceiros (R$)", "money"),
        Field("ban_years", "Anos de impedimento (vazio: sem novo CRC)", "integer", required=False),
        Field("measure_buffer_m", "Distância da medição até o traçado do ônibus (m)", "integer"),
        Field("amount", "Valor (R$)", "money", required=False),
        Field("flag_fall", "Bandeirada inicial (R$)", "money"),
        Field("per_km", "Valor do quilômetro rodado (R$)", "money"),
        Field("units", "Quantidade de unidades fiscais", "decimal", required=False),
        Field("unit", "Unidade fiscal", "choice", FISCAL_UNITS, required=False),
        Field("base_multiple", "Múltiplo do valor base", "decimal", required=False),
        Field(
            "per",
            "Cobrada por",
            "choice",
            (("month", "mês"), ("year", "ano"), ("inspection", "vistoria"), ("boarding", "embarque")),
            required=False,
        ),
        Field("rate", "Percentual (%)", "decimal", required=False),
        Field(
            "of", "Percentual sobre", "choice", (("demand_revenue", "receita da demanda"),), required=False
        ),
        Field(
            "rule",
            "Vencimento",
            "choice",
            (
                ("defense_deadline", "com o fim do prazo de defesa"),
                ("after_final", "depois da decisão definitiva"),
            ),
        ),
        Field(
            "after_rejection",
            "Defesa rejeitada: vence",
            "choice",
            (("decision_served", "na data em que a decisão é recebida"),),
            required=False,
        ),
        Field(
            "deadline",
            "Prazo contado da decisão definitiva",
            "choice",
            (("payment", "prazo de pagamento"),),
            required=False,
        ),
        Field("buffer_m", "Distância máxima entre os traçados (metros)", "integer"),
        Field("min_length_m", "Extensão mínima da superposição (metros)", "integer"),
        Field("valid_for_months", "Validade do selo (meses)", "integer"),
        Field("fiscal_year", "Vale até o fim do exercício", "boolean", required=False),
        Field("requires_reregistration", "Exige recadastramento", "boolean", required=False),
        Field("auxiliary_driver", "Condutores auxiliares", "integer"),
        Field("relief_driver", "Condutores eventuais", "integer"),
        Field("fare_collector", "Cobradores", "integer"),
        Field("representative", "Representantes", "integer"),
        Field("coordinator", "Coordenadores", "integer"),
        Field("auxiliary", "Auxiliares", "integer"),
        Field("always", "Sempre", "string"),
        Field("registered_service", "No serviço regular", "string"),
        # a deadline the law leaves open (deadline.*) and a periodic report's period (report.*)
        Field("days", "Prazo (dias)", "integer"),
        Field(
            "counting",
            "Contagem",
            "choice",
            (
                ("business_days", "dias úteis"),
                ("calendar_days", "dias corridos"),
                ("from_first_business_day", "dias corridos a partir do primeiro dia útil"),
            ),
        ),
        Field("every_months", "Periodicidade (meses)", "integer"),
        Field("due_days", "Prazo de entrega após o fim do período (dias corridos)", "integer"),
        *(Field(code, label.capitalize(), "integer", required=False) for code, label in CATEGORIES),
    )
}

# Lists and mappings whose items are records: each row's columns (the row's code is made from its
# first column). The document lists share theirs.
DOCUMENT_ROW = (
    Field("label", "Documento", "string"),
    Field("cite", "Fundamento (artigo)", "string"),
    Field("expires", "Tem validade", "boolean", required=False),
    Field("sensitive", "Dado sensível", "boolean", required=False),
)
ROWS: dict[str, tuple[Field, ...]] = {
    "documents.": DOCUMENT_ROW,
    "inspection.checklist": (
        Field("label", "Item a conferir", "string"),
        Field("cite", "Fundamento", "string"),
    ),
}

# String parameters whose value is one of a few codes.
CHOICES: dict[str, tuple[tuple[str, str], ...]] = {
    "notice.missed_notification_effect": (
        ("archive", "arquivar o auto"),
        ("flag", "levar o atraso ao gestor"),
    ),
    "notice.notification_deadline_event": (
        ("served", "a notificação feita"),
        ("sent", "o envio da notificação"),
    ),
    "process.appeal_payment": (
        ("admit_when_paid", "protocolar no prazo e julgar só depois do pagamento; sem ele, deserção"),
        ("refuse_until_paid", "só aceitar o protocolo depois do pagamento"),
        ("not_required", "não exigir pagamento antes do recurso (Súmula Vinculante 21)"),
    ),
}

UNITS = (("days", "dias"), ("business_days", "dias úteis"), ("months", "meses"), ("years", "anos"))


def rows_for(parameter: str) -> tuple[Field, ...] | None:
    if parameter in ROWS:
        return ROWS[parameter]
    prefixes = [p for p in ROWS if p.endswith(".") and parameter.startswith(p)]
    return ROWS[max(prefixes, key=len)] if prefixes else None


def words(value: object) -> str:
    """A mapping value of the law as people read it, by the words of `KEYS`: `Morte, por passageiro
    (R$): 13.000,00; Responsabilidade civil (R$): ônibus 500.000,00, …` — never the stored keys."""
    from lotacao.core.formats import brl

    categories = dict(CATEGORIES)

    def one(item: object, money: bool) -> str:
        if isinstance(item, dict):
            return ", ".join(f"{categories.get(str(k), 'outro')} {one(v, money)}" for k, v in item.items())
        if isinstance(item, bool):
            return "sim" if item else "não"
        return brl(str(item)).replace("R$", "").strip(" \xa0") if money else str(item)

    if not isinstance(value, dict):
        return one(value, False)
    parts = []
    for key, item in value.items():
        spec = KEYS.get(str(key))
        label = spec.label if spec else categories.get(str(key), "outro")
        parts.append(f"{label}: {one(item, bool(spec and spec.kind == 'money'))}")
    return "; ".join(parts)
