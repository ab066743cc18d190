from django.urls import path

from lotacao.workqueue import views

app_name = "workqueue"
urlpatterns = [path("", views.queue, name="queue")]
