from django.urls import URLPattern, URLResolver, path

from lotacao.portal import documents, lines, views

app_name = "portal"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("documentos/<int:pk>/", documents.document, name="document"),
    path("documentos/<int:pk>/arquivo/", documents.document_file, name="document_file"),
    path("linhas/", lines.lines_page, name="lines"),
]
