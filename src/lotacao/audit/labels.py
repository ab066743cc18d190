"""Portuguese labels for audit actions (`<object>.<verb>`), as shown in the history of a record."""

from __future__ import annotations

VERBS = {
    "created": "cadastro",
    "updated": "alteração",
    "deleted": "exclusão",
    "applied": "requerimento",
    "assessed": "análise de requisitos",
    "granted": "outorga",
    "imported": "importação do cadastro existente",
    "received": "recebimento",
    "reinstated": "reativação",
    "renewed": "prorrogação",
    "revoked": "cassação",
    "suspended": "suspensão",
    "transferred": "transferência",
    "withdrawn": "desistência",
    "vehicle_replaced": "substituição de veículo",
    "added": "inclusão",
    "ended": "encerramento",
    "recorded": "registro",
    "cancelled": "cancelamento",
    "contested": "contestação",
    "issued": "emissão",
    "paid": "pagamento",
    "accepted": "documento aceito",
    "refused": "documento recusado",
    "uploaded": "documento recebido",
    "scheduled": "agendamento",
    "passed": "vistoria aprovada",
    "failed": "vistoria reprovada",
    "resolved": "resolução",
    "done": "recadastramento feito",
    "opened": "abertura",
    "deregistered": "baixa",
}


def action_label(action: str) -> str:
    verb = action.rsplit(".", 1)[-1]
    return VERBS.get(verb, action)
