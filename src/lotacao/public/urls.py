from django.urls import path

from lotacao.public import views

app_name = "public"
urlpatterns = [
    path("veiculos/", views.search, name="search"),
    path("veiculos/<str:plate>/", views.vehicle, name="vehicle"),
]
