from django.contrib.auth.forms import AuthenticationForm


class LoginForm(AuthenticationForm):
    error_messages = {
        "invalid_login": (
            "Usuário ou senha incorretos. Após várias tentativas o acesso é bloqueado por alguns minutos."
        ),
        "inactive": "Esta conta está desativada.",
    }
