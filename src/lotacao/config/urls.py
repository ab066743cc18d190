from django.contrib import admin
from django.urls import include, path

from lotacao.api.main import api

urlpatterns = [
    path("", include("lotacao.web.urls")),
    path("conta/", include("lotacao.accounts.urls")),
    path("cadastro/", include("lotacao.registry.urls")),
    path("permissoes/", include("lotacao.permits.urls")),
    path("documentos/", include("lotacao.documents.urls")),
    path("vistorias/", include("lotacao.inspections.urls")),
    path("fiscalizacao/", include("lotacao.enforcement.urls")),
    path("fretamento/", include("lotacao.chartering.urls")),
    path("fila/", include("lotacao.workqueue.urls")),
    path("lei/", include("lotacao.web.urls_law")),
    path("publico/", include("lotacao.public.urls")),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
]
