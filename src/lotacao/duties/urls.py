from django.urls import URLPattern, URLResolver, path

from lotacao.duties import views

app_name = "duties"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.DutiesHome.as_view(), name="home"),
    path("ocorrencias/", views.IncidentList.as_view(), name="incidents"),
    path("ocorrencias/nova/", views.IncidentCreate.as_view(), name="incident_create"),
    path("ocorrencias/<int:pk>/", views.IncidentDetail.as_view(), name="incident"),
    path("ocorrencias/fotos/<int:pk>/", views.IncidentPhotoFile.as_view(), name="incident_photo"),
    path("autorizacoes/", views.AuthorizationList.as_view(), name="authorizations"),
    path("autorizacoes/nova/", views.AuthorizationCreate.as_view(), name="authorization_create"),
    path("autorizacoes/<int:pk>/", views.AuthorizationDetail.as_view(), name="authorization"),
    path("relatorios/", views.ReportList.as_view(), name="reports"),
    path("relatorios/arquivos/<int:pk>/", views.ReportFile.as_view(), name="report_file"),
]
