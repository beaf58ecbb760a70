"""The files an operator of a self-hosted app looks for, each saying what the project really does."""

import re
import tomllib
from pathlib import Path

from sczmj_site import __version__

ROOT = Path(__file__).resolve().parents[2]


def documented_variables() -> set[str]:
    """Every variable docs/deployment.md names in its settings table or the lines about gunicorn."""
    text = (ROOT / "docs" / "deployment.md").read_text()
    settings = text.split("## Settings", 1)[1].split("\n## ", 1)[0]
    return set(
        re.findall(r"`((?:DJANGO|DATABASE|SCZMJ)_[A-Z_]+|WEB_CONCURRENCY|FORWARDED_ALLOW_IPS)`", settings)
    )


def test_env_example_names_every_variable_of_the_deployment_docs():
    example = (ROOT / ".env.example").read_text()
    named = set(re.findall(r"^#?\s*([A-Z][A-Z_]+)=", example, re.M))
    assert documented_variables() - named == set()
    assert len(documented_variables()) >= 19


def test_the_license_is_the_mit_license_pyproject_declares():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    assert declared == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_changelog_has_an_entry_for_the_version_running():
    assert re.search(
        rf"^## {re.escape(__version__)} — \d{{4}}-\d\d-\d\d", (ROOT / "CHANGELOG.md").read_text(), re.M
    )


def test_the_docs_link_to_nothing_outside_the_repository():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "../shared" not in path.read_text(), path
        assert "/work/" not in path.read_text(), path
