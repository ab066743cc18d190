"""`make demo`: a local installation on SQLite (or DATABASE_URL), debug on, a fixed dev key."""

import os

from .base import *  # noqa: F403
from .base import env_list

DEBUG = True
SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS") or ["127.0.0.1", "localhost", "[::1]"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Static files are served by runserver/finders here; WhiteNoise is for production.
MIDDLEWARE = [m for m in MIDDLEWARE if m != "whitenoise.middleware.WhiteNoiseMiddleware"]  # noqa: F405

# On PostgreSQL, runserver starts a thread per request, and with persistent connections
# (CONN_MAX_AGE=60) each thread kept its own: 100 concurrent requests exhausted the server's 100
# connections. Django's psycopg pool shares a bounded set instead (a request waits for a free one,
# up to `timeout` seconds). Size: LOTACAO_DB_POOL_MAX_SIZE (10 by default).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {  # noqa: F405
        "min_size": 1,
        "max_size": int(os.environ.get("LOTACAO_DB_POOL_MAX_SIZE", "10")),
        "timeout": 30,
    }

# The demo prints e-mail on the console (runserver's or the worker's) unless a backend is set.
EMAIL_BACKEND = os.environ.get("LOTACAO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
