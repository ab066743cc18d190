from django.urls import URLPattern, URLResolver, path

from lotacao.reminders import views

app_name = "reminders"

urlpatterns: list[URLPattern | URLResolver] = [
    path("preferencias/", views.PreferencesView.as_view(), name="preferences"),
]
