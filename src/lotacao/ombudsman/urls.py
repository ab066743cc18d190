from django.urls import URLPattern, URLResolver, path

from lotacao.ombudsman import views

app_name = "ombudsman"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.queue, name="queue"),
    path("nova/", views.intake, name="intake"),
    path("<int:pk>/", views.detail, name="complaint"),
    path("<int:pk>/identificacao/", views.identity, name="identity"),
    path("<int:pk>/<slug:action>/", views.act, name="act"),
    path("fotos/<int:pk>/", views.photo, name="photo"),
]
