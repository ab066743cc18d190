from django.urls import path

from lotacao.permits import views

app_name = "permits"
urlpatterns = [
    path("", views.PermitList.as_view(), name="list"),
    path("nova/", views.ApplicationCreate.as_view(), name="apply"),
    path("<int:pk>/", views.PermitDetail.as_view(), name="detail"),
    path("<int:pk>/outorga/", views.GrantStep.as_view(), name="grant"),
    path("<int:pk>/termo.pdf", views.TermPdf.as_view(), name="term"),
    path("<int:pk>/suspender/", views.TransitionView.as_view(action="suspend"), name="suspend"),
    path("<int:pk>/reativar/", views.TransitionView.as_view(action="reinstate"), name="reinstate"),
    path("<int:pk>/cassar/", views.TransitionView.as_view(action="revoke"), name="revoke"),
    path("<int:pk>/desistencia/", views.TransitionView.as_view(action="withdraw"), name="withdraw"),
    path("<int:pk>/prorrogar/", views.TransitionView.as_view(action="renew"), name="renew"),
    path("<int:pk>/transferir/", views.TransitionView.as_view(action="transfer"), name="transfer"),
    path("<int:pk>/prepostos/novo/", views.TransitionView.as_view(action="agent"), name="agent"),
]
