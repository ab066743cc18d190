from django.urls import URLPattern, URLResolver

app_name = "holder_requests"

urlpatterns: list[URLPattern | URLResolver] = []
