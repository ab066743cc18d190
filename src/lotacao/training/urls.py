from django.urls import URLPattern, URLResolver

app_name = "training"

urlpatterns: list[URLPattern | URLResolver] = []
