"""The vehicle screens (lotacao.inspections.views_vehicles), mounted beside the registry's lists at
/cadastro/ by lotacao.config.urls, under their own namespace: `vehicles:file`, `vehicles:create`…"""

from django.urls import path

from lotacao.inspections import views_vehicles as views

app_name = "vehicles"
urlpatterns = [
    path("veiculos/novo/", views.VehicleCreate.as_view(), name="create"),
    path("veiculos/<int:pk>/ficha/", views.VehicleFile.as_view(), name="file"),
    path("veiculos/<int:pk>/alterar/", views.VehicleEdit.as_view(), name="edit"),
    path("veiculos/<int:pk>/substituir/", views.VehicleReplace.as_view(), name="replace"),
    path("veiculos/<int:pk>/seguro/", views.InsuranceCreate.as_view(), name="insurance"),
    path(
        "veiculos/<int:pk>/autorizacao-provisoria/", views.ProvisionalCreate.as_view(), name="provisional"
    ),
    path(
        "veiculos/autorizacoes-provisorias/<int:pk>/encerrar/",
        views.ProvisionalEnd.as_view(),
        name="provisional_end",
    ),
]
