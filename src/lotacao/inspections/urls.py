from django.urls import path

from lotacao.inspections import views

app_name = "inspections"
urlpatterns = [
    path("", views.Agenda.as_view(), name="agenda"),
    path("<int:pk>/", views.InspectionDetail.as_view(), name="inspection"),
    path("veiculos/<int:pk>/agendar/", views.Schedule.as_view(), name="schedule"),
    path("veiculos/<int:pk>/selo/", views.SealIssue.as_view(), name="seal_issue"),
    path("selos/<int:pk>/pdf/", views.SealPdf.as_view(), name="seal_pdf"),
    path("notificacoes/<int:pk>/", views.NoticeDetail.as_view(), name="notice"),
    path("recadastramento/", views.Campaigns.as_view(), name="campaigns"),
    path("recadastramento/<int:pk>/", views.CampaignDetail.as_view(), name="campaign"),
]
