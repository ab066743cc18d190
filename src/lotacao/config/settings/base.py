"""Settings shared by every environment; everything that varies comes from the environment."""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

from .sqlite import embedded

BASE_DIR = Path(__file__).resolve().parents[4]  # the repository root (…/src/lotacao/config/settings)
VAR_DIR = Path(os.environ.get("LOTACAO_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on", "sim"}


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
DEBUG = False
ALLOWED_HOSTS: list[str] = env_list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS: list[str] = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "axes",
    "csp",
    "ninja",  # Swagger UI's files served from our own static files (/api/docs under our CSP)
    "django_tasks",
    "django_tasks_db",
    "lotacao.core",
    "lotacao.accounts",
    "lotacao.audit",
    "lotacao.registry",
    "lotacao.billing",
    "lotacao.permits",
    "lotacao.documents",
    "lotacao.councils",
    "lotacao.training",
    "lotacao.inspections",
    "lotacao.lines",
    "lotacao.chartering",
    "lotacao.duties",
    "lotacao.holder_requests",
    "lotacao.rosters",
    "lotacao.tenders",
    "lotacao.enforcement",
    "lotacao.ombudsman",
    "lotacao.delegation",
    "lotacao.authorizations",
    "lotacao.workqueue",
    "lotacao.outbox",
    "lotacao.public",
    "lotacao.portal",
    "lotacao.opendata",
    "lotacao.reminders",
    "lotacao.govbr",
    "lotacao.api",
    "lotacao.web",
    "lotacao.ops",
    "lotacao.onboarding",
    "lotacao.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "lotacao.core.middleware.BadInputMiddleware",
    "lotacao.core.middleware.NoStoreMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "lotacao.accounts.middleware.TenancyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "lotacao.accounts.middleware.IdleTimeoutMiddleware",
    "lotacao.accounts.middleware.PasswordChangeMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
    # the innermost: real 404 and 500 pages even with DEBUG on (the demo); a no-op without DEBUG
    "lotacao.public.errors.ErrorPagesMiddleware",
]

