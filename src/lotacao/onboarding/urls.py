"""Moving in: the operator's agency screen and the manager's register import."""

from django.urls import URLPattern, URLResolver, path

from lotacao.onboarding import register_views, views_agency

app_name = "onboarding"

urlpatterns: list[URLPattern | URLResolver] = [
    # agency (setup_agency's screen)
    path("orgao/", views_agency.AgencyView.as_view(), name="agency"),
    # register (import and export)
    path("cadastro/", register_views.RegisterImport.as_view(), name="register"),
    path("cadastro/confirmar/", register_views.RegisterConfirm.as_view(), name="register_confirm"),
    path("cadastro/modelos/", register_views.register_templates, name="register_templates"),
    path("cadastro/exportar/", register_views.register_export, name="register_export"),
]
