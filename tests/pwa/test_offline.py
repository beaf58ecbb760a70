"""The offline engine's files: the bundle of our Python (exactly what calculator.outcome needs, no Django),
its view, the service worker's runtime entry, and what the pages say without Pyodide."""

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.conf import settings

from pwa import offline, views
from pwa.offline import BundleError, build, bundle, closure, runtime

ROOT = Path(settings.BASE_DIR)


def worker_config(client) -> dict:
    first_line = client.get("/sw.js").content.decode().split("\n", 1)[0]
    return json.loads(first_line.removeprefix("self.SCZMJ = ").removesuffix(";"))


@pytest.fixture
def without_pyodide(settings, tmp_path):
    """As after a setup with no network: the runtime folder is empty."""
    settings.PYODIDE_ROOT = tmp_path
    for derived in (runtime, views.precache):
        derived.cache_clear()
    yield
    for derived in (runtime, views.precache):
        derived.cache_clear()


def test_the_bundle_holds_the_calculators_outcome_and_exactly_what_it_imports():
    assert set(bundle().modules) == {
        "calculator/__init__.py",
        "calculator/hand_input.py",
        "calculator/outcome.py",
        "web/__init__.py",
        "web/names.py",
        "web/notation.py",
        *(path.relative_to(ROOT).as_posix() for path in (ROOT / "calculator" / "engine").glob("*.py")),
    }


def test_the_bundle_is_the_same_bytes_in_every_build():
    again = build(ROOT, offline.ENTRY)
    assert (again.data, again.etag) == (bundle().data, bundle().etag)


def test_the_bundle_runs_in_an_interpreter_that_has_no_django(tmp_path):
    """What the browser gets: the zip alone, with Django made unimportable."""
    zipfile.ZipFile(io.BytesIO(bundle().data)).extractall(tmp_path)
    script = (
        "import sys, json; sys.modules['django'] = None; sys.path.insert(0, sys.argv[1]);"
        "from calculator.outcome import work_out_json;"
        "print(work_out_json(json.dumps({'concealed': '11222333456999s'}), 'en'))"
    )
    out = subprocess.run([sys.executable, "-I", "-c", script, str(tmp_path)], capture_output=True, check=True)
    score = json.loads(out.stdout)["score"]
    assert (score["fan"], score["rows"][0]["label"], score["points"]) == (3, "Full flush", 4)


def test_a_module_that_imports_django_stops_the_bundle(tmp_path):
    package = tmp_path / "calculator"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "outcome.py").write_text("from . import words\n")
    (package / "words.py").write_text("from django.utils.translation import gettext\n")
    with pytest.raises(BundleError, match=r"calculator/words.py imports django.utils.translation"):
        closure(tmp_path, "calculator.outcome")


def test_the_bundle_is_a_zip_revalidated_by_its_etag(client):
    response = client.get("/offline/engine.zip")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Cache-Control"] == "no-cache"
    assert response["ETag"] == f'"{bundle().etag}"'
    assert zipfile.ZipFile(io.BytesIO(response.content)).namelist() == list(bundle().modules)
    assert client.get("/offline/engine.zip", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_the_worker_names_the_runtime_apart_from_what_it_stores_at_install(client):
    if runtime() is None:
        pytest.skip("Pyodide is not fetched (make setup with a network)")
    config = worker_config(client)
    engine = config["engine"]
    assert engine["cache"] == f"sczmj-pyodide-{runtime().version}"
    assert {url.rsplit("/", 1)[1] for url in engine["runtime"]} == {
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    }
    assert engine["bundle"] == "/offline/engine.zip" and engine["bundle"] in config["precache"]
    assert not any("/pyodide/" in url for url in config["precache"]), (
        "13 MB at install is not for every visitor"
    )


def test_without_pyodide_the_calculator_says_offline_scoring_is_unavailable(client, without_pyodide):
    assert worker_config(client)["engine"] is None
    assert "/offline/engine.zip" not in worker_config(client)["precache"]
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "离线计分不可用：此服务器没有提供。" in page
    assert "data-engine" not in page and "offline-card-win" not in page
