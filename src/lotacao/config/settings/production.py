"""Production: PostgreSQL from DATABASE_URL, behind gunicorn and a TLS-terminating proxy.

Refuses to start without DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and DATABASE_URL.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import ALLOWED_HOSTS, SECRET_KEY, env_bool

missing = [
    name
    for name, present in (
        ("DJANGO_SECRET_KEY", bool(SECRET_KEY)),
        ("DJANGO_ALLOWED_HOSTS", bool(ALLOWED_HOSTS)),
        ("DATABASE_URL", bool(os.environ.get("DATABASE_URL"))),
    )
    if not present
]
if missing:
    raise ImproperlyConfigured(
        "Configuração de produção incompleta: defina " + ", ".join(missing) + " no ambiente."
    )
if len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY deve ter pelo menos 50 caracteres aleatórios.")

DEBUG = False
SECURE_SSL_REDIRECT = env_bool("LOTACAO_SSL_REDIRECT", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = int(os.environ.get("LOTACAO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("LOTACAO_HSTS_PRELOAD", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# One JSON object per log line, for the log collector.
LOGGING["handlers"]["console"]["formatter"] = "json"  # type: ignore[index]  # noqa: F405
