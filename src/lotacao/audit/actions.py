"""Every audit action, declared once with the Portuguese label a record's history shows.

An action is `<object>.<verb>`. Writing an undeclared action raises `UndeclaredAuditAction`, so a
new service cannot leave a code like `enforcement.notice_served` on a clerk's screen: declare it
here first. The generic `<model>.created`, `<model>.updated` and `<model>.deleted` written by
`create_audited`, `update_audited` and the operator's admin are declared for every model of the
system (labelled "cadastro", "alteração", "exclusão": the history is always a record's own).
"""

from __future__ import annotations

from django.apps import apps


class UndeclaredAuditAction(ValueError):
    """An audit action that has no Portuguese label in ACTIONS."""


ACTIONS: dict[str, str] = {
    # registries and accounts
    "agency_value.created": "registro de valor da lei",
    "agency_value.annulled": "anulação de valor da lei",
    "separation_of_duties.refused": "recusa: a segunda etapa cabe a outra pessoa (separação de funções)",
    "api_token.created": "emissão de chave de acesso à API",
    "account.password_changed": "troca de senha pelo próprio usuário",
    "govbr.linked": "conta vinculada ao gov.br",
    "govbr.signed_in": "entrada pelo gov.br",
    "govbr.confirmed": "conta gov.br confirmada",
    # an agency comes in (onboarding: setup_agency and the operator's screen)
    "agency.created": "implantação do órgão gestor",
    "agency.updated": "alteração dos dados do órgão gestor na implantação",
    "agency.manager_created": "cadastro do gestor com senha provisória",
    "agency.manager_granted": "papel de gestor concedido na implantação",
    "agency.manager_password_reset": "nova senha provisória do gestor",
    "vehicle.deregistered": "baixa do veículo",
    "message.requeued": "mensagem posta de novo na fila",
    # permits and agents
    "permit.applied": "requerimento de permissão",
    "permit.assessed": "análise de requisitos",
    "permit.received": "recebimento de documentos do requerimento",
    "permit.granted": "outorga da permissão",
    "permit.imported": "importação do cadastro existente",
    "permit.renewed": "prorrogação da permissão",
    "permit.suspended": "suspensão da permissão",
    "permit.reinstated": "reativação da permissão",
    "permit.revoked": "cassação da permissão",
    "permit.extinct": "extinção da permissão com a extinção da delegação",
    "permit.restored": "permissão restabelecida (cassação desfeita em recurso)",
    "permit.suspension_reduced": "suspensão da permissão reduzida em recurso",
    "permit.transferred": "transferência da permissão",
    "permit.withdrawn": "desistência da permissão",
    "permit.expired": "fim do prazo da permissão",
    "permit.vehicle_replaced": "substituição de veículo",
    "agent.added": "inclusão de preposto",
    "agent.imported": "importação de preposto do cadastro existente",
    "agent.ended": "encerramento do vínculo de preposto",
    "agent.suspended": "suspensão do registro de preposto",
    "agent.suspension_reduced": "suspensão do registro de preposto reduzida em recurso",
    "agent.restored": "vínculo de preposto restabelecido",
    "ban.recorded": "registro de impedimento",
    "ban.lifted": "levantamento de impedimento",
    # requests filed online by holders (lotacao.holder_requests)
    "holder_request.filed": "requerimento protocolado pelo portal",
    "holder_request.approved": "requerimento deferido",
    "holder_request.refused": "requerimento indeferido",
    "holder_request.withdrawn": "desistência do requerimento",
    "inspection_slot.opened": "abertura de horário de vistoria",
    "inspection_slot.closed": "fechamento de horário de vistoria",
    # documents
    "document.uploaded": "documento recebido",
    "document.accepted": "documento aceito",
    "document.refused": "documento recusado",
    # the ombudsman (Lei federal 13.460/2017)
    "complaint.filed": "manifestação recebida",
    "complaint.identity_recorded": "identificação do manifestante registrada (dados protegidos)",
    "complaint.identity_opened": "identificação do manifestante consultada pela ouvidoria",
    "complaint.triaged": "manifestação em análise",
    "complaint.forwarded": "manifestação encaminhada a um setor",
    "complaint.extended": "prazo da resposta prorrogado",
    "complaint.answered": "manifestação respondida",
    "complaint.closed": "manifestação encerrada",
    "complaint.inspection_scheduled": "vistoria agendada a partir de manifestação",
    # billing
    "charge.issued": "emissão de cobrança",
    "charge.paid": "pagamento de cobrança",
    "charge.cancelled": "cancelamento de cobrança",
    "charge.contested": "contestação de cobrança",
    "payment.recorded": "registro de pagamento",
    "billing_account.opened": "inscrição para cobrança mensal",
    "billing_account.closed": "encerramento da inscrição de cobrança",
    "billing_account.modalities": "modalidades da inscrição de cobrança",
    "demand.declared": "declaração de demanda mensal",
    "demand.corrected": "correção de declaração de demanda",
    "billing_run.planned": "simulação do faturamento mensal",
    "billing_run.approved": "aprovação do faturamento mensal",
    "billing_run.executed": "execução do faturamento mensal",
    "billing_run.finished": "conclusão do faturamento mensal (cobranças emitidas)",
    "bank_import.reconciled": "conciliação de extrato bancário",
    "reconciliation.queued": "crédito enviado à fila de conciliação",
    "reconciliation.assigned": "crédito atribuído a uma cobrança",
    "reconciliation.dismissed": "crédito descartado da fila de conciliação",
    "pix.notified": "notificação Pix recebida do banco",
    "fare.set": "fixação de tarifa",
    "fare.annulled": "anulação de tarifa",
    "readjustment.recorded": "registro de reajuste tarifário",
    "fare_study.created": "abertura de estudo tarifário",
    "fare_study.frozen": "conclusão de estudo tarifário",
    # vehicles and inspections
    "inspection.scheduled": "agendamento de vistoria",
    "inspection.passed": "vistoria aprovada",
    "inspection.failed": "vistoria reprovada",
    "inspection.cancelled": "vistoria cancelada",
    "irregularity_notice.issued": "emissão de notificação de irregularidade",
    "irregularity_notice.resolved": "irregularidade sanada",
    "seal.issued": "emissão de selo de vistoria",
    "reregistration_campaign.opened": "abertura de recadastramento",
    "reregistration.done": "recadastramento feito",
    # lines, service orders and places
    "line_version.drafted": "rascunho de versão da linha",
    "line_version.approved": "aprovação da versão da linha",
    "service_order.issued": "emissão de ordem de serviço",
    "place.assigned": "vaga em linha atribuída",
    "place.moved": "mudança de linha autorizada",
    "place.ended": "vaga em linha encerrada",
    "place.trips_recorded": "operação da linha registrada",
    "bus_network.imported": "importação da rede de ônibus (GTFS)",
    # enforcement: notices and notification
    "enforcement.notice_drawn_up": "lavratura do auto de infração",
    "enforcement.penalty_overridden": "penalidade ajustada pelo órgão",
    "enforcement.points_added": "pontos lançados no prontuário",
    "enforcement.notice_photo_added": "foto anexada ao auto de infração",
    "enforcement.notice_sent": "envio da notificação",
    "enforcement.notice_notification": "registro de notificação",
    "enforcement.notice_served": "notificação do autuado",
    "enforcement.notice_served_late": "notificação fora do prazo",
    "enforcement.notice_attempt_failed": "tentativa de notificação sem êxito",
    "enforcement.notice_ar_returned": "aviso de recebimento devolvido",
    "enforcement.notice_archived": "arquivamento do auto",
    "enforcement.notice_decided": "decisão sobre o auto",
    "enforcement.late_decided": "decisão sobre auto notificado fora do prazo",
    # enforcement: due process
    "enforcement.filing_recorded": "protocolo de defesa ou recurso",
    "enforcement.filing_late": "protocolo fora do prazo",
    "enforcement.filing_judged": "julgamento de defesa ou recurso",
    "enforcement.judgment_delay_justified": "atraso de julgamento justificado",
    "enforcement.mandate_lost": "perda de mandato de membro de órgão julgador",
    "enforcement.filing_diligence": "diligência determinada",
    "enforcement.body_member_added": "inclusão de membro do colegiado",
    "enforcement.session_scheduled": "sessão de julgamento marcada",
    "enforcement.session_opened": "abertura da sessão de julgamento",
    "enforcement.session_agenda": "pauta da sessão",
    "enforcement.session_closed": "encerramento da sessão de julgamento",
    "enforcement.session_minutes_generated": "ata da sessão gerada",
    "enforcement.session_minutes_signed": "ata da sessão assinada pelo presidente",
    "enforcement.decision_upheld": "decisão: penalidade mantida",
    "enforcement.decision_annulled": "decisão: auto anulado",
    "enforcement.decision_changed": "decisão: penalidade alterada",
    "enforcement.decision_not_known": "decisão: recurso não conhecido",
    "enforcement.decision_lapsed": "decisão: sem defesa no prazo",
    "enforcement.penalty_applied": "aplicação da penalidade pelo órgão",
    "enforcement.decision_served": "notificação da decisão",
    "enforcement.decision_final": "decisão definitiva",
    "enforcement.decision_effects": "efeitos da decisão definitiva",
    "enforcement.decision_effects_on_service": "efeitos da decisão desde a sua comunicação",
    # enforcement: sanctions
    "enforcement.fine_issued": "emissão da multa",
    "enforcement.fine_synced": "multa atualizada",
    "enforcement.fine_slip_issued": "emissão de guia de pagamento",
    "enforcement.fine_paid": "pagamento da multa",
    "enforcement.fine_offset": "compensação da multa com créditos",
    "enforcement.fine_refunded": "restituição da multa",
    "enforcement.fine_cancelled": "cancelamento da multa",
    "enforcement.fine_amount_changed": "valor da multa alterado",
    "enforcement.measure_applied": "aplicação de medida administrativa",
    "enforcement.measure_condition_met": "condição de liberação cumprida",
    "enforcement.measure_released": "liberação da medida administrativa",
    "enforcement.measure_converted": "conversão da medida administrativa em outra",
    "enforcement.suspension_awaiting_proof": "suspensão aguardando comprovação",
    "enforcement.suspension_proof": "comprovação para encerrar a suspensão",
    "enforcement.suspension_followup": "acompanhamento da suspensão",
    "enforcement.suspension_ended": "fim da suspensão",
    "enforcement.suspension_reduced": "suspensão reduzida ou desfeita em recurso",
    "enforcement.revocation_process_opened": "abertura de processo de cassação",
    "enforcement.revocation_dismissed": "processo de cassação arquivado",
    "enforcement.revocation_act": "ato de cassação",
    "enforcement.course_required": "curso obrigatório determinado",
    "enforcement.course_completed": "curso obrigatório concluído",
    "enforcement.intervention_decreed": "decretação de intervenção",
    "enforcement.interruption_requested": "pedido de interrupção do serviço",
    "enforcement.interruption_over_limit": "pedido de interrupção recusado: além do limite anual",
    "enforcement.interruption_decided": "decisão sobre pedido de interrupção do serviço",
    "enforcement.intervention_procedure": "processo da intervenção",
    "enforcement.intervention_concluded": "conclusão da intervenção",
    "enforcement.intervention_void": "intervenção declarada nula",
    # chartering (Pernambuco): register, fleet, trips, tracking, sanctions, passenger lists
    "chartering.company_registered": "inclusão no cadastro de fretamento",
    "chartering.crc_filed": "requerimento de CRC",
    "chartering.crc_deficiency": "notificação para complementar documentos do CRC",
    "chartering.crc_completed": "complementação de documentos do CRC",
    "chartering.crc_refused": "indeferimento do requerimento de CRC",
    "chartering.crc_archived": "arquivamento do requerimento de CRC",
    "chartering.crc_issued": "emissão do CRC",
    "chartering.crc_superseded": "CRC substituído pela renovação",
    "chartering.crc_application_closed": "requerimento de CRC atendido",
    "chartering.crc_cancelled": "cancelamento do CRC",
    "chartering.crc_revoked": "cassação do CRC",
    "chartering.fleet_added": "inclusão de veículo na frota de fretamento",
    "chartering.fleet_removed": "retirada de veículo da frota de fretamento",
    "chartering.trip_declared": "declaração de viagem",
    "chartering.trip_authorized": "autorização da viagem em automóvel de 7 lugares",
    "chartering.trip_refused": "recusa da viagem em automóvel de 7 lugares",
    "chartering.trip_cancelled": "cancelamento de viagem",
    "chartering.passenger_list_opened": "consulta da lista de passageiros",
    "chartering.passenger_list_purged": "eliminação da lista de passageiros",
    # operator duties (lotacao.duties): incident reports, prior authorizations, periodic reports
    "duties.incident_reported": "comunicação de acidente ou ocorrência",
    "duties.incident_reviewed": "análise da comunicação de ocorrência",
    "duties.authorization_requested": "pedido de autorização prévia",
    "duties.authorization_decided": "decisão sobre pedido de autorização prévia",
    "duties.authorization_revoked": "revogação de autorização prévia",
    "duties.authorization_withdrawn": "desistência de pedido de autorização prévia",
    "duties.report_delivered": "entrega de relatório periódico",
    # exports of lists with personal data (lotacao.audit.exports)
    "export.list": "exportação de lista com dados pessoais",
    "chartering.sanction_proposed": "sanção do CRC proposta ao gestor",
    "chartering.sanction_applied": "aplicação de sanção do CRC",
    "chartering.sanction_dismissed": "proposta de sanção do CRC rejeitada",
    "chartering.sanction_extended": "majoração do prazo da sanção do CRC",
    "chartering.sanction_ended": "fim da sanção do CRC",
    # moving in (issue 20): the existing register comes in
    "register.imported": "importação do cadastro existente (arquivos e totais)",
    "person.imported": "importação do cadastro existente",
    "person.import_updated": "alteração pela importação do cadastro",
    "company.imported": "importação do cadastro existente",
    "company.import_updated": "alteração pela importação do cadastro",
    "holder.imported": "importação do cadastro existente",
    "vehicle.imported": "importação do cadastro existente",
    "vehicle.import_updated": "alteração pela importação do cadastro",
    "inspection.imported": "importação de vistoria do cadastro existente",
    "seal.imported": "importação de selo do cadastro existente",
    "enforcement.notice_imported": "importação de auto de infração do cadastro existente",
    "charge.imported": "importação de débito do cadastro existente",
    # tenders (issue 23, item 5): calls, applications, draw, ranking, appeals, award
    "permit.provisional_ended": "permissão provisória encerrada com a conclusão da licitação",
    "call.opened": "abertura do edital",
    "call.closed": "encerramento das inscrições do edital",
    "call.ranked": "classificação do edital",
    "call.seed_recorded": "registro da semente do sorteio público",
    "call.drawn": "sorteio público de desempate",
    "call.published": "publicação da classificação",
    "call.appeals_opened": "abertura do prazo de recurso contra a classificação",
    "call.reopened": "classificação refeita após recurso provido",
    "call.awarded": "homologação e adjudicação do edital",
    "call.cancelled": "cancelamento do edital",
    "tender_application.filed": "inscrição no edital",
    "tender_application.ranked": "pontuação da inscrição",
    "tender_application.disqualified": "desclassificação da inscrição",
    "tender_application.awarded": "inscrição contemplada na adjudicação",
    "tender_appeal.filed": "recurso contra a classificação",
    "tender_appeal.judged": "julgamento de recurso contra a classificação",
    # Esteio's delegation: contract, interruption, caducidade inquiry, extinction, reversion
    "delegation_contract.recorded": "registro do contrato de delegação com as cláusulas essenciais",
    "delegation_contract.extinct": "extinção do contrato de delegação",
    "delegation_contract.started": "início da operação do contrato sucessor",
    "delegation_employee.recorded": "registro de empregado da operadora anterior",
    "delegation_employee.hired": "contratação de empregado da operadora anterior pela sucessora",
    "delegation_employee.declined": "recusa da oferta de emprego da sucessora",
    "delegation_interruption.recorded": "interrupção do serviço e suspensão imediata",
    "delegation_inquiry.opened": "instauração do inquérito de caducidade",
    "delegation_inquiry.notified": "notificação do inquérito de caducidade",
    "delegation_inquiry.defended": "defesa no inquérito de caducidade",
    "delegation_inquiry.declared": "declaração da caducidade",
    "delegation_inquiry.archived": "arquivamento do inquérito de caducidade",
    "delegation_extinction.recorded": "registro da extinção da delegação",
    "delegation_extinction.indemnity_paid": "pagamento da indenização da extinção",
    "delegation_asset.recorded": "registro de bem reversível",
    "delegation_asset.returned": "reversão do bem ao Município",
    "delegation_consortium.proposed": "proposta de consórcio operacional",
    "delegation_consortium.approved": "aprovação do consórcio operacional pelo poder concedente",
    "delegation_consortium.refused": "consórcio operacional não aprovado",
    # Esteio's authorizations of táxi, escolar and fretado (arts. 12 to 17 and 52)
    "authorization.requested": "pedido de autorização de táxi, escolar ou fretado",
    "authorization.granted": "concessão da autorização",
    "authorization.refused": "indeferimento do pedido de autorização",
    "authorization.suspended": "suspensão da autorização",
    "authorization.reinstated": "fim da suspensão da autorização",
    "authorization.revoked": "cassação da autorização",
    "authorization.withdrawn": "desistência da autorização",
    "authorization.expired": "vencimento da autorização",
    "authorization.replaced": "encerramento da autorização pela substituição do veículo",
    # councils (issue 23, item 1): members, sessions, attendance, resolutions; art. 40 Recife
    "council.registered": "cadastro de conselho ou comissão",
    "member.appointed": "nomeação de membro de conselho",
    "member.mandate_lost": "perda do mandato por faltas",
    "member.mandate_ended": "encerramento de mandato de membro de conselho",
    "member.promoted": "suplente assume a titularidade da cadeira",
    "seat.vacated": "cadeira de conselho vaga",
    "session.opened": "abertura de sessão de conselho",
    "attendance.recorded": "registro de presença em sessão de conselho",
    "resolution.registered": "registro de resolução ou parecer de conselho",
    "resolution.revoked": "revogação de resolução ou parecer de conselho",
    # rosters and duty logs (lotacao.rosters)
    "rosters.roster_created": "elaboração de escala da linha",
    "rosters.entry_added": "inclusão de veículo e condutor na escala",
    "rosters.entry_removed": "retirada de veículo e condutor da escala",
    "rosters.roster_submitted": "submissão da escala da linha ao órgão",
    "rosters.roster_approved": "aprovação da escala da linha",
    "rosters.roster_refused": "recusa da escala da linha",
    "rosters.roster_superseded": "escala substituída pela aprovação da seguinte",
    "rosters.duty_logged": "registro de jornada do condutor",
    "rosters.duty_rechecked": "nova conferência da jornada do condutor",
    "enforcement.vote_cast": "voto de membro de órgão julgador registrado",
    "enforcement.vote_changed": "voto de membro de órgão julgador alterado antes da decisão",
    # lines: the life of a line (change requests, hearing, end, temporary changes)
    "line_request.filed": "pedido de alteração de linha protocolado",
    "line_request.study_attached": "estudo de viabilidade anexado ao pedido de linha",
    "line_request.hearing_opened": "oitiva dos operadores aberta",
    "line_request.answer_recorded": "manifestação de operador na oitiva",
    "line_request.to_study": "pedido de linha passado ao estudo",
    "line_request.approved": "pedido de alteração de linha aprovado",
    "line_request.refused": "pedido de alteração de linha indeferido",
    "line_end.decided": "extinção de linha decidida",
    "line_end.applied": "extinção de linha aplicada",
    "temporary_change.created": "alteração temporária de linha registrada",
    "temporary_change.cancelled": "alteração temporária de linha cancelada",
    # training (issue 23, item 7): courses, classes, enrolment, attendance, certificates
    "training.course_created": "cadastro de curso no catálogo",
    "training.course_updated": "alteração de curso do catálogo",
    "training.class_opened": "abertura de turma de curso",
    "training.class_transition": "mudança de situação de turma de curso",
    "training.session_added": "inclusão de aula na turma",
    "training.enrolled": "inscrição em turma de curso",
    "training.enrolment_cancelled": "cancelamento de inscrição em curso",
    "training.attendance_recorded": "registro de frequência em aula",
    "training.enrolment_closed": "conclusão ou reprovação por frequência em curso",
    "training.certificate_issued": "emissão de certificado de conclusão de curso",
    "training.certificate_document": "certificado de curso incluído, já conferido, entre os documentos "
    "da pessoa",
    # vehicles over the age limit (Maricá art. 25, § 6º)
    "inspections.provisional_granted": "emissão de autorização provisória para veículo acima da idade",
    "inspections.provisional_ended": "encerramento de autorização provisória de veículo",
}

GENERIC = {"created": "cadastro", "updated": "alteração", "deleted": "exclusão"}


def _model_names() -> set[str]:
    return {str(m._meta.model_name) for m in apps.get_models() if m.__module__.startswith("lotacao.")}


def label(action: str) -> str:
    """The Portuguese label of a declared action; raises for an undeclared one."""
    if action in ACTIONS:
        return ACTIONS[action]
    model, _, verb = action.rpartition(".")
    if verb in GENERIC and model in _model_names():
        return GENERIC[verb]
    raise UndeclaredAuditAction(f"audit action {action!r} is not declared in lotacao.audit.actions")


def is_declared(action: str) -> bool:
    try:
        label(action)
    except UndeclaredAuditAction:
        return False
    return True


def choices() -> list[tuple[str, str]]:
    """Every declared action with its label (the field's choices; the admin's filter)."""
    generic = [
        (f"{model}.{verb}", word)
        for model in sorted(_model_names())
        for verb, word in GENERIC.items()
    ]
    return sorted(ACTIONS.items()) + generic
