"""``requirements.lock`` is what ``make setup`` installs (``pip --require-hashes``): every dependency that
pyproject.toml names, for the extras make setup installs, is pinned there at a version its range allows, and
every pin carries its hashes. A dependency added to pyproject.toml without ``make lock`` fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
EXTRAS = ("test", "tools", "bench")  # the Makefile's LOCK_EXTRAS
PIN = re.compile(
    r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)((?:\s*;[^\\]*)?)\s*\\\n((?:\s+--hash=sha256:[0-9a-f]{64}\s*\\?\n)+)",
    re.M,
)


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return [Requirement(line) for line in (*project["dependencies"], *(r for e in EXTRAS for r in extras[e]))]


def locked() -> dict[str, list[str]]:
    """Each pinned name's versions (a universal lock may pin one name twice, under exclusive markers)."""
    pins: dict[str, list[str]] = {}
    for name, version, _marker, _hashes in PIN.findall(
        (ROOT / "requirements.lock").read_text(encoding="utf-8")
    ):
        pins.setdefault(canonicalize_name(name), []).append(version)
    return pins


def test_every_declared_dependency_is_locked_at_a_version_its_range_allows():
    pins = locked()
    environment = default_environment()
    for requirement in declared():
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} is not in requirements.lock: run make lock"
        assert any(requirement.specifier.contains(v, prereleases=True) for v in pins[name]), (
            f"requirements.lock pins {name} {pins[name]}, outside {requirement}: run make lock"
        )


def test_every_pin_has_hashes():
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pinned = [line for line in text.splitlines() if re.match(r"^[A-Za-z0-9]", line)]
    assert len(pinned) == sum(len(versions) for versions in locked().values()) > 50
