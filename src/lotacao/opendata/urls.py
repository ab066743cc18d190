from django.urls import URLPattern, URLResolver

app_name = "opendata"

urlpatterns: list[URLPattern | URLResolver] = []
