"""WSGI entry point (gunicorn sudokusite.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")

application = get_wsgi_application()
