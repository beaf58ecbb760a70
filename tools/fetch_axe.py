#!/usr/bin/env python3
"""Fetch axe-core, the accessibility checker the browser tests inject into every page (tests/e2e).

``make setup`` runs this beside tools/fetch_pyodide.py and the same way: the pinned npm package is checked
against the registry's integrity hash before a byte of it is read, and only ``axe.min.js`` is kept, in
``vendor/axe-core/<version>/`` (gitignored). Nothing is ever loaded from a CDN: the tests read the file and
inject it. Without a network: a warning and exit status 0 (the browser tests then skip their axe check,
and fail under ``SCZMJ_REQUIRE_BROWSER``); a download that does not match the pin: exit status 1.

To upgrade, change VERSION and INTEGRITY (``npm view axe-core@<version> dist.integrity``).
"""

from __future__ import annotations

import sys
import tarfile
import urllib.error
from pathlib import Path

from fetch_pyodide import IntegrityError, download, drop_other_versions, extract, verify

VERSION = "4.10.3"
INTEGRITY = "sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="
URL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
FILES = ("axe.min.js",)
ROOT = Path(__file__).resolve().parent.parent / "vendor" / "axe-core"


def fetch(root: Path = ROOT) -> int:
    folder = root / VERSION
    if all((folder / name).is_file() for name in FILES):
        return 0
    root.mkdir(parents=True, exist_ok=True)
    print(f"Fetching axe-core {VERSION} for the browser tests ({URL})")
    try:
        data = download(URL)
    except (urllib.error.URLError, OSError) as error:
        print(f"warning: could not fetch axe-core ({error}); the browser tests skip axe", file=sys.stderr)
        return 0
    try:
        verify(data, INTEGRITY)
        extract(data, FILES, folder)
    except (IntegrityError, tarfile.TarError, KeyError) as error:
        print(f"error: refusing the axe-core download: {error}", file=sys.stderr)
        return 1
    drop_other_versions(root, VERSION)
    print(f"axe-core {VERSION}: {', '.join(FILES)} in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(fetch())
