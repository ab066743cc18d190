"""`make demo`: a local installation on SQLite (or DATABASE_URL), debug on, a fixed dev key."""

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
