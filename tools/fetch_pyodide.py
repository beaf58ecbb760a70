#!/usr/bin/env python3
"""Fetch Pyodide (CPython compiled to WebAssembly): the calculator scores with no network (docs/offline.md).

``make setup`` runs this. It downloads the pinned npm package, checks it against the registry's integrity
hash before reading a byte of it, and extracts only the files ``loadPyodide`` fetches into
``vendor/pyodide/<version>/`` (gitignored), which the settings serve as static files under
``/static/pyodide/<version>/``. The version is in the path so that an upgrade is a new URL: a phone's
service worker keeps the old runtime until the new one replaces it, and never mixes the two.

- Already there: nothing is downloaded.
- No network (a laptop on a train): a warning and exit status 0. Setup goes on; the app works online and
  the calculator says offline scoring is unavailable; the next ``make setup`` tries again.
- A download that does not match the pinned hash: exit status 1, nothing written.

Standard library only: it runs before anything is installed. To upgrade, change VERSION and INTEGRITY
(``npm view pyodide@<version> dist.integrity``, or the registry's JSON at registry.npmjs.org/pyodide) and
check RUNTIME_FILES against what the new ``loadPyodide`` fetches (docs/offline.md says how).
"""

from __future__ import annotations

import base64
import hashlib
import io
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

VERSION = "314.0.8"
INTEGRITY = "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
# What loadPyodide() fetches when the page asks for no packages: the loader, the Emscripten module, the
# interpreter, the standard library and the package lock it reads at start. Nothing else is served.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ROOT = Path(__file__).resolve().parent.parent / "vendor" / "pyodide"
TIMEOUT_SECONDS = 60


class IntegrityError(Exception):
    """The download is not the package the pin names."""


def is_complete(folder: Path) -> bool:
    return all((folder / name).is_file() for name in RUNTIME_FILES)


def download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310 - the pinned https URL, verified by its hash
        return bytes(response.read())


def verify(data: bytes, integrity: str) -> None:
    """npm's Subresource Integrity string: ``sha512-`` and the base64 of the digest."""
    algorithm, _, expected = integrity.partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if actual != expected:
        raise IntegrityError(f"the download's {algorithm} is {actual}, the pin says {expected}")


def extract(data: bytes, names: Sequence[str], folder: Path) -> None:
    """The named files of the npm package (under ``package/``), written whole or not at all."""
    staging = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=folder.parent))
    staging.chmod(0o755)  # mkdtemp's 0700 would hide the files from a server running as another user
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for name in names:
                member = archive.extractfile(f"package/{name}")
                if member is None:
                    raise IntegrityError(f"package/{name} is not a file in the package")
                (staging / name).write_bytes(member.read())
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def drop_other_versions(root: Path, keep: str) -> None:
    for entry in root.iterdir():
        if entry.is_dir() and entry.name != keep:
            shutil.rmtree(entry)


def fetch(root: Path = ROOT, url: str = URL, integrity: str = INTEGRITY, version: str = VERSION) -> int:
    folder = root / version
    if is_complete(folder):
        return 0
    root.mkdir(parents=True, exist_ok=True)
    print(f"Fetching Pyodide {version} for offline scoring ({url})")
    try:
        data = download(url)
    except (urllib.error.URLError, OSError) as error:
        print(
            f"warning: could not fetch Pyodide ({error}). Everything works online; the calculator says "
            "offline scoring is unavailable until `make setup` runs again with a network.",
            file=sys.stderr,
        )
        return 0
    try:
        verify(data, integrity)
        extract(data, RUNTIME_FILES, folder)
    except (IntegrityError, tarfile.TarError, KeyError) as error:
        print(f"error: refusing the Pyodide download: {error}", file=sys.stderr)
        return 1
    drop_other_versions(root, version)
    print(f"Pyodide {version}: {', '.join(RUNTIME_FILES)} in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(fetch())
