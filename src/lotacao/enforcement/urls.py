from django.urls import path

from lotacao.enforcement import views

app_name = "enforcement"
urlpatterns = [
    path("autos/", views.NoticeList.as_view(), name="notices"),
    path("autos/novo/", views.NoticeCreate.as_view(), name="notice_create"),
    path("autos/<int:pk>/", views.NoticeDetail.as_view(), name="notice"),
]
