"""Production: PostgreSQL from DATABASE_URL, behind gunicorn and a TLS-terminating proxy.

Refuses to start without DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and DATABASE_URL.
"""

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import ALLOWED_HOSTS, DATABASES, SECRET_KEY, env_bool

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
# Several app servers behind a balancer keep nothing in a process (docs/deployment.md):
# - the cache (the public check's rate-limit counters) is Redis when LOTACAO_REDIS_URL is set,
#   otherwise a table in the database (created by the public app's migration);
# - sessions live in the database (through the cache first when it is Redis); django-axes's
#   login failures are database rows;
# - uploads go to S3-compatible storage (django-storages) when LOTACAO_MEDIA_STORAGE=s3, to local
#   files (MEDIA_ROOT, a shared volume when there are several servers) otherwise.
REDIS_URL = os.environ.get("LOTACAO_REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "lotacao_cache"}
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.db"

MEDIA_STORAGE = os.environ.get("LOTACAO_MEDIA_STORAGE", "local")
if MEDIA_STORAGE == "s3":
    _media: dict[str, object] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ.get("LOTACAO_S3_BUCKET", ""),
            "endpoint_url": os.environ.get("LOTACAO_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("LOTACAO_S3_REGION") or None,
            "location": os.environ.get("LOTACAO_S3_PREFIX", "uploads"),
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
    if not _media["OPTIONS"]["bucket_name"]:  # type: ignore[index]
        raise ImproperlyConfigured(
            "LOTACAO_MEDIA_STORAGE=s3 pede LOTACAO_S3_BUCKET (e as credenciais AWS_*)."
        )
elif MEDIA_STORAGE == "local":
    _media = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
else:
    raise ImproperlyConfigured("LOTACAO_MEDIA_STORAGE deve ser local ou s3.")
STORAGES = {
    "default": _media,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# The public plate check may read from a PostgreSQL replica (lotacao.public.routing), falling back
# to the primary when the replica lags more than LOTACAO_PUBLIC_REPLICA_MAX_LAG seconds or is down.
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"],
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
    LOTACAO_PUBLIC_REPLICA = "replica"

# One JSON object per log line, for the log collector.
LOGGING["handlers"]["console"]["formatter"] = "json"  # type: ignore[index]  # noqa: F405
