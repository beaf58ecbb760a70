#!/usr/bin/env python
"""A checkout's entry to Django's commands; the wheel installs the same as ``sczmj`` (sczmj_site/cli.py)."""

from sczmj_site.cli import main

if __name__ == "__main__":
    main()
