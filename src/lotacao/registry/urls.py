from django.urls import path

from lotacao.registry import views, views_people

app_name = "registry"
urlpatterns = [
    path("pessoas/", views.PersonList.as_view(), name="persons"),
    path("pessoas/nova/", views_people.PersonCreate.as_view(), name="person_create"),
    path("pessoas/<int:pk>/", views_people.PersonFile.as_view(), name="person"),
    path("pessoas/<int:pk>/editar/", views_people.PersonEdit.as_view(), name="person_edit"),
    path("pessoas-juridicas/", views_people.CompanyList.as_view(), name="companies"),
    path("pessoas-juridicas/nova/", views_people.CompanyCreate.as_view(), name="company_create"),
    path("pessoas-juridicas/<int:pk>/", views_people.CompanyDetail.as_view(), name="company"),
    path("permissionarios/", views.HolderList.as_view(), name="holders"),
    path("permissionarios/<int:pk>/", views.HolderDetail.as_view(), name="holder"),
    path("veiculos/", views.VehicleList.as_view(), name="vehicles"),
    path("veiculos/<int:pk>/", views.VehicleDetail.as_view(), name="vehicle"),
    path("linhas/", views.LineList.as_view(), name="lines"),
    path("linhas/<int:pk>/", views.LineDetail.as_view(), name="line"),
    path(
        "linhas/<int:pk>/representantes/",
        views_people.LineRepresentatives.as_view(),
        name="line_representatives",
    ),
]
