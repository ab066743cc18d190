from django.urls import path

from lotacao.registry import views

app_name = "registry"
urlpatterns = [
    path("pessoas/", views.PersonList.as_view(), name="persons"),
    path("permissionarios/", views.HolderList.as_view(), name="holders"),
    path("permissionarios/<int:pk>/", views.HolderDetail.as_view(), name="holder"),
    path("veiculos/", views.VehicleList.as_view(), name="vehicles"),
    path("veiculos/<int:pk>/", views.VehicleDetail.as_view(), name="vehicle"),
    path("linhas/", views.LineList.as_view(), name="lines"),
    path("linhas/<int:pk>/", views.LineDetail.as_view(), name="line"),
]
