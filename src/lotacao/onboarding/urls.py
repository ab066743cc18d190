"""Moving in: the operator's agency screen and the manager's register import."""

from django.urls import URLPattern, URLResolver, path

from lotacao.onboarding import views_agency

app_name = "onboarding"

urlpatterns: list[URLPattern | URLResolver] = [
    # agency (setup_agency's screen)
    path("orgao/", views_agency.AgencyView.as_view(), name="agency"),
    # register (import and export)
]
