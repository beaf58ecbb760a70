#!/usr/bin/env python
import os
import sys


def main() -> None:
    # No fallback to development mode: a plain shell is treated as a deployment (settings.py gives no key
    # unless DJANGO_DEBUG=1, which the Makefile sets for development, so nothing can sign or serve).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sczmj_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
