"""Seams through which a lower layer asks higher ones, filled at start-up and checked loudly.

Imports run one way (see docs/architecture.md). When a lower app needs an answer only a higher
one knows — the public plate check asks permits, inspections and enforcement whether a vehicle
may operate; the nightly work queue asks every domain what falls due — the seam is declared
here, in core (below everyone, so any app may name it), with the providers it expects, and each
higher app *provides* its function from its `AppConfig.ready()`:

    # lotacao/permits/apps.py, in ready():
    providers.provide("work_items", "permits", queue.items)
    # lotacao/workqueue/services.py, when it runs:
    for name, items in providers.providers("work_items"): ...

A seam with an expected provider missing fails `manage.py check` (and with it `migrate`,
`runserver` and the test run) and raises `MissingProvider` when asked: a renamed module never
reads as "nothing to check".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core import checks


class MissingProvider(RuntimeError):
    """An expected provider of a seam was never registered (a broken link between apps)."""


@dataclass
class Seam:
    name: str
    expected: tuple[str, ...]
    doc: str
    providers: dict[str, Callable[..., Any]] = field(default_factory=dict)

    def missing(self) -> list[str]:
        return [name for name in self.expected if name not in self.providers]


_SEAMS: dict[str, Seam] = {}


def declare(name: str, *, expected: tuple[str, ...], doc: str) -> Seam:
    """Declare a seam and the providers it cannot work without (idempotent for the same list)."""
    seam = _SEAMS.get(name)
    if seam is None:
        seam = _SEAMS[name] = Seam(name, tuple(expected), doc)
    elif seam.expected != tuple(expected):
        raise ValueError(f"seam {name!r} declared twice with different providers")
    return seam


def provide(name: str, provider: str, function: Callable[..., Any]) -> None:
    """Register `function` as `provider`'s answer to the seam `name` (from AppConfig.ready())."""
    seam = _SEAMS.get(name)
    if seam is None:
        raise MissingProvider(f"seam {name!r} is not declared; import the module that declares it first")
    seam.providers[provider] = function


def providers(name: str) -> list[tuple[str, Callable[..., Any]]]:
    """The providers of a seam in the declared order; raises when an expected one is missing."""
    seam = _SEAMS.get(name)
    if seam is None:
        raise MissingProvider(f"seam {name!r} is not declared")
    missing = seam.missing()
    if missing:
        raise MissingProvider(f"seam {name!r} lacks its providers: {', '.join(missing)}")
    ordered = [(p, seam.providers[p]) for p in seam.expected]
    extra = [(p, f) for p, f in seam.providers.items() if p not in seam.expected]
    return ordered + extra


def seams() -> list[Seam]:
    return list(_SEAMS.values())


