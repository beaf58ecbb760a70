"""The dependency audit of .ci/run: every runtime dependency of sczmj, at the version installed, checked by
pip-audit against PyPI's advisory data (``-s pypi``). Fails on a known vulnerability.

Only what the app runs on is audited: sczmj's own requirements and theirs, followed through the installed
metadata (the test and tool extras never reach a server). A reviewed advisory is silenced by adding its
id to ``.ci/audit-ignore.txt`` with a line saying why (``PYSEC-2026-1  # only the admin's …, unused``).

PyPI answers advisories per release (``/pypi/<name>/<version>/json``). Where that page is missing (the
index in front of PyPI on the development machine of 2026-12-01 answered every per-release page 404), the
project's page (``/pypi/<name>/json``) still answers for its newest release: its ``vulnerabilities`` are
those of that release, so a dependency installed at its newest version (as ``make lock`` pins them) is
audited from there. A package neither answered for is named as *not audited*; with
``SCZMJ_AUDIT_REQUIRE=1`` that fails too.

    .venv/bin/python tools/audit.py
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

IGNORE_FILE = Path(__file__).resolve().parent.parent / ".ci" / "audit-ignore.txt"
PROJECT_PAGE = "https://pypi.org/pypi/{name}/json"


def runtime_dependencies(root: str = "sczmj") -> dict[str, str]:
    """name -> installed version of every distribution ``root`` needs at run time: no extras of its own,
    but the extras its requirements ask for (``psycopg[binary]`` brings psycopg-binary)."""
    found: dict[str, str] = {}
    todo: list[tuple[str, frozenset[str]]] = [(root, frozenset())]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue  # a requirement for another platform or Python, not installed here
        key = re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower()
        if (key, extras) in seen:
            continue
        seen.add((key, extras))
        found[key] = dist.version
        for line in dist.requires or []:
            requirement = Requirement(line)
            wanted = requirement.marker is None or any(
                requirement.marker.evaluate({"extra": extra}) for extra in extras | {""}
            )
            if wanted:
                todo.append((requirement.name, frozenset(requirement.extras)))
    found.pop(root, None)
    return found


def ignored() -> list[str]:
    if not IGNORE_FILE.is_file():
        return []
    lines = (line.split("#", 1)[0].strip() for line in IGNORE_FILE.read_text().splitlines())
    return [line for line in lines if line]


def audit(pins: dict[str, str]) -> dict[str, object]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as requirements:
        requirements.write("".join(f"{name}=={version}\n" for name, version in sorted(pins.items())))
        requirements.flush()
        command = [sys.executable, "-m", "pip_audit", "-s", "pypi", "--no-deps", "--disable-pip"]
        command += ["--progress-spinner", "off", "--format", "json", "-r", requirements.name]
        for advisory in ignored():
            command += ["--ignore-vuln", advisory]
        result = subprocess.run(command, capture_output=True, text=True)  # noqa: S603 - pip-audit with our own arguments
    if not result.stdout.strip():
        raise SystemExit(f"pip-audit gave no answer (exit {result.returncode}):\n{result.stderr}")
    return dict(json.loads(result.stdout))


def newest_release_advisories(name: str, version: str) -> list[dict[str, Any]] | None:
    """The advisories of ``name`` at ``version`` from the project's page, if ``version`` is its newest
    release (the only one that page answers for); None when it is not, or the page does not answer."""
    try:
        with urllib.request.urlopen(PROJECT_PAGE.format(name=name), timeout=30) as answer:  # noqa: S310 - PyPI's https page
            page = json.load(answer)
    except (OSError, ValueError):
        return None
    if page.get("info", {}).get("version") != version:
        return None
    silenced = set(ignored())
    return [
        {"id": vuln["id"], "fix_versions": vuln.get("fixed_in", [])}
        for vuln in page.get("vulnerabilities", [])
        if not vuln.get("withdrawn") and not silenced & {vuln["id"], *vuln.get("aliases", [])}
    ]


def answered_elsewhere(dependencies: list[dict[str, Any]], pins: dict[str, str]) -> list[dict[str, Any]]:
    """pip-audit's report with each dependency it skipped audited from its project's page where it can be."""
    filled = []
    for dep in dependencies:
        version = pins.get(str(dep["name"]), "")
        if dep.get("skip_reason") and version:
            vulns = newest_release_advisories(str(dep["name"]), version)
            if vulns is not None:
                dep = {"name": dep["name"], "version": version, "vulns": vulns}
        filled.append(dep)
    return filled


def main() -> int:
    pins = runtime_dependencies()
    report = audit(pins)
    # pip-audit's JSON report: its dependencies are a list (audit returns the parsed report, typed object)
    dependencies = answered_elsewhere(list(report.get("dependencies", [])), pins)  # type: ignore[call-overload]
    vulnerable = [dep for dep in dependencies if dep.get("vulns")]
    unaudited = [dep for dep in dependencies if dep.get("skip_reason")]
    for dep in vulnerable:
        for vuln in dep["vulns"]:
            fixed = ", ".join(vuln.get("fix_versions", [])) or "no fixed version yet"
            print(f"VULNERABLE {dep['name']} {dep['version']}: {vuln['id']} (fixed in {fixed})")
    audited = len(dependencies) - len(unaudited)
    print(f"pip-audit -s pypi: {audited} of {len(pins)} runtime dependencies audited, {len(vulnerable)} bad")
    if unaudited:
        names = ", ".join(f"{dep['name']} {pins.get(str(dep['name']), '?')}" for dep in unaudited)
        print(f"NOT AUDITED (PyPI's advisory data did not answer for them): {names}")
    if vulnerable:
        return 1
    if unaudited and os.environ.get("SCZMJ_AUDIT_REQUIRE") == "1":
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
