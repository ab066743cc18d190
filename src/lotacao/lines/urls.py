from django.urls import path

from lotacao.lines import views, views_life, views_orders

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
    path("pedidos/", views_life.RequestList.as_view(), name="requests"),
    path("pedidos/nova-linha/", views_life.RequestCreate.as_view(), name="request_create_line"),
    path("pedidos/<int:pk>/", views_life.RequestDetail.as_view(), name="request"),
    path("pedidos/<int:pk>/estudo/", views_life.RequestStudyFile.as_view(), name="request_study"),
    path("<int:pk>/pedido/", views_life.RequestCreate.as_view(), name="request_create"),
    path("<int:pk>/extinguir/", views_life.LineEndCreate.as_view(), name="end"),
    path("<int:pk>/temporaria/", views_life.TemporaryCreate.as_view(), name="temporary_create"),
    path("temporarias/<int:pk>/cancelar/", views_life.TemporaryCancel.as_view(), name="temporary_cancel"),
]
