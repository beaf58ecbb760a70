"""``sczmj``, the installed wheel's command (pyproject.toml's ``[project.scripts]``), and what a checkout's
``manage.py`` runs: Django's management commands with this project's settings.

No fallback to development mode: a plain shell is treated as a deployment (settings.py gives no key unless
``DJANGO_DEBUG=1``, which the Makefile sets for development, so nothing can sign or serve).
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sczmj_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
