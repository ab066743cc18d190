from django.urls import path, re_path
from django.views.generic import RedirectView

from lotacao.registry import views

app_name = "registry"
urlpatterns = [
    path("pessoas/", views.PersonList.as_view(), name="persons"),
    path("permissionarios/", views.HolderList.as_view(), name="holders"),
    path("permissionarios/<int:pk>/", views.HolderDetail.as_view(), name="holder"),
    path("veiculos/", views.VehicleList.as_view(), name="vehicles"),
    path("veiculos/<int:pk>/", views.VehicleDetail.as_view(), name="vehicle"),
    # Lines live in their own wing (/linhas/, lotacao.lines): the register's old addresses lead there.
    path("linhas/", RedirectView.as_view(pattern_name="lines:list", permanent=True)),
    re_path(r"^linhas/(?P<pk>[0-9]+)/$", RedirectView.as_view(pattern_name="lines:line", permanent=True)),
]
