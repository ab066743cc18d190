from django.urls import URLPattern, URLResolver, path

from lotacao.rosters import views

app_name = "rosters"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.RosterList.as_view(), name="list"),
    path("nova/", views.RosterCreate.as_view(), name="create"),
    path("<int:pk>/", views.RosterDetail.as_view(), name="detail"),
    path("linhas-da-escala/<int:pk>/retirar/", views.EntryRemove.as_view(), name="entry_remove"),
    path("jornadas/", views.DutyLogList.as_view(), name="duty_logs"),
    path("jornadas/nova/", views.DutyLogCreate.as_view(), name="duty_log_create"),
    path("jornadas/<int:pk>/", views.DutyLogDetail.as_view(), name="duty_log"),
]
