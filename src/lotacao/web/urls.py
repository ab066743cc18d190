from django.urls import path

from lotacao.web import views

app_name = "web"
urlpatterns = [
    path("", views.home, name="home"),
    path("saude/", views.health, name="health"),
    path("busca/", views.search, name="search"),
]