ROOT_URLCONF = "lotacao.config.urls"
# Every form's fields in the gov.br DS's wrappers (br-input, br-select, br-textarea, feedback).
FORM_RENDERER = "lotacao.web.forms_renderer.GovBrFormRenderer"
WSGI_APPLICATION = "lotacao.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "OPTIONS": {
            # Our apps' templates get the gov.br DS's classes on plain buttons and tables as they
            # are read (lotacao.web.template_loaders); cached, as Django's default loaders are.
            "loaders": [("django.template.loaders.cached.Loader", ["lotacao.web.template_loaders.Loader"])],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "lotacao.accounts.context_processors.tenancy",
                "lotacao.web.regimes.regimes",
                "lotacao.web.menu.menu",
                "lotacao.web.chrome.chrome",
                "lotacao.govbr.context.govbr",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{VAR_DIR / 'lotacao.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# SQLite as a server's database: WAL, a busy timeout and IMMEDIATE transactions (settings/sqlite.py).
DATABASES["default"] = embedded(DATABASES["default"])
# Two roles in production (lotacao.audit.roles, README "Produção"): DATABASE_URL is the serving
# role, which may only add to and read the audit log; MIGRATE_DATABASE_URL, when set, is the owner
# of the tables (alias "owner"): `manage.py migrate --database owner`, after which the serving role
# named by LOTACAO_SERVING_ROLE is granted its privileges.
if os.environ.get("MIGRATE_DATABASE_URL"):
    DATABASES["owner"] = dj_database_url.parse(os.environ["MIGRATE_DATABASE_URL"], conn_max_age=0)
LOTACAO_SERVING_ROLE = os.environ.get("LOTACAO_SERVING_ROLE", "")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "accounts:login"

# Argon2 first: new and re-saved passwords are hashed with it.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login throttling (django-axes): per user name and IP together, with a cool-off; and per IP
# across user names (lotacao.accounts.throttling: 20 failures of any names lock the address).
AXES_FAILURE_LIMIT = int(os.environ.get("LOTACAO_LOGIN_FAILURE_LIMIT", "5"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "lotacao.accounts.throttling.AddressAwareHandler"
LOTACAO_LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOTACAO_LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOTACAO_LOGIN_COOLOFF_MINUTES", "15")))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/lockout.html"
AXES_IPWARE_PROXY_COUNT = int(os.environ.get("LOTACAO_PROXY_COUNT", "0")) or None

# Sessions: rotated at login (Django's login() cycles the key); staff sessions expire after
# a period without activity (IdleTimeoutMiddleware), permit holders' after a longer one.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 8
STAFF_IDLE_TIMEOUT = int(os.environ.get("LOTACAO_STAFF_IDLE_SECONDS", str(30 * 60)))
HOLDER_IDLE_TIMEOUT = int(os.environ.get("LOTACAO_HOLDER_IDLE_SECONDS", str(2 * 60 * 60)))
CSRF_COOKIE_HTTPONLY = True

# Content-Security-Policy on every response (django-csp): no inline scripts or styles.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Portuguese first: pt-BR, Brazilian formats, the agency's time zone (per jurisdiction at run time).
LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", "Português (Brasil)")]
TIME_ZONE = "America/Recife"
USE_I18N = True
USE_TZ = True
# Off: years and numbers such as RENAVAM must not read 2.023; money goes through the brl filter.
USE_THOUSAND_SEPARATOR = False

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("LOTACAO_STATIC_ROOT", VAR_DIR / "static"))
# Uploaded documents live outside the web root and are served only through checked views.
MEDIA_ROOT = Path(os.environ.get("LOTACAO_MEDIA_ROOT", VAR_DIR / "media"))
# Map tiles of the line maps (Leaflet): an OpenStreetMap-style template; its host is allowed in the
# Content-Security-Policy of the map pages only.
# No tile server by default: maps are drawn without a third party (lines/maps.py); an agency sets its
# own server ("https://mapas.exemplo.gov.br/{z}/{x}/{y}.png") and the attribution its tiles require.
LOTACAO_MAP_TILES = os.environ.get("LOTACAO_MAP_TILES", "")
LOTACAO_MAP_ATTRIBUTION = os.environ.get("LOTACAO_MAP_ATTRIBUTION", "")
DOCUMENT_MAX_UPLOAD_BYTES = int(os.environ.get("LOTACAO_DOCUMENT_MAX_BYTES", str(10 * 1024 * 1024)))
# The largest uploaded image, in pixels (lotacao.core.uploads; 50 megapixels by default).
LOTACAO_UPLOAD_MAX_PIXELS = int(os.environ.get("LOTACAO_UPLOAD_MAX_PIXELS", str(50_000_000)))
# Uploaded archives and tables (lotacao.core.uploads.open_zip, bounded_lines): the most an archive
# may decompress to, the most lines a table may have, the longest a request may spend unpacking.
LOTACAO_UPLOAD_MAX_UNZIPPED_BYTES = int(
    os.environ.get("LOTACAO_UPLOAD_MAX_UNZIPPED_BYTES", str(256 * 1024 * 1024))
)
LOTACAO_UPLOAD_MAX_ROWS = int(os.environ.get("LOTACAO_UPLOAD_MAX_ROWS", "5000000"))
LOTACAO_UPLOAD_MAX_SECONDS = float(os.environ.get("LOTACAO_UPLOAD_MAX_SECONDS", "20"))
# Dates every form and API operation accepts: from 01/01/1900 to this many years ahead
# (lotacao.core.horizon).
LOTACAO_DATE_YEARS_AHEAD = int(os.environ.get("LOTACAO_DATE_YEARS_AHEAD", "50"))

# Idempotent API POSTs (lotacao.core.idempotency): the model that stores the keys, and after how
# many seconds a key left in progress by a worker that died is taken over by a retry.
LOTACAO_IDEMPOTENCY_MODEL = "enforcement.IdempotencyKey"
LOTACAO_IDEMPOTENCY_TAKEOVER_SECONDS = int(os.environ.get("LOTACAO_IDEMPOTENCY_TAKEOVER_SECONDS", "60"))

# Logging: readable lines here; production.py switches the console to JSON lines.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "lotacao.core.logging.JsonLinesFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOTACAO_LOG_LEVEL", "INFO")},
    "loggers": {
        "axes": {"level": "WARNING"},
        # WeasyPrint and fontTools narrate every PDF ("Step 2 - Fetching and parsing CSS").
        "weasyprint": {"level": "WARNING"},
        "weasyprint.progress": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

# The public plate check (lotacao.public): its rate limit per client address ("requests/seconds",
# counted in the shared cache), the proxies in front of the app (X-Forwarded-For hops to trust),
# and the replica it may read from (see docs/deployment.md). LOTACAO_BENCH_VIEWS routes the bench's
# bare JSON view (bench/bench_public.py), never on in a real installation.
LOTACAO_PUBLIC_RATE_LIMIT = os.environ.get("LOTACAO_PUBLIC_RATE_LIMIT", "120/60")
LOTACAO_PROXY_COUNT = int(os.environ.get("LOTACAO_PROXY_COUNT", "0"))
LOTACAO_PUBLIC_REPLICA: str | None = None
LOTACAO_PUBLIC_REPLICA_MAX_LAG = float(os.environ.get("LOTACAO_PUBLIC_REPLICA_MAX_LAG", "1"))
LOTACAO_PUBLIC_REPLICA_PROBE_SECONDS = float(os.environ.get("LOTACAO_PUBLIC_REPLICA_PROBE_SECONDS", "5"))
# The plate check's query as a statement prepared on each PostgreSQL connection; turn off behind a
# pooler that cannot keep prepared statements (PgBouncer before 1.21 in transaction mode).
LOTACAO_PUBLIC_PREPARED = env_bool("LOTACAO_PUBLIC_PREPARED", True)
# While `migrate` runs, every query goes to the database being migrated (lotacao.core.routing).
DATABASE_ROUTERS = ["lotacao.core.routing.MigratingAliasRouter", "lotacao.public.routing.PublicReplicaRouter"]
LOTACAO_BENCH_VIEWS = os.environ.get("LOTACAO_BENCH_VIEWS") == "1"

# Background tasks (django-tasks with django-tasks-db's database backend, on SQLite or PostgreSQL):
# the nightly jobs (queue "nightly", lotacao.ops.tasks) and the outbox's delivery (queue "default").
# Workers: `manage.py db_worker --queue-name '*'` (docs/deployment.md); `run_nightly` also works
# the nightly queue itself, so the one cron line needs no worker.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "nightly"],
    }
}

# The outbox (lotacao.outbox): e-mail through Django's mail framework (EMAIL_BACKEND; SMTP below
# or a django-anymail provider), SMS through LOTACAO_SMS_BACKEND (by default a file per message
# under var/sms: nothing is sent to a phone until a provider's backend is set).
DEFAULT_FROM_EMAIL = os.environ.get("LOTACAO_EMAIL_FROM", "Lotação <nao-responda@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_BACKEND = os.environ.get("LOTACAO_EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("LOTACAO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("LOTACAO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("LOTACAO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("LOTACAO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("LOTACAO_EMAIL_TLS", "") == "starttls"
EMAIL_USE_SSL = os.environ.get("LOTACAO_EMAIL_TLS", "") == "ssl"
EMAIL_TIMEOUT = int(os.environ.get("LOTACAO_EMAIL_TIMEOUT", "30"))
LOTACAO_SMS_BACKEND = os.environ.get("LOTACAO_SMS_BACKEND", "lotacao.outbox.backends.FileSMSBackend")
LOTACAO_SMS_DIR = Path(os.environ.get("LOTACAO_SMS_DIR", VAR_DIR / "sms"))
LOTACAO_OUTBOX_MAX_ATTEMPTS = int(os.environ.get("LOTACAO_OUTBOX_MAX_ATTEMPTS", "8"))
# Password reset links expire (Django's token): 2 hours.
PASSWORD_RESET_TIMEOUT = int(os.environ.get("LOTACAO_PASSWORD_RESET_SECONDS", str(2 * 60 * 60)))
# A django-anymail provider (EMAIL_BACKEND="anymail.backends.<provider>.EmailBackend") reads its
# keys from LOTACAO_ANYMAIL, a JSON object (e.g. {"MAILGUN_API_KEY": "…"}); SMTP stays the default.
ANYMAIL = json.loads(os.environ.get("LOTACAO_ANYMAIL", "{}") or "{}")
# The HTTP SMS backend (LOTACAO_SMS_BACKEND="lotacao.outbox.backends.HttpSMSBackend"): the
# provider's address, its key (sent as a Bearer token) and the sender's name (docs/notifications.md).
LOTACAO_SMS_URL = os.environ.get("LOTACAO_SMS_URL", "")
LOTACAO_SMS_TOKEN = os.environ.get("LOTACAO_SMS_TOKEN", "")
LOTACAO_SMS_SENDER = os.environ.get("LOTACAO_SMS_SENDER", "Lotacao")
# Password reset requests: at most LOTACAO_PASSWORD_RESET_LIMIT per address typed and per account in
# LOTACAO_PASSWORD_RESET_WINDOW_MINUTES (web/password.py).
LOTACAO_PASSWORD_RESET_LIMIT = int(os.environ.get("LOTACAO_PASSWORD_RESET_LIMIT", "3"))
LOTACAO_PASSWORD_RESET_WINDOW_MINUTES = int(os.environ.get("LOTACAO_PASSWORD_RESET_WINDOW_MINUTES", "60"))
# The links in messages start with this address (the installation's public address).
LOTACAO_SITE_URL = os.environ.get("LOTACAO_SITE_URL", "http://localhost:8000").rstrip("/")
# Reminders (lotacao.reminders, the nightly run): how many days before a date the holder is
# reminded, per kind — the installation's choice (the laws give the deadlines, not when to remind).
# LOTACAO_REMINDER_DAYS overrides them as JSON ({"deadline": [5, 1], …}); an event (notice served,
# decision, slip issued or overdue) older than LOTACAO_REMINDER_LOOKBACK_DAYS is not announced.
LOTACAO_REMINDER_DAYS = {
    "deadline": [5, 1],
    "charge": [3],
    "document": [30, 7],
    "renewal": [90, 30],
    "inspection": [7, 1],
    **json.loads(os.environ.get("LOTACAO_REMINDER_DAYS", "{}") or "{}"),
}
LOTACAO_REMINDER_LOOKBACK_DAYS = int(os.environ.get("LOTACAO_REMINDER_LOOKBACK_DAYS", "7"))

# gov.br Login Único (lotacao.govbr, OpenID Connect with PKCE): off unless the issuer and the
# client are set. The discovery document is <issuer>/.well-known/openid-configuration unless
# LOTACAO_GOVBR_DISCOVERY_URL names another (docs/govbr.md).
LOTACAO_GOVBR_ISSUER = os.environ.get("LOTACAO_GOVBR_ISSUER", "").rstrip("/")
LOTACAO_GOVBR_DISCOVERY_URL = os.environ.get("LOTACAO_GOVBR_DISCOVERY_URL", "")
LOTACAO_GOVBR_CLIENT_ID = os.environ.get("LOTACAO_GOVBR_CLIENT_ID", "")
LOTACAO_GOVBR_CLIENT_SECRET = os.environ.get("LOTACAO_GOVBR_CLIENT_SECRET", "")
LOTACAO_GOVBR_SCOPES = os.environ.get("LOTACAO_GOVBR_SCOPES", "openid email profile govbr_confiabilidades")
LOTACAO_GOVBR_TIMEOUT = int(os.environ.get("LOTACAO_GOVBR_TIMEOUT", "10"))
# The lowest gov.br trust level (acr: bronze, prata, ouro) allowed to sign in; empty for any.
LOTACAO_GOVBR_MIN_LEVEL = os.environ.get("LOTACAO_GOVBR_MIN_LEVEL", "")
