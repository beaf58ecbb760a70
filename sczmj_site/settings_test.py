"""The test suite's settings: the development settings (DEBUG's defaults, the development key) unless the
environment says otherwise. Django's test runner still runs the tests themselves with DEBUG off."""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from .settings import *  # noqa: F403
