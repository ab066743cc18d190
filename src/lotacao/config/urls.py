from django.contrib import admin
from django.urls import include, path

from lotacao.api.main import api
from lotacao.ops import health

urlpatterns = [
    # Liveness (no database) and readiness (database, migrations, nightly jobs): lotacao.ops.health.
    path("saude/vivo/", health.liveness, name="liveness"),
    path("saude/pronto/", health.readiness, name="readiness"),
    path("", include("lotacao.web.urls")),
    path("conta/", include("lotacao.accounts.urls")),
    path("cadastro/", include("lotacao.registry.urls")),
    path("cadastro/", include("lotacao.inspections.urls_vehicles")),  # the vehicle's file and writes
    path("cadastro/", include("lotacao.web.urls_people")),  # people's pages and writes
    path("permissoes/", include("lotacao.permits.urls")),
    path("documentos/", include("lotacao.documents.urls")),
    path("vistorias/", include("lotacao.inspections.urls")),
    path("linhas/", include("lotacao.lines.urls")),
    path("fiscalizacao/", include("lotacao.enforcement.urls")),
    path("fretamento/", include("lotacao.chartering.urls")),
    path("fila/", include("lotacao.workqueue.urls")),
    path("cobranca/", include("lotacao.billing.urls")),
    path("lei/", include("lotacao.web.urls_law")),
    path("publico/", include("lotacao.public.urls")),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
]

# A path no API operation matches answers a problem-details 404 on /api/ (lotacao.core.middleware).
handler404 = "lotacao.core.middleware.not_found"
