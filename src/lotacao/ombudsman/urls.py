from django.urls import URLPattern, URLResolver, path
from django.views.generic import RedirectView

from lotacao.ombudsman import views

app_name = "ombudsman"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", RedirectView.as_view(pattern_name="ombudsman:queue"), name="home"),
    path("fila/", views.queue, name="queue"),
    path("nova/", views.intake, name="intake"),
    path("<int:pk>/", views.ComplaintDetail.as_view(), name="complaint"),
    path("fotos/<int:pk>/", views.ComplaintPhotoFile.as_view(), name="photo"),
]
