from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("lotacao.web.urls")),
    path("conta/", include("lotacao.accounts.urls")),
    path("cadastro/", include("lotacao.registry.urls")),
    path("admin/", admin.site.urls),
]
