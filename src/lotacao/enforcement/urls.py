from django.urls import path

from lotacao.enforcement.dossier import views as views_documents
from lotacao.enforcement.due_process import views_application, views_filings, views_judging
from lotacao.enforcement.notices import views, views_notification
from lotacao.enforcement.sanctions import (
    views_effects,
    views_fines,
    views_grounds,
    views_interruptions,
    views_measures,
)

app_name = "enforcement"
urlpatterns = [
    path("autos/", views.NoticeList.as_view(), name="notices"),
    path("autos/novo/", views.NoticeCreate.as_view(), name="notice_create"),
    path("autos/<int:pk>/", views.NoticeDetail.as_view(), name="notice"),
    path("autos/sw.js", views.NoticeServiceWorker.as_view(), name="notice_sw"),
    path("autos/fotos/<int:pk>/", views.NoticePhotoFile.as_view(), name="notice_photo"),
    # dossier and letters (lotacao.enforcement.dossier.views)
    path("autos/<int:pk>/auto.pdf", views_documents.NoticePdf.as_view(), name="notice_pdf"),
    path(
        "notificacoes/<int:pk>/carta.pdf", views_documents.ServiceLetterPdf.as_view(), name="service_letter"
    ),
    path("decisoes/<int:pk>/carta.pdf", views_documents.DecisionLetterPdf.as_view(), name="decision_letter"),
    path("permissionarios/<int:pk>/dossie/", views_documents.HolderDossier.as_view(), name="dossier"),
    path(
        "permissionarios/<int:pk>/dossie.pdf", views_documents.HolderDossierPdf.as_view(), name="dossier_pdf"
    ),
    # defense, appeal and judging (lotacao.enforcement.due_process.views_filings, views_judging)
    path("autos/<int:pk>/defesa/", views_filings.FilingCreate.as_view(), name="filing_create"),
    path(
        "autos/<int:pk>/notificacao/",
        views_notification.NotificationCreate.as_view(),
        name="notification_create",
    ),
    path("autos/<int:pk>/arquivar/", views_notification.NoticeArchive.as_view(), name="notice_archive"),
    path("autos/<int:pk>/prosseguir/", views_notification.LateNoticeKeep.as_view(), name="notice_keep"),
    path("autos/<int:pk>/aplicacao/", views_application.PenaltyApplication.as_view(), name="penalty_apply"),
    path("defesas/<int:pk>/", views_filings.FilingDetail.as_view(), name="filing"),
    path("defesas/<int:pk>/protocolo.pdf", views_filings.FilingReceiptPdf.as_view(), name="filing_receipt"),
    path("anexos/<int:pk>/", views_filings.AttachmentDownload.as_view(), name="attachment"),
    path("julgamento/", views_judging.Bodies.as_view(), name="bodies"),
    path("julgamento/orgaos/<int:pk>/", views_judging.BodyDetail.as_view(), name="body"),
    path("julgamento/sessoes/<int:pk>/", views_judging.SessionDetail.as_view(), name="session"),
    path("decisoes/<int:pk>/", views_filings.DecisionDetail.as_view(), name="decision"),
    # administrative measures (lotacao.enforcement.sanctions.views_measures)
    path("autos/<int:pk>/medidas/", views_measures.MeasureApply.as_view(), name="measure_apply"),
    path("medidas/<int:pk>/condicoes/", views_measures.MeasureCondition.as_view(), name="measure_condition"),
    path("medidas/<int:pk>/liberar/", views_measures.MeasureRelease.as_view(), name="measure_release"),
    path("medidas/<int:pk>/converter/", views_measures.MeasureConvert.as_view(), name="measure_convert"),
    path(
        "medidas/<int:pk>/compromisso/", views_measures.CommitmentBreach.as_view(), name="measure_commitment"
    ),
    # fines (lotacao.enforcement.sanctions.views_fines)
    path("autos/<int:pk>/multa/", views_fines.FineIssue.as_view(), name="fine_issue"),
    path("multas/", views_fines.FineList.as_view(), name="fines"),
    path("multas/<int:pk>/", views_fines.FineDetail.as_view(), name="fine"),
    path("multas/<int:pk>/guia.pdf", views_fines.FineSlipPdf.as_view(), name="fine_slip"),
    # effects of final decisions (lotacao.enforcement.sanctions.views_effects)
    path("efeitos/", views_effects.EffectsHome.as_view(), name="effects"),
    path(
        "efeitos/cassacoes/<int:pk>/",
        views_effects.RevocationProcessPage.as_view(),
        name="revocation_process",
    ),
    path(
        "efeitos/suspensoes/<int:pk>/",
        views_effects.SuspensionFollowUpPage.as_view(),
        name="suspension_followup",
    ),
    path(
        "efeitos/intervencoes/nova/", views_effects.InterventionCreate.as_view(), name="intervention_create"
    ),
    path("efeitos/intervencoes/<int:pk>/", views_effects.InterventionPage.as_view(), name="intervention"),
    path("efeitos/crc/<int:pk>/", views_effects.CrcSanctionPage.as_view(), name="crc_sanction"),
    # interruption of the service on request (lotacao.enforcement.sanctions.views_interruptions)
    path(
        "permissoes/<int:pk>/interrupcoes/",
        views_interruptions.PermitInterruptions.as_view(),
        name="interruptions",
    ),
    # grounds of revocation the agency establishes (lotacao.enforcement.sanctions.views_grounds)
    path(
        "permissoes/<int:pk>/cassacao/",
        views_grounds.PermitRevocationGrounds.as_view(),
        name="revocation_grounds",
    ),
]
