"""The wheel runs on its own: built from this checkout, installed into a fresh virtual environment, and run
from a directory outside the checkout, where nothing of the checkout can shadow what the wheel carries.

There it migrates, passes ``check --deploy`` with docs/deployment.md's environment, collects its static
files, and gunicorn (as docs/deployment.md starts it) answers ``/healthz`` and serves ``/`` with its hashed
static files and the offline engine's bundle from the installed sources.

It runs once per CI run, on the SQLite pass: the wheel is the same whatever the database. Building it,
installing its dependencies (from pip's cache after ``make setup``), migrating and collecting cost 25 s of
CPU (77 s wall at a load average of 9 on the 2-CPU development machine).
"""

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.gunicorn import gunicorn
from tests.test_settings import documented_environment

ROOT = Path(__file__).resolve().parents[2]
HOST = "mahjong.example.org"  # the documented environment's DJANGO_ALLOWED_HOSTS
CJK = r"[\u4e00-\u9fff]"

pytestmark = [
    pytest.mark.wheel,
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the wheel is the same on either database: it is tested once, on the SQLite pass",
    ),
]


@dataclass(frozen=True)
class Installed:
    bin: Path
    workdir: Path
    environment: dict[str, str]

    def sczmj(self, *arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / "sczmj"), *arguments],
            cwd=self.workdir,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=120,
        )


def run(*command: str | Path, cwd: Path) -> None:
    result = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel built and installed into a new virtual environment; a working directory of its own."""
    base = tmp_path_factory.mktemp("wheel")
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--wheel-dir",
        base / "dist",
        ROOT,
        cwd=base,
    )
    (wheel,) = (base / "dist").glob("sczmj-*.whl")
    run(sys.executable, "-m", "venv", base / "venv", cwd=base)
    run(base / "venv" / "bin" / "pip", "install", "--quiet", wheel, cwd=base)
    workdir = base / "srv"
    workdir.mkdir()
    key_file = workdir / "secret_key"
    key_file.write_text("wheel-test-" + "k" * 50 + "\n")
    kept = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_", "PYTHON", "VIRTUAL_ENV"))
    }
    environment = {
        **kept,
        **documented_environment(key_file),
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "DJANGO_STATIC_ROOT": str(workdir / "static"),
    }
    installed = Installed(base / "venv" / "bin", workdir, environment)
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        done = installed.sczmj(*step, "-v", "0")
        assert done.returncode == 0, f"sczmj {step[0]} failed:\n{done.stderr}"
    return installed


def test_the_installed_command_runs_the_installed_code_not_the_checkouts(installed):
    result = installed.sczmj(
        "shell", "--no-imports", "-c", "import sczmj_site, web; print(sczmj_site.__file__)"
    )
    assert result.returncode == 0, result.stderr
    where = Path(result.stdout.strip())
    assert where.is_relative_to(installed.bin.parent), where
    assert not where.is_relative_to(ROOT)


def test_it_migrated_collected_and_passes_the_deployment_check_with_the_documented_environment(installed):
    assert (installed.workdir / "db.sqlite3").is_file()
    assert (installed.workdir / "static" / "staticfiles.json").is_file()
    assert installed.sczmj("migrate", "--check").returncode == 0, "unapplied migrations"
    checked = installed.sczmj("check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "System check identified no issues" in checked.stdout


@pytest.fixture(scope="module")
def served(installed) -> Iterator[str]:
    """gunicorn started from the installed wheel as docs/deployment.md's service starts it."""
    with gunicorn([str(installed.bin / "gunicorn")], installed.workdir, installed.environment) as url:
        yield url


def get(url: str, path: str, language: str = "zh-hans") -> tuple[int, bytes]:
    """As the documented proxy forwards it: the site's host name and TLS said by X-Forwarded-Proto."""
    headers = {"Host": HOST, "X-Forwarded-Proto": "https", "Accept-Language": language}
    request = urllib.request.Request(url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_gunicorn_answers_healthz_and_serves_the_home_page_with_its_hashed_static_files(served):
    status, body = get(served, "/healthz")
    assert status == 200
    assert json.loads(body)["status"] == "ok"
    status, page = get(served, "/")
    assert status == 200
    assets = re.findall(r'(?:href|src)="(/static/[^"]+\.[0-9a-f]{12}\.(?:css|js))"', page.decode())
    assert any(asset.endswith(".css") for asset in assets), "the page links no hashed stylesheet"
    for asset in assets:
        assert get(served, asset)[0] == 200, asset


def title(page: bytes) -> str:
    found = re.search(r"<title>(.*?)</title>", page.decode(), re.S)
    assert found, "the page has no title"
    return found.group(1).strip()


def test_the_pages_speak_chinese_from_the_installed_catalogues_and_english_when_asked(served):
    """The source strings are English: Chinese on the page proves the wheel's compiled catalogues load."""
    chinese = title(get(served, "/")[1])
    english = title(get(served, "/", language="en")[1])
    assert re.search(CJK, chinese), chinese
    assert not re.search(CJK, english), english


def test_the_offline_engine_is_bundled_from_the_installed_sources(served):
    status, bundle = get(served, "/offline/engine.zip")
    assert status == 200
    assert bundle.startswith(b"PK")
