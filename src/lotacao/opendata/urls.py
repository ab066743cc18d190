from django.urls import URLPattern, URLResolver, path

from lotacao.opendata import views

app_name = "opendata"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("catalogo.jsonld", views.catalogue, name="catalogue"),
    path("<slug:jurisdiction>/<slug:slug>.csv", views.download, name="download"),
]
