"""The offline engine's files: Pyodide as ``tools/fetch_pyodide.py`` left it, and the bundle of our Python.

Offline, the calculator scores in the browser with the server's own code (docs/offline.md): Pyodide
(CPython compiled to WebAssembly) runs ``calculator.outcome`` and the modules it imports.

- ``runtime()``: the Pyodide version and files under ``settings.PYODIDE_ROOT`` (``vendor/pyodide/<version>/``,
  served as ``/static/pyodide/<version>/``), or None when setup could not fetch it.
- ``bundle()``: a zip of ``ENTRY`` and every module of ours it imports, found by reading the imports (ast),
  so the browser gets exactly the code the server runs, never a copy. A module that imports something the
  browser lacks (anything beyond the standard library and our own folders: Django, say) stops the build
  with its name; ``tests/pwa/test_offline.py`` builds it on every run.

Both are derived from the files on disk, once per process, the same in every process: the bundle's zip is
written with fixed timestamps and its ETag is a digest of the sources.
"""

from __future__ import annotations

import ast
import hashlib
import io
import sys
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings

ENTRY = "calculator.outcome"  # its work_out_json is what static/js/engine-worker.js calls
# The zip's entries carry this date, not the files' own, so every process builds the same bytes.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


class BundleError(Exception):
    """A module the browser would need imports what the browser cannot have."""


@dataclass(frozen=True, slots=True)
class Runtime:
    version: str
    files: tuple[str, ...]

    @property
    def url(self) -> str:
        """Pyodide's indexURL: it loads its other files relative to this, by their own (unhashed) names."""
        return f"{settings.STATIC_URL}pyodide/{self.version}/"

    @property
    def cache(self) -> str:
        """The service worker's cache for it: one per version, kept across our releases (13 MB, once)."""
        return f"sczmj-pyodide-{self.version}"


@cache
def runtime() -> Runtime | None:
    """The one version folder the fetch tool leaves (it writes a folder whole, and removes older ones)."""
    root = Path(settings.PYODIDE_ROOT)
    folders = sorted(entry for entry in root.iterdir() if entry.is_dir()) if root.is_dir() else []
    if not folders:
        return None
    folder = folders[-1]
    return Runtime(folder.name, tuple(sorted(path.name for path in folder.iterdir() if path.is_file())))


@dataclass(frozen=True, slots=True)
class Bundle:
    data: bytes
    etag: str
    modules: tuple[str, ...]  # paths inside the zip, as on disk under the project root


def module_file(root: Path, module: str) -> Path | None:
    """The file of one of our modules (``a/b.py`` or ``a/b/__init__.py``), or None when it is not ours."""
    base = root.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imports_of(root: Path, path: Path) -> set[str]:
    """The modules a file imports, relative imports resolved; ``from a import b`` names ``a.b`` too, which
    is a module when b is a submodule (``from . import fields``) and is dropped later when it is not."""
    package = path.relative_to(root).with_suffix("").parts[:-1]  # a/b/c.py and a/b/__init__.py: a.b
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parent = package[: len(package) - node.level + 1] if node.level else ()
            base = ".".join((*parent, *([node.module] if node.module else [])))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def with_packages(module: str) -> list[str]:
    """A module and the packages Python imports first: ``calculator.engine.fan`` needs ``calculator``
    and ``calculator.engine`` too."""
    parts = module.split(".")
    return [".".join(parts[: end + 1]) for end in range(len(parts))]


def closure(root: Path, entry: str) -> dict[str, Path]:
    """Every module of ours ``entry`` needs, by name; BundleError for an import the browser lacks."""
    needed: dict[str, Path] = {}
    pending = with_packages(entry)
    while pending:
        module = pending.pop()
        path = module_file(root, module)
        if module in needed or path is None:
            continue
        needed[module] = path
        for imported in sorted(imports_of(root, path)):
            top = imported.split(".")[0]
            if module_file(root, top) is not None:
                pending += with_packages(imported)
            elif top not in sys.stdlib_module_names:
                raise BundleError(
                    f"{path.relative_to(root)} imports {imported}, which the browser does not have"
                )
    return needed


def build(root: Path, entry: str) -> Bundle:
    files = sorted(path.relative_to(root).as_posix() for path in closure(root, entry).values())
    digest = hashlib.sha256()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in files:
            source = (root / name).read_bytes()
            digest.update(name.encode() + b"\0" + source + b"\0")
            archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), source, zipfile.ZIP_DEFLATED)
    return Bundle(buffer.getvalue(), digest.hexdigest()[:16], tuple(files))


@cache
def bundle() -> Bundle:
    return build(Path(settings.BASE_DIR), ENTRY)
