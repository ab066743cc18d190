from django.urls import URLPattern, URLResolver

app_name = "councils"

urlpatterns: list[URLPattern | URLResolver] = []
