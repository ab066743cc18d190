from django.urls import path

from lotacao.chartering import views, views_trips

app_name = "chartering"
urlpatterns = [
    path("", views.CompanyList.as_view(), name="companies"),
    path("empresas/nova/", views.Enrol.as_view(), name="enrol"),
    path("empresas/<int:pk>/", views.CompanyDetail.as_view(), name="company"),
    path("empresas/<int:pk>/requerimento/", views.ApplicationCreate.as_view(), name="application_create"),
    path("empresas/<int:pk>/documentos/novo/", views.DocumentUpload.as_view(), name="document_upload"),
    path("empresas/<int:pk>/frota/nova/", views_trips.FleetAdd.as_view(), name="fleet_add"),
    path("empresas/<int:pk>/viagens/nova/", views_trips.TripCreate.as_view(), name="trip_create"),
    path("requerimentos/<int:pk>/", views.ApplicationDetail.as_view(), name="application"),
    path("crc/<int:pk>/certificado.pdf", views.CrcPdf.as_view(), name="crc_pdf"),
    path("frota/<int:pk>/", views_trips.FleetDetail.as_view(), name="fleet"),
    path("viagens/", views_trips.TripList.as_view(), name="trips"),
    path("viagens/<int:pk>/", views_trips.TripDetail.as_view(), name="trip"),
    path("viagens/<int:pk>/manifesto.pdf", views_trips.ManifestPdf.as_view(), name="manifest"),
    path("sancoes/<int:pk>/", views.SanctionDetail.as_view(), name="sanction"),
    path("fiscalizacao/", views_trips.RoadCheck.as_view(), name="road"),
]
