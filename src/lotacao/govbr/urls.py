from django.urls import URLPattern, URLResolver

app_name = "govbr"

urlpatterns: list[URLPattern | URLResolver] = []
