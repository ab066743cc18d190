from django.urls import URLPattern, URLResolver, path

from lotacao.authorizations import views

app_name = "authorizations"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.AuthorizationList.as_view(), name="list"),
    path("nova/", views.AuthorizationCreate.as_view(), name="create"),
    path("<int:pk>/", views.AuthorizationDetail.as_view(), name="detail"),
]
