"""tools/audit.py, the dependency audit of .ci/run: what it audits and when it fails."""

import importlib.util
import io
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("audit", ROOT / "tools" / "audit.py")
assert spec and spec.loader
audit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(audit)


def test_it_audits_the_runtime_dependencies_only():
    pins = audit.runtime_dependencies()
    assert {"django", "djangorestframework", "gunicorn", "psycopg", "psycopg-binary"} <= set(pins)
    assert not {"pytest", "ruff", "mypy", "hypothesis", "sczmj"} & set(pins)


def report(*dependencies: dict[str, Any]) -> Any:
    return lambda pins: {"dependencies": list(dependencies)}


VULNERABLE = {
    "name": "django",
    "version": "6.1.3",
    "vulns": [{"id": "PYSEC-2026-1", "fix_versions": ["6.1.4"]}],
}
CLEAN = {"name": "gunicorn", "version": "27.0.1", "vulns": []}
UNAUDITED = {"name": "segno", "skip_reason": "Dependency not found on PyPI and could not be audited"}


def test_a_known_vulnerability_fails(monkeypatch, capsys):
    monkeypatch.setattr(audit, "audit", report(VULNERABLE, CLEAN))
    assert audit.main() == 1
    assert "VULNERABLE django 6.1.3: PYSEC-2026-1 (fixed in 6.1.4)" in capsys.readouterr().out


@pytest.mark.parametrize(("require", "expected"), [("", 0), ("1", 1)])
def test_what_could_not_be_audited_is_named_and_fails_only_when_required(
    monkeypatch, capsys, require, expected
):
    monkeypatch.setenv("SCZMJ_AUDIT_REQUIRE", require)
    monkeypatch.setattr(audit, "audit", report(CLEAN, UNAUDITED))
    monkeypatch.setattr(audit, "newest_release_advisories", lambda name, version: None)
    assert audit.main() == expected
    assert "NOT AUDITED (PyPI's advisory data did not answer for them): segno" in capsys.readouterr().out


def test_a_reviewed_advisory_is_passed_to_pip_audit_as_ignored(monkeypatch, tmp_path):
    ignore = tmp_path / "audit-ignore.txt"
    ignore.write_text("# reviewed\nPYSEC-2026-1  # only the admin's X, unused\n\n")
    monkeypatch.setattr(audit, "IGNORE_FILE", ignore)
    assert audit.ignored() == ["PYSEC-2026-1"]


def project_page(newest: str, *vulns: dict[str, Any]) -> Any:
    """urlopen answering PyPI's project page: its newest release and that release's advisories."""
    body = json.dumps({"info": {"version": newest}, "vulnerabilities": list(vulns)}).encode()
    return lambda url, timeout: io.BytesIO(body)


ADVISORY = {"id": "GHSA-xxxx", "aliases": ["PYSEC-2026-9"], "fixed_in": ["1.6.7"], "withdrawn": None}


def test_without_a_per_release_page_the_newest_release_is_audited_from_the_projects_page(monkeypatch, capsys):
    """The index here answers no /pypi/<name>/<version>/json; the project's page answers for its newest."""
    monkeypatch.setattr(audit, "audit", report(CLEAN, UNAUDITED))
    monkeypatch.setattr(audit, "runtime_dependencies", lambda: {"gunicorn": "27.0.1", "segno": "1.6.6"})
    monkeypatch.setattr(audit.urllib.request, "urlopen", project_page("1.6.6", ADVISORY))
    assert audit.main() == 1
    assert "VULNERABLE segno 1.6.6: GHSA-xxxx (fixed in 1.6.7)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("newest", "vulns", "expected"),
    [
        pytest.param("1.6.7", [ADVISORY], None, id="an-older-release-is-not-answered-for"),
        pytest.param(
            "1.6.6", [{**ADVISORY, "aliases": [], "withdrawn": "2026-11-01"}], [], id="a-withdrawn-advisory"
        ),
        pytest.param("1.6.6", [ADVISORY], [], id="silenced-by-its-alias"),
    ],
)
def test_the_projects_page_answers_only_for_its_newest_release(
    monkeypatch, tmp_path, newest, vulns, expected
):
    ignore = tmp_path / "audit-ignore.txt"
    ignore.write_text("PYSEC-2026-9  # reviewed\n")
    monkeypatch.setattr(audit, "IGNORE_FILE", ignore)
    monkeypatch.setattr(audit.urllib.request, "urlopen", project_page(newest, *vulns))
    assert audit.newest_release_advisories("segno", "1.6.6") == expected
