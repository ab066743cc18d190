from django.urls import path

from lotacao.public import views

app_name = "public"
urlpatterns = [
    path("veiculos/", views.search, name="search"),
    path("veiculos/<str:plate>/", views.vehicle, name="vehicle"),
    path("linhas/<slug:jurisdiction>/", views.lines, name="lines"),
    path("linhas/<slug:jurisdiction>/<str:code>/", views.line, name="line"),
]
