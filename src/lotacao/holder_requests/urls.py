from django.urls import URLPattern, URLResolver, path

from lotacao.holder_requests import views

app_name = "holder_requests"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.RequestList.as_view(), name="list"),
    path("novo/permissao/", views.NewApplication.as_view(), name="new_application"),
    path("novo/renovacao/", views.NewRenewal.as_view(), name="new_renewal"),
    path("novo/documento/", views.NewDocument.as_view(), name="new_document"),
    path("novo/substituicao-de-veiculo/", views.NewSubstitution.as_view(), name="new_substitution"),
    path("novo/vistoria/", views.NewBooking.as_view(), name="new_booking"),
    path("vistorias/horarios/", views.SlotList.as_view(), name="slots"),
    path("<int:pk>/", views.RequestDetail.as_view(), name="detail"),
]
