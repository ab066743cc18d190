from django.conf import settings
from django.urls import path

from lotacao.public import chartering, complaints, home, line_proposals, views

app_name = "public"
urlpatterns = [
    path("", home.home, name="home"),
    path("veiculos/", views.search, name="search"),
    path("veiculos/<str:plate>/", views.vehicle, name="vehicle"),
    path("linhas/", home.line_index, name="line_index"),
    path("linhas/<slug:jurisdiction>/", views.lines, name="lines"),
    path("linhas/<slug:jurisdiction>/<str:code>/", views.line, name="line"),
    path("linhas/<slug:jurisdiction>/<str:code>/propor/", line_proposals.propose, name="line_propose"),
    path("fretamento/", chartering.companies, name="chartering_companies"),
    path("fretamento/crc/<uuid:token>/", chartering.crc_page, name="chartering_crc"),
    path("fretamento/viagens/<uuid:token>/", chartering.trip_page, name="chartering_trip"),
    path("manifestacao/", complaints.file, name="complaint_file"),
    path("manifestacao/acompanhar/", complaints.follow, name="complaint_follow"),
    path("ouvidoria/<slug:jurisdiction>/", complaints.statistics, name="complaint_stats"),
    path(
        "ouvidoria/<slug:jurisdiction>/relatorio-<int:year>.pdf",
        complaints.report_pdf,
        name="complaint_report",
    ),
    path("<slug:jurisdiction>/", home.place_home, name="place_home"),
]
if getattr(settings, "LOTACAO_BENCH_VIEWS", False):
    urlpatterns.insert(-1, path("bench/json/", views.bare_json, name="bench_json"))
