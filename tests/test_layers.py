"""The engines are pure Python: no web framework, and a lower layer never imports an upper one.

ARCHITECTURE.md: calculator.engine imports nothing of the project outside itself; settlement.engine may
import calculator.engine; neither imports Django, DRF, django-htmx or ledger.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FRAMEWORKS = ("django", "rest_framework", "django_htmx", "drf_spectacular")
PROJECT = ("calculator", "settlement", "ledger", "sczmj_site")
ALLOWED_PROJECT_IMPORTS = {
    "calculator/engine": ("calculator.engine",),
    "settlement/engine": ("calculator.engine", "settlement.engine"),
}


def imported_modules(root: Path, path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved against its package."""
    package = path.relative_to(root).with_suffix("").parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = ".".join(package[: len(package) - node.level + 1])
            found.add(f"{base}.{node.module}" if node.module else base)
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module or "")
    return found


def is_forbidden(module: str, folder: str) -> bool:
    top = module.split(".")[0]
    if top in FRAMEWORKS:
        return True
    allowed = ALLOWED_PROJECT_IMPORTS[folder]
    return top in PROJECT and not any(module == ok or module.startswith(f"{ok}.") for ok in allowed)


def forbidden_imports(root: Path, folder: str) -> list[str]:
    return [
        f"{path.relative_to(root)} imports {module}"
        for path in sorted((root / folder).rglob("*.py"))
        for module in sorted(imported_modules(root, path))
        if is_forbidden(module, folder)
    ]


@pytest.mark.parametrize("folder", list(ALLOWED_PROJECT_IMPORTS))
def test_engine_package_imports_no_framework_and_no_upper_layer(folder):
    assert (ROOT / folder / "__init__.py").exists()
    assert forbidden_imports(ROOT, folder) == []


def test_the_scan_catches_framework_and_upper_layer_imports(tmp_path):
    package = tmp_path / "calculator" / "engine"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from .tiles import parse_tiles\n")
    (package / "bad.py").write_text(
        "import rest_framework\nfrom django.db import models\nfrom ..views import page\n"
        "from ledger import api\n"
    )
    assert forbidden_imports(tmp_path, "calculator/engine") == [
        "calculator/engine/bad.py imports calculator.views",
        "calculator/engine/bad.py imports django.db",
        "calculator/engine/bad.py imports ledger",
        "calculator/engine/bad.py imports rest_framework",
    ]
