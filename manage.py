#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sczmj_site.settings")
    if "DJANGO_SECRET_KEY" not in os.environ:
        # No key: a developer's checkout, so development mode. A deployment sets the key, and then DEBUG
        # stays off unless DJANGO_DEBUG says otherwise (collectstatic must then build the manifest).
        os.environ.setdefault("DJANGO_DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
