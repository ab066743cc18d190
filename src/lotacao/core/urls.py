from django.urls import path

from lotacao.core import views

app_name = "core"
urlpatterns = [
    path("", views.LawValues.as_view(), name="values"),
    path("valores/<int:pk>/", views.AgencyValueDetail.as_view(), name="value"),
]
