from django.urls import path

from lotacao.lines import views, views_orders

app_name = "lines"
urlpatterns = [
    path("", views.LineList.as_view(), name="list"),
    path("nova/", views.LineCreate.as_view(), name="create"),
    path("rede-de-onibus/", views.BusNetworks.as_view(), name="bus_networks"),
    path("<int:pk>/", views.LineDetail.as_view(), name="line"),
    path("<int:pk>/versao/", views.VersionCreate.as_view(), name="version_create"),
    path("<int:pk>/aprovar/", views.Approve.as_view(), name="approve"),
    path("<int:pk>/vagas/", views.Places.as_view(), name="places"),
    path("<int:pk>/ordem/", views_orders.OrderCreate.as_view(), name="order_create"),
    path("<int:pk>/ordem/verificar/", views_orders.OrderCheck.as_view(), name="order_check"),
]
