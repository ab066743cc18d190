from django.urls import URLPattern, URLResolver, path

from lotacao.portal import views

app_name = "portal"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
]
