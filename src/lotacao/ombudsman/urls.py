from django.urls import URLPattern, URLResolver

app_name = "ombudsman"

urlpatterns: list[URLPattern | URLResolver] = []
