from django.conf import settings
from django.urls import path

from lotacao.public import chartering, views

app_name = "public"
urlpatterns = [
    path("veiculos/", views.search, name="search"),
    path("veiculos/<str:plate>/", views.vehicle, name="vehicle"),
    path("linhas/<slug:jurisdiction>/", views.lines, name="lines"),
    path("linhas/<slug:jurisdiction>/<str:code>/", views.line, name="line"),
    path("fretamento/", chartering.companies, name="chartering_companies"),
    path("fretamento/crc/<uuid:token>/", chartering.crc_page, name="chartering_crc"),
    path("fretamento/viagens/<uuid:token>/", chartering.trip_page, name="chartering_trip"),
]
if getattr(settings, "LOTACAO_BENCH_VIEWS", False):
    urlpatterns.append(path("bench/json/", views.bare_json, name="bench_json"))
