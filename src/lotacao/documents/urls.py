from django.urls import path

from lotacao.documents import views

app_name = "documents"
urlpatterns = [
    path("<int:pk>/", views.DocumentDetail.as_view(), name="document"),
    path("<int:pk>/arquivo/", views.DocumentFile.as_view(), name="file"),
    path("pessoa/<int:pk>/novo/", views.PersonUpload.as_view(), name="upload_person"),
    path("pessoa-juridica/<int:pk>/novo/", views.CompanyUpload.as_view(), name="upload_company"),
    path("veiculo/<int:pk>/novo/", views.VehicleUpload.as_view(), name="upload_vehicle"),
]
