from django.urls import path

from lotacao.web import views_law as views

app_name = "law"
urlpatterns = [
    path("", views.LawValues.as_view(), name="values"),
    path("parametro/", views.ParameterValue.as_view(), name="parameter"),  # ?j=<code>&p=<parameter>
    path("valores/<int:pk>/", views.AgencyValueDetail.as_view(), name="value"),
]
