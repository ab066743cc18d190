from django.urls import URLPattern, URLResolver, path

from lotacao.training import views

app_name = "training"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.CourseList.as_view(), name="courses"),
    path("<int:pk>/", views.CourseDetail.as_view(), name="course"),
    path("turmas/<int:pk>/", views.ClassDetail.as_view(), name="class"),
    path("certificados/<int:pk>/pdf/", views.CertificatePdf.as_view(), name="certificate_pdf"),
]
