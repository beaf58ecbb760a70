"""What a server process checks before it answers anyone (wsgi.py, asgi.py)."""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def require_secret_key() -> None:
    """A deployment started without a key would fail at its first log-in: refuse to start, saying why."""
    try:
        settings.SECRET_KEY  # noqa: B018 (Django refuses an empty key on access)
    except ImproperlyConfigured as missing:
        raise ImproperlyConfigured(settings.MISSING_KEY) from missing
