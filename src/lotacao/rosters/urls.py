from django.urls import URLPattern, URLResolver

app_name = "rosters"

urlpatterns: list[URLPattern | URLResolver] = []
