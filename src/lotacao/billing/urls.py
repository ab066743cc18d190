from django.urls import path

from lotacao.billing import reports
from lotacao.billing.fares import views as fares
from lotacao.billing.ledger import views as ledger
from lotacao.billing.payments import views as payments
from lotacao.billing.runs import views as runs

app_name = "billing"
urlpatterns = [
    path("", ledger.ChargeList.as_view(), name="charges"),
    path("<int:pk>/", ledger.ChargeDetail.as_view(), name="charge"),
    path("pagamentos/", ledger.PaymentList.as_view(), name="payments"),
    path("pagamentos/<int:pk>/", ledger.PaymentCharge.as_view(), name="payment_charge"),
    path("<int:pk>/guia/", ledger.ChargeSlip.as_view(), name="slip"),
    path("permissionario/<int:pk>/", ledger.HolderLedger.as_view(), name="ledger"),
    path("permissionario/<int:pk>/guia/", ledger.HolderMonthSlip.as_view(), name="month_slip"),
    path("permissionario/<int:pk>/declaracao/", runs.HolderDeclaration.as_view(), name="holder_declaration"),
    path("declaracoes/", runs.DeclarationList.as_view(), name="declarations"),
    path("declaracoes/<int:pk>/", runs.DeclarationDetail.as_view(), name="declaration"),
    path("faturamento/", runs.RunList.as_view(), name="runs"),
    path("faturamento/<int:pk>/", runs.RunDetail.as_view(), name="run"),
    path("extratos/", payments.BankImportList.as_view(), name="imports"),
    path("extratos/<int:pk>/", payments.BankImportDetail.as_view(), name="import"),
    path("conciliacao/", payments.ReconciliationQueue.as_view(), name="reconciliation"),
    path("conciliacao/<int:pk>/", payments.ReconciliationDetail.as_view(), name="reconciliation_item"),
    path("tarifas/", fares.FareList.as_view(), name="fares"),
    path("tarifas/<int:pk>/", fares.FareDetail.as_view(), name="fare"),
    path("reajustes/novo/", fares.ReadjustmentNew.as_view(), name="readjustment_new"),
    path("reajustes/<int:pk>/", fares.ReadjustmentDetail.as_view(), name="readjustment"),
    path("estudos/", fares.StudyList.as_view(), name="studies"),
    path("estudos/<int:pk>/", fares.StudyDetail.as_view(), name="study"),
    path("fundos/", reports.FundReport.as_view(), name="funds"),
]
