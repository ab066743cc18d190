from django.contrib import admin
from django.urls import include, path

from lotacao.api.main import api
from lotacao.ops import health
from lotacao.public import api as public_api

urlpatterns = [
    # Liveness (no database) and readiness (database, migrations, nightly jobs): lotacao.ops.health.
    path("saude/vivo/", health.liveness, name="liveness"),
    path("saude/pronto/", health.readiness, name="readiness"),
    path("", include("lotacao.web.urls")),
    path("conta/", include("lotacao.accounts.urls")),
    path("conta/recuperar-senha/", include("lotacao.web.password")),  # forgot password (outbox)
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
    path("implantacao/", include("lotacao.onboarding.urls")),
    path("portal/", include("lotacao.portal.urls")),  # the holder's own home and pages
    path("requerimentos/", include("lotacao.holder_requests.urls")),
    path("deveres/", include("lotacao.duties.urls")),  # incidents, prior authorizations, reports
    path("ouvidoria/", include("lotacao.ombudsman.urls")),
    path("conselhos/", include("lotacao.councils.urls")),  # councils, sessions, resolutions
    path("escalas/", include("lotacao.rosters.urls")),  # rosters and duty logs
    path("editais/", include("lotacao.tenders.urls")),  # calls, applications, draw, award
    path("delegacao/", include("lotacao.delegation.urls")),  # Esteio's delegation contracts
    path("autorizacoes-de-servico/", include("lotacao.authorizations.urls")),  # táxi, escolar, fretado
    path("cursos/", include("lotacao.training.urls")),  # courses, classes, certificates
    path("dados/", include("lotacao.opendata.urls")),
    path("lembretes/", include("lotacao.reminders.urls")),
    path("conta/govbr/", include("lotacao.govbr.urls")),
    # The public plate check, the most asked path of all, is its API operation's own function served
    # without django-ninja's dispatch, which it does not need (no body, no authentication, the plate
    # checked by the function itself); the operation still documents it in the OpenAPI.
    path("api/public/vehicles/<str:plate>", public_api.plate_check, name="public_plate_check"),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
]

# A path no API operation matches answers a problem-details 404 on /api/ (lotacao.core.middleware).
handler404 = "lotacao.core.middleware.not_found"
