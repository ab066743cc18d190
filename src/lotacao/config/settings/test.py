"""pytest: SQLite in memory by default, PostgreSQL when DATABASE_URL is set."""

import os

import dj_database_url

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-only-key-not-secret"  # noqa: S105
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=0)}
    # A second database standing in for the public check's replica (tests/public/test_replica.py);
    # created only for the tests that ask for it.
    DATABASES["replica"] = {**DATABASES["default"], "NAME": f"{DATABASES['default']['NAME']}_replica"}
else:
    DATABASES = {
        "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"},
        "replica": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"},
    }
# Fast hashing in tests, except the test that checks Argon2 is the production hasher.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *PASSWORD_HASHERS]  # noqa: F405
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Static files are served by runserver/finders here; WhiteNoise is for production.
MIDDLEWARE = [m for m in MIDDLEWARE if m != "whitenoise.middleware.WhiteNoiseMiddleware"]  # noqa: F405

# Tasks run at once in the test process; tests of the workers override TASKS with the database
# backend (tests/ops/test_tasks.py).
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
        "QUEUES": ["default", "nightly"],
    }
}
