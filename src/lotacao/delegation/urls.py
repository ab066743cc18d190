from django.urls import URLPattern, URLResolver

app_name = "delegation"

urlpatterns: list[URLPattern | URLResolver] = []
