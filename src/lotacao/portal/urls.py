from django.urls import URLPattern, URLResolver

app_name = "portal"

urlpatterns: list[URLPattern | URLResolver] = []
