from django.urls import URLPattern, URLResolver, path

from lotacao.tenders import views

app_name = "tenders"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.CallList.as_view(), name="home"),
    path("novo/", views.CallCreate.as_view(), name="call_create"),
    path("publico/", views.PublicRankings.as_view(), name="public"),
    path("<int:pk>/", views.CallDetail.as_view(), name="call"),
]
