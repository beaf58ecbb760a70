"""The engines are pure Python: no web framework, and a lower layer never imports an upper one.

ARCHITECTURE.md: calculator.engine imports nothing of the project outside itself; settlement.engine may
import calculator.engine; neither imports Django, DRF, django-htmx or ledger. Across the apps: nothing
outside ``ledger/`` and ``tests/`` imports ledger, and calculator never imports settlement.
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


# Folders whose files are not the product (the virtualenv, build output, vendor/: the fetched Pyodide) or may
# import anything (tests).
NOT_SCANNED = {".venv", "tests", "node_modules", "staticfiles", "static", "build", "vendor"}
# The benches measure the ledger from outside, as a test would (its figures, its pages, its load): allowed.
LEDGER_IMPORTERS = {
    "bench/bench_card.py",
    "bench/bench_ledger.py",
    "bench/bench_group_file.py",
    "bench/child.py",
    "bench/bench_pages.py",
    "bench/bench_scale.py",
    "bench/bench_session_page.py",
    "bench/bench_stats.py",
    "bench/loadtest.py",
    "bench/scale_seed.py",
    "bench/seed_cache.py",
    "bench/verify_instructions.py",
}
APP_RULES = (
    # (folder that must not import, the forbidden package, files allowed to anyway)
    ("", "ledger", LEDGER_IMPORTERS),
    ("calculator", "settlement", set()),
)


def project_files(root: Path, folder: str) -> list[Path]:
    """The Python files under ``folder`` (the whole project for ""), without walking the virtualenv."""
    tops = [root / folder] if folder else [top for top in root.iterdir() if top.name not in NOT_SCANNED]
    return sorted(
        path
        for top in tops
        for path in (top.rglob("*.py") if top.is_dir() else [top] if top.suffix == ".py" else [])
    )


def cross_app_imports(root: Path) -> list[str]:
    """Every import that breaks APP_RULES, as "file imports module"."""
    found = []
    for folder, forbidden, allowed in APP_RULES:
        for path in project_files(root, folder):
            name = path.relative_to(root).as_posix()
            if name.startswith(f"{forbidden}/") or name in allowed:
                continue
            found += [
                f"{name} imports {module}"
                for module in sorted(imported_modules(root, path))
                if module.split(".")[0] == forbidden
            ]
    return found


def test_nothing_outside_ledger_imports_it_and_calculator_never_imports_settlement():
    assert cross_app_imports(ROOT) == []


def test_the_cross_app_scan_catches_ledger_and_settlement_imports(tmp_path):
    for name, text in {
        "calculator/views.py": "from settlement.engine import settle_round\n",
        "settlement/api.py": "from ledger.models import Session\n",
        "sczmj_site/urls.py": "import ledger.urls\n",
        "ledger/api.py": "from settlement.engine import settle_round\n",
        "tests/ledger/test_api.py": "from ledger import models\n",
        "settlement/views.py": "from calculator.engine import score_hand\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert cross_app_imports(tmp_path) == [
        "sczmj_site/urls.py imports ledger.urls",
        "settlement/api.py imports ledger.models",
        "calculator/views.py imports settlement.engine",
    ]


# ------------------------------------------------------------------------------------------------------
# ARCHITECTURE.md's layers, bottom up: 1 calculator.engine, 2 settlement.engine, 3 ledger, 4 the adapters
# (the APIs, the pages, the web and api packages), 5 sczmj_site (wiring). No import runs back up, and an
# adapter names only what an engine package exports (its ``__all__``, which may name a public submodule:
# ``calculator.engine.fields``, the input readers both engines share). What stands outside the product (the
# benches, the tests) may import anything, engine internals too, and nothing of the product imports it.

ENGINES = ("calculator.engine", "settlement.engine")
# What measures, checks or builds the product from outside it (the benches, the tests, the icon renderer):
# it may import any layer, and nothing of the product may import it.
OUTSIDE = 6
# Every top-level package of the project with its layer; the engines inside ``calculator`` and
# ``settlement`` and the ledger's own adapters are placed by ``layer_of``. A package missing here fails
# test_every_package_of_the_project_has_a_layer, so none is left out of the scan unnoticed.
PACKAGES = {
    "calculator": 4,
    "settlement": 4,
    "api": 4,
    "web": 4,
    "pwa": 4,
    "ledger": 3,
    "sczmj_site": 5,
    "bench": OUTSIDE,
    "tests": OUTSIDE,
    "tools": OUTSIDE,
}
# The project's top-level scripts: wiring like sczmj_site (manage.py runs sczmj_site.cli, nothing else).
TOP_LEVEL_FILES = ("manage.py",)


def imported_names(root: Path, path: Path) -> list[tuple[str, str | None]]:
    """(module, name) for every import of a file, relative imports resolved; name None for ``import m``."""
    package = path.relative_to(root).with_suffix("").parts[:-1]
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found += [(module, alias.name) for alias in node.names]
    return found


# The ledger's own adapters (its API, pages, admin, commands, URLs, template tags) sit in layer 4 beside the
# other apps' adapters; the rest of ``ledger`` (models, services, selectors, ...) is layer 3.
LEDGER_ADAPTERS = ("api", "serializers", "pages", "admin", "management", "urls", "templatetags", "tokens")


def layer_of(module: str) -> int | None:
    """The layer a project module belongs to, None for anything outside the project (a library)."""
    if module == "calculator.engine" or module.startswith("calculator.engine."):
        return 1
    if module == "settlement.engine" or module.startswith("settlement.engine."):
        return 2
    parts = module.split(".")
    if parts[0] == "ledger" and len(parts) > 1 and parts[1] in LEDGER_ADAPTERS:
        return 4
    return PACKAGES.get(parts[0])


def exported(root: Path, engine: str) -> set[str]:
    init = root / engine.replace(".", "/") / "__init__.py"
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            return {ast.literal_eval(item) for item in node.value.elts}  # type: ignore[attr-defined]
    return set()


ENGINE_FOLDERS = ("calculator/engine/", "settlement/engine/")


def layer_violations(root: Path) -> list[str]:
    """Imports running back up the layers, and adapter imports of engine names the engine does not export."""
    exports = {
        engine: exported(root, engine) for engine in ENGINES if (root / engine.replace(".", "/")).is_dir()
    }
    found = []
    for path in project_files(root, ""):
        name = path.relative_to(root).as_posix()
        module = name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        own = layer_of(module)
        if own is None or own == OUTSIDE:
            continue
        for imported, symbol in imported_names(root, path):
            # ``from . import api`` or ``from ledger import api`` imports the module ledger.api
            full = imported if symbol in (None, "*") else f"{imported}.{symbol}"
            target = layer_of(full)
            shown = full if target != layer_of(imported) else imported
            if target is None or (imported.split(".")[0] == module.split(".")[0] and own == target):
                continue
            if target == OUTSIDE:
                found.append(f"{name} imports {shown} (outside the product: benches, tests, tools)")
            elif own == 5 and target in (1, 2):
                found.append(f"{name} imports {shown} (the site package is wiring only)")
            elif target > own:
                found.append(f"{name} imports {shown} (layer {target} above layer {own})")
            elif target in (1, 2) and not name.startswith(ENGINE_FOLDERS[target - 1]):
                engine = ENGINES[target - 1]
                public_module = imported.removeprefix(f"{engine}.") in exports.get(engine, set())
                if not public_module and (imported != engine or symbol not in exports.get(engine, set())):
                    found.append(f"{name} imports {imported}.{symbol}: not a name {engine} exports")
    return sorted(set(found), key=found.index)


def test_no_import_runs_back_up_the_layers_and_adapters_use_only_exported_engine_names():
    assert layer_violations(ROOT) == []


def test_the_layer_scan_catches_each_kind_of_violation(tmp_path):
    files = {
        "calculator/engine/__init__.py": '__all__ = ["fields", "score_hand"]\nfrom .fan import score_hand\n',
        "settlement/engine/events.py": "from calculator.engine.fields import fail\n",
        "calculator/engine/fan.py": "from settlement.engine import settle_round\n",
        "settlement/engine/__init__.py": '__all__ = ["settle_round"]\n',
        "settlement/engine/kongs.py": "from calculator.engine import score_hand\nfrom ledger import models\n",
        "ledger/services.py": "from calculator.engine import score_hand\nfrom calculator.views import page\n",
        "ledger/pages/home.py": "from web.language import in_language\nfrom ledger import services\n",
        "calculator/views.py": "from calculator.engine import score_hand, PATTERN_FAN\n"
        "from calculator.engine.fan import AFTER_KONG\nimport settlement.engine.state\n",
        "sczmj_site/urls.py": "from calculator.engine import score_hand\nfrom calculator import views\n",
        "bench/bench_engine.py": "from calculator.engine.decompose import is_win\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert layer_violations(tmp_path) == [
        "calculator/engine/fan.py imports settlement.engine (layer 2 above layer 1)",
        "calculator/views.py imports calculator.engine.PATTERN_FAN: not a name calculator.engine exports",
        "calculator/views.py imports calculator.engine.fan.AFTER_KONG: not a name calculator.engine exports",
        "calculator/views.py imports settlement.engine.state.None: not a name settlement.engine exports",
        "ledger/services.py imports calculator.views (layer 4 above layer 3)",
        "sczmj_site/urls.py imports calculator.engine (the site package is wiring only)",
        "settlement/engine/kongs.py imports ledger (layer 3 above layer 2)",
    ]


def test_every_package_of_the_project_has_a_layer():
    """A new top-level package must be placed in PACKAGES: layer_of would call it a library and the scan
    would pass over every import it makes and every import of it."""
    tops = {path.relative_to(ROOT).parts[0] for path in project_files(ROOT, "")} | {"tests"}
    assert sorted(tops - set(PACKAGES) - set(TOP_LEVEL_FILES)) == []
    for script in TOP_LEVEL_FILES:
        imported = [module for module, _ in imported_names(ROOT, ROOT / script) if layer_of(module)]
        assert [module for module in imported if not module.startswith("sczmj_site.")] == []


# One import running back up the layers for each package, written into a copy of the real tree: the scan
# must name each one (and only those: the real tree has none), so no package is left out of it.
UPWARD_IMPORTS = {
    "calculator/engine/tiles.py": (
        "import settlement.engine\n",
        "calculator/engine/tiles.py imports settlement.engine (layer 2 above layer 1)",
    ),
    "settlement/engine/state.py": (
        "from ledger import models\n",
        "settlement/engine/state.py imports ledger (layer 3 above layer 2)",
    ),
    "ledger/services/rounds.py": (
        "from .. import api\n",
        "ledger/services/rounds.py imports ledger.api (layer 4 above layer 3)",
    ),
    "ledger/selectors.py": (
        "from web.language import in_language\n",
        "ledger/selectors.py imports web.language (layer 4 above layer 3)",
    ),
    "calculator/views.py": (
        "from sczmj_site import urls\n",
        "calculator/views.py imports sczmj_site (layer 5 above layer 4)",
    ),
    "settlement/views.py": (
        "import sczmj_site.urls\n",
        "settlement/views.py imports sczmj_site.urls (layer 5 above layer 4)",
    ),
    "api/errors.py": (
        "from sczmj_site.urls import urlpatterns\n",
        "api/errors.py imports sczmj_site.urls (layer 5 above layer 4)",
    ),
    "web/seats.py": (
        "from sczmj_site import settings\n",
        "web/seats.py imports sczmj_site (layer 5 above layer 4)",
    ),
    "pwa/views.py": (
        "from sczmj_site.health import healthz\n",
        "pwa/views.py imports sczmj_site.health (layer 5 above layer 4)",
    ),
    "ledger/pages/home.py": (
        "from bench.workload import ROUND\n",
        "ledger/pages/home.py imports bench.workload (outside the product: benches, tests, tools)",
    ),
    "sczmj_site/urls.py": (
        "from calculator.engine import score_hand\n",
        "sczmj_site/urls.py imports calculator.engine (the site package is wiring only)",
    ),
    "sczmj_site/health.py": (
        "from tests.conftest import *\n",
        "sczmj_site/health.py imports tests.conftest (outside the product: benches, tests, tools)",
    ),
}


def copy_of_the_project(target: Path) -> None:
    for path in project_files(ROOT, ""):
        copy = target / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")


def test_the_layer_scan_of_the_real_tree_names_an_upward_import_in_every_package(tmp_path):
    copy_of_the_project(tmp_path)
    assert layer_violations(tmp_path) == []
    for name, (line, _) in UPWARD_IMPORTS.items():
        with (tmp_path / name).open("a", encoding="utf-8") as file:
            file.write(line)
    assert sorted(layer_violations(tmp_path)) == sorted(found for _, found in UPWARD_IMPORTS.values())
    importers = {name.split("/")[0] for name in UPWARD_IMPORTS}
    imported = {
        found.split(" imports ")[1].split(" ")[0].split(".")[0] for _, found in UPWARD_IMPORTS.values()
    }
    # every package is caught importing upwards or being imported from below (tools: a script, like bench)
    assert importers | imported >= set(PACKAGES) - {"tools"}
