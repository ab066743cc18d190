from django.urls import URLPattern, URLResolver

app_name = "tenders"

urlpatterns: list[URLPattern | URLResolver] = []
