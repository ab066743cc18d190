"""Moving in: the operator's agency screen and the manager's register import."""

from django.urls import URLPattern, URLResolver, path  # noqa: F401

app_name = "onboarding"

urlpatterns: list[URLPattern | URLResolver] = [
    # agency (setup_agency's screen)
    # register (import and export)
]
