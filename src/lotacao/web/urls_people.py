"""The people screens (lotacao.web.views_people), mounted beside the registry's lists at /cadastro/
by lotacao.config.urls, under their own namespace: `people:person`, `people:company`…"""

from django.urls import path

from lotacao.web import views_people as views

app_name = "people"
urlpatterns = [
    path("pessoas/nova/", views.PersonCreate.as_view(), name="person_create"),
    path("pessoas/<int:pk>/", views.PersonFile.as_view(), name="person"),
    path("pessoas/<int:pk>/editar/", views.PersonEdit.as_view(), name="person_edit"),
    path("pessoas-juridicas/", views.CompanyList.as_view(), name="companies"),
    path("pessoas-juridicas/nova/", views.CompanyCreate.as_view(), name="company_create"),
    path("pessoas-juridicas/<int:pk>/", views.CompanyDetail.as_view(), name="company"),
    path("linhas/<int:pk>/representantes/", views.LineRepresentatives.as_view(), name="line_representatives"),
]
