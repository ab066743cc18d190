from django.urls import path

from lotacao.web import views_law as views

app_name = "law"
urlpatterns = [
    path("", views.LawValues.as_view(), name="values"),
    path("parametro/<str:name>/", views.ParameterValue.as_view(), name="parameter"),
    path("valores/<int:pk>/", views.AgencyValueDetail.as_view(), name="value"),
]
