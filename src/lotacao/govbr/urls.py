from django.urls import URLPattern, URLResolver, path

from lotacao.govbr import views

app_name = "govbr"

urlpatterns: list[URLPattern | URLResolver] = [
    path("entrar/", views.start, name="start"),
    path("retorno/", views.callback, name="callback"),
    path("vincular/", views.link, name="link"),
]
