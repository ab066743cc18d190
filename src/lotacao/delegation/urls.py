from django.urls import URLPattern, URLResolver, path

from lotacao.delegation import views

app_name = "delegation"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.ContractList.as_view(), name="list"),
    path("novo/", views.ContractCreate.as_view(), name="contract_create"),
    path("consorcios/", views.ConsortiumList.as_view(), name="consortia"),
    path("<int:pk>/", views.ContractDetail.as_view(), name="contract"),
    path("inqueritos/<int:pk>/", views.InquiryDetail.as_view(), name="inquiry"),
]
