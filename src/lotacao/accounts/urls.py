from django.contrib.auth import views as auth_views
from django.urls import path

from lotacao.accounts import views
from lotacao.accounts.forms import LoginForm

app_name = "accounts"
urlpatterns = [
    path(
        "entrar/",
        auth_views.LoginView.as_view(template_name="accounts/login.html", authentication_form=LoginForm),
        name="login",
    ),
    path("sair/", auth_views.LogoutView.as_view(), name="logout"),
    path("senha/", views.PasswordChangeView.as_view(), name="password_change"),
]
