"""WSGI entry point for gunicorn: `gunicorn lotacao.config.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lotacao.config.settings.production")
application = get_wsgi_application()