@checks.register()
def check_providers(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """System check: every declared seam has every provider it expects."""
    return [
        checks.Error(
            f"Ligação entre módulos ausente: o ponto {seam.name!r} espera {', '.join(seam.missing())}.",
            hint=f"{seam.doc} Registre o fornecedor no AppConfig.ready() do módulo que o fornece.",
            id="lotacao.E001",
        )
        for seam in _SEAMS.values()
        if seam.missing()
    ]


# The seams of the system: who asks, what, and who must answer.
declare(
    "public_vehicle_info",
    expected=(
        "permits",
        "inspections",
        "enforcement.measures",
        "enforcement.effects",
        "chartering",
        "authorizations",
    ),
    doc="A consulta pública de placas pergunta a cada domínio se há impedimento legal ao veículo.",
)
declare(
    "public_vehicle_info_many",
    expected=(
        "permits",
        "inspections",
        "enforcement.measures",
        "enforcement.effects",
        "chartering",
        "authorizations",
    ),
    doc="A reconstrução das respostas públicas pergunta o mesmo a cada domínio para muitos veículos de "
    "uma vez; chamado com vehicles e on, devolve {id do veículo: parte}, cada parte com changes_on (o "
    "primeiro dia em que ela pode mudar só com a data), quando há.",
)
declare(
    "work_items",
    expected=(
        "documents",
        "enforcement",
        "inspections",
        "lines",
        "permits",
        "chartering",
        "holder_requests",
        "duties",
        "ombudsman",
    ),
    doc="A fila de trabalho noturna pergunta a cada domínio o que vence ou espera ação.",
)
declare(
    "vehicle_permit",
    expected=("permits",),
    doc="As vistorias perguntam a que permissão o veículo serve.",
)
declare(
    "permit_lifecycle",
    expected=("lines",),
    doc="As permissões avisam as linhas quando uma permissão começa (outorga, recebimento por "
    "transferência, registro da existente: a vaga na linha abre) e quando termina (cassação, "
    "extinção do prazo, desistência, transferência: a vaga encerra); chamado com event "
    "('started' ou 'ended'), actor, permit, on, act e reason. Uma recusa desfaz a operação.",
)
declare(
    "fee_vehicles",
    expected=("chartering",),
    doc="A cobrança mensal por veículo (FUSP-F, Lei 16.205/2017, art. 21, § 3º) pergunta quantos "
    "veículos de cada empresa têm Autorização para Tráfego num dia; chamado com code e on, "
    "devolve {holder_id: veículos}, ou None onde o fornecedor não regula a jurisdição.",
)
declare(
    "vehicle_modalities",
    expected=("chartering",),
    doc="As vistorias perguntam as modalidades da empresa dona do veículo (o automóvel de 7 lugares "
    "só no turismo, Lei 16.205/2017, art. 3º, § 3º); chamado com vehicle e on, devolve a lista de "
    "modalidades, ou None quando o veículo não é de fretamento.",
)
declare(
    "vehicle_line",
    expected=("lines",),
    doc="A ficha do veículo pergunta em que linha ele tem lugar autorizado hoje (vehicle, on).",
)
declare(
    "charge_paid",
    expected=("enforcement",),
    doc="A cobrança avisa o módulo dono da dívida (a multa do auto, em fiscalização) quando um "
    "pagamento chega pelo caixa ou pelo extrato bancário; chamado com charge, paid_on, actor e reason.",
)
declare(
    "holder_debts",
    expected=("enforcement",),
    doc="O extrato do permissionário (Minhas cobranças, o portal, a API) pergunta a cada módulo "
    "dono de dívidas as que ainda não são uma cobrança em reais (a multa em unidade fiscal cujo "
    "valor o órgão não publicou, a multa sem vencimento); chamado com holder e on, devolve uma "
    "lista de billing.ledger.debts.Debt.",
)
declare(
    "interruption_periods",
    expected=("enforcement",),
    doc="A contagem anual das interrupções do serviço (Maricá, art. 38: até trinta dias por ano), "
    "feita pelas autorizações prévias, pergunta os períodos de interrupção já autorizados em outro "
    "registro (a página de interrupções da fiscalização); chamado com holder_id e exclude (o pedido "
    "em decisão, None ou o seu número), devolve a lista de pares (início, fim).",
)
declare(
    "notify_holder",
    expected=("reminders",),
    doc="Os domínios avisam o permissionário de um evento do dia (requerimento decidido, reclamação "
    "respondida) pelo e-mail e SMS que ele escolheu; chamado com holder, event, dedup_key, subject, "
    "what, path e, se houver, due, citation e advice, dentro da transação do evento "
    "(lotacao.reminders.services.notify_holder).",
)
declare(
    "holder_infractions",
    expected=("enforcement",),
    doc="Os editais (critério das infrações cometidas, Maricá, art. 7º, § 2º) perguntam quantas "
    "infrações com decisão definitiva o permissionário tem na jurisdição até um dia; chamado com "
    "holder_id, code e on, devolve um número.",
)
declare(
    "person_roles",
    expected=("permits",),
    doc="Os cursos perguntam em que funções (permissionário, condutor auxiliar, condutor eventual, "
    "cobrador) uma pessoa está cadastrada num dia; chamado com code, person e on, devolve o conjunto "
    "das funções.",
)
declare(
    "pending_course_requirements",
    expected=("enforcement",),
    doc="A inscrição num curso imposto por decisão definitiva pergunta os cursos obrigatórios pendentes "
    "da pessoa (Cabo: Curso Especial de Reeducação; Maricá, art. 52); chamado com code, person e on, "
    "devolve a lista de pares (id, descrição), o mais antigo primeiro.",
)
declare(
    "course_requirement_completed",
    expected=("enforcement",),
    doc="A conclusão do curso avisa a fiscalização de que o curso obrigatório foi cumprido; chamado "
    "com actor, requirement_id, completed_on, certificate e reason, dentro da transação da conclusão.",
)
declare(
    "council_gate",
    expected=("councils",),
    doc="Uma decisão que a lei submete a um conselho, tomada num módulo que não conhece os conselhos "
    "(a tarifa e o reajuste, na cobrança: Recife, art. 3º, § 1º; Esteio, art. 34), pede a resolução "
    "que a autoriza; chamado com code, gate, on, resolution (o identificador da resolução ou None) e "
    "otherwise, devolve a citação da resolução, None onde a lei não submete a decisão a um conselho, "
    "ou recusa com ValidationError.",
)
declare(
    "council_gate_choices",
    expected=("councils",),
    doc="O formulário dessa decisão pergunta as resoluções que ela pode citar; chamado com code, gate e "
    "on, devolve (explicação, [(identificador, rótulo)]), com explicação vazia onde a lei não submete "
    "a decisão a um conselho.",
)
