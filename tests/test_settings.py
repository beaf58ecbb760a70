"""Development mode is on only where nobody configured a deployment."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOW_DEBUG = "from django.conf import settings; print(settings.DEBUG)"


def debug_under(**environment: str) -> str:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_"))}
    command = [sys.executable, "manage.py", "shell", "--no-imports", "-c", SHOW_DEBUG]
    result = subprocess.run(command, cwd=ROOT, env={**env, **environment}, capture_output=True, text=True)
    return result.stdout.strip() or result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        pytest.param({}, "True", id="a-checkout-without-a-key-is-development"),
        pytest.param({"DJANGO_SECRET_KEY": "k"}, "False", id="a-deployment-key-turns-debug-off"),
        pytest.param({"DJANGO_SECRET_KEY": "k", "DJANGO_DEBUG": "1"}, "True", id="unless-asked-for"),
    ],
)
def test_manage_py_is_in_development_mode_only_without_a_deployment_key(environment, expected):
    assert debug_under(**environment) == expected


def test_the_wsgi_settings_refuse_to_start_without_a_key_or_debug():
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    code = "import sczmj_site.wsgi"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr
