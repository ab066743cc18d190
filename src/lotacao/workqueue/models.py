"""The work queue: what needs a clerk's action, refreshed by the nightly job."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q

from lotacao.core.tenancy import TenantModel

KIND_LABELS = {
    "permit_application": "Requerimento de permissão",
    "law.value_missing": "Valor da lei a informar",
    "lines.draft": "Versão de linha aguardando aprovação",
    "ombudsman.due": "Manifestação da ouvidoria perto do prazo",
    "lines.reaward": "Linha sem viagens iniciadas: adjudicação possível",
    "lines.unused": "Permissão sem operação na linha",
    "permit_term": "Vencimento de permissão",
    "document.review": "Documento a analisar",
    "document.expiring": "Documento vencendo",
    "person.cnh": "CNH vencendo",
    "inspections.age_limit": "Idade limite do veículo",
    "inspections.insurance": "Seguro vencendo",
    "inspections.representation": "Reapresentação de veículo",
    "inspections.seal": "Selo de vistoria vencendo",
    "enforcement.notification_overdue": "Auto não notificado no prazo",
    "enforcement.notification_late": "Auto notificado fora do prazo",
    "enforcement.diligence_overdue": "Diligência fora do prazo de sessões",
    "enforcement.judgment_due": "Defesa ou recurso a julgar no prazo da lei",
    "enforcement.mandate_review": "Julgamento fora do prazo: verificar a perda de mandato",
    "enforcement.decision_to_notify": "Decisão a comunicar",
    "enforcement.penalty_to_apply": "Auto aguardando a aplicação da penalidade",
    "enforcement.fine_offset": "Multa vencida: desconto de créditos possível",
    "enforcement.fine_refund": "Multa paga de auto anulado ou reduzido: restituir",
    "enforcement.effects_undone": "Efeitos desfeitos em recurso: comunicar o permissionário",
    "enforcement.fine_suspension": "Multas não pagas: suspensão possível",
    "enforcement.suspension_awaiting_proof": "Suspensão aguardando comprovação",
    "enforcement.revocation_process": "Processo de cassação",
    "enforcement.intervention_due": "Prazo da intervenção",
    "enforcement.intervention_void": "Intervenção inválida",
    "chartering.renewal_60": "CRC vencendo em até 60 dias",
    "chartering.renewal_30": "CRC vencendo em até 30 dias: renovação no limite",
    "chartering.application": "Requerimento de CRC",
    "chartering.sanction": "Sanção do CRC a decidir",
    "chartering.authorization": "Viagem em automóvel de 7 lugares a autorizar",
    "chartering.tracker_silent": "Rastreador sem posição",
    "enforcement.interruption_requested": "Pedido de interrupção do serviço a decidir",
    "enforcement.interruption_over_limit": "Interrupção além do limite anual: desistência",
    "enforcement.crc_repeat": "Reincidência durante sanção do CRC: decidir a majoração",
    "holder_requests.decide": "Requerimento online a decidir",
    "duties.incident_late": "Comunicação de ocorrência fora do prazo",
    "duties.post_accident_inspection": "Vistoria após acidente a agendar",
    "duties.authorization_requested": "Pedido de autorização prévia a decidir",
    "duties.report_late": "Relatório periódico não entregue no prazo",
}


class WorkItem(TenantModel):
    class Status(models.TextChoices):
        OPEN = "aberto", "Em aberto"
        CLOSED = "encerrado", "Encerrado"

    kind = models.CharField("tipo", max_length=60)
    key = models.CharField("chave", max_length=120, help_text="Identifica o objeto dentro do tipo.")
    title = models.CharField("descrição", max_length=300)
    due_on = models.DateField("prazo", null=True, blank=True)
    url = models.CharField("endereço", max_length=300, blank=True)
    status = models.CharField("situação", max_length=12, choices=Status.choices, default=Status.OPEN)
    first_seen = models.DateField("incluído em")
    last_seen = models.DateField("visto pela última vez em")
    closed_on = models.DateField("encerrado em", null=True, blank=True)

    holder_path: ClassVar[str | None] = None

    class Meta:
        ordering = ["due_on", "id"]
        verbose_name = "item da fila de trabalho"
        verbose_name_plural = "fila de trabalho"
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "kind", "key"],
                condition=Q(status="aberto"),
                name="unique_open_work_item",
            ),
        ]
        indexes = [models.Index(fields=["jurisdiction", "status", "due_on"], name="workqueue_open_idx")]

    def __str__(self) -> str:
        return self.title

    @property
    def kind_label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind)
