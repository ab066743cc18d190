from django.urls import URLPattern, URLResolver, path

from lotacao.councils import views

app_name = "councils"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.CouncilList.as_view(), name="list"),
    path("<int:pk>/", views.CouncilDetail.as_view(), name="council"),
    path("<int:pk>/cadeira/", views.SeatCreate.as_view(), name="seat_create"),
    path("<int:pk>/membro/", views.MemberCreate.as_view(), name="member_create"),
    path("<int:pk>/sessao/", views.SessionCreate.as_view(), name="session_create"),
    path("<int:pk>/resolucao/", views.ResolutionCreate.as_view(), name="resolution_create"),
    path("sessao/<int:pk>/presenca/", views.AttendanceRecord.as_view(), name="attendance"),
    path("resolucao/<int:pk>/", views.ResolutionDetail.as_view(), name="resolution"),
]
