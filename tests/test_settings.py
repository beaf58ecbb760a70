"""Settings from the environment: development mode only when asked for, and the documented deployment
passing Django's own deployment check."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOW = "from django.conf import settings as s; print(s.DEBUG, s.STORAGES['staticfiles']['BACKEND'])"


def clean_environment(**environment: str) -> dict[str, str]:
    """This process's environment without any DJANGO_ or DATABASE_ variable, plus ``environment``."""
    kept = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_"))}
    return {**kept, **environment}


def manage(*arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "manage.py", *arguments]
    return subprocess.run(
        command, cwd=ROOT, env=clean_environment(**environment), capture_output=True, text=True
    )


def documented_environment(secret_key_file: Path) -> dict[str, str]:
    """The variables of the `# /etc/sczmj/env` block of docs/deployment.md, the key file made real."""
    text = (ROOT / "docs" / "deployment.md").read_text()
    block = re.search(r"```sh\n\s*# /etc/sczmj/env\n(.*?)```", text, re.S)
    assert block, "docs/deployment.md has no `# /etc/sczmj/env` block"
    pairs = dict(line.strip().split("=", 1) for line in block.group(1).splitlines() if line.strip())
    return {**pairs, "DJANGO_SECRET_KEY_FILE": str(secret_key_file)}


@pytest.fixture
def secret_key_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret_key"
    path.write_text("k" * 20 + "-a-long-random-looking-key-for-the-deploy-check-0123456789\n")
    return path


def test_a_plain_shell_is_a_deployment_with_no_key_to_sign_with():
    """No silent fallback to development mode: a `load_demo` or `collectstatic` typed into a plain shell
    must not act on a production database as if in development, and nothing can be signed with a
    development key there."""
    sign = "; from django.core import signing; signing.dumps(1)"
    result = manage("shell", "--no-imports", "-c", SHOW + sign)
    assert result.stdout.strip() == "False whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert result.returncode != 0
    assert "The SECRET_KEY setting must not be empty" in result.stderr


def test_a_command_that_signs_nothing_runs_in_a_plain_shell():
    """An operator's (or a CI hook's) `makemigrations --check` needs no key."""
    result = manage("makemigrations", "--check", "--dry-run")
    assert (result.returncode, result.stdout.strip()) == (0, "No changes detected"), result.stderr


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        pytest.param(
            {"DJANGO_SECRET_KEY": "k"},
            "False whitenoise.storage.CompressedManifestStaticFilesStorage",
            id="a-key-alone-is-a-deployment-with-the-manifest",
        ),
        pytest.param(
            {"DJANGO_DEBUG": "1"},
            "True django.contrib.staticfiles.storage.StaticFilesStorage",
            id="development-only-when-asked-for",
        ),
    ],
)
def test_development_mode_only_when_django_debug_is_1(environment, expected):
    assert manage("shell", "--no-imports", "-c", SHOW, **environment).stdout.strip() == expected


def test_the_key_can_come_from_a_file(secret_key_file):
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    result = manage("shell", "--no-imports", "-c", code, DJANGO_SECRET_KEY_FILE=str(secret_key_file))
    assert result.stdout.strip() == secret_key_file.read_text().strip()


def test_collectstatic_outside_development_always_leaves_a_manifest(tmp_path, secret_key_file):
    result = manage(
        "collectstatic",
        "--noinput",
        "-v",
        "0",
        DJANGO_SECRET_KEY_FILE=str(secret_key_file),
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "static" / "staticfiles.json").is_file()
    css = list((tmp_path / "static" / "css").glob("site.*.css.gz"))
    assert css, "the hashed stylesheet has no compressed copy"


def test_the_documented_environment_passes_check_deploy(secret_key_file):
    result = manage("check", "--deploy", "--fail-level", "WARNING", **documented_environment(secret_key_file))
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_without_the_proxy_settings_check_deploy_names_what_is_missing(secret_key_file):
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", DJANGO_SECRET_KEY_FILE=str(secret_key_file)
    )
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008"):  # HSTS, the SSL redirect
        assert warning in result.stderr


def test_the_documented_environment_reads_as_a_tls_proxy_deployment(secret_key_file):
    code = (
        "from django.conf import settings as s; print(s.SECURE_PROXY_SSL_HEADER, s.CSRF_TRUSTED_ORIGINS, "
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.REST_FRAMEWORK['NUM_PROXIES'], s.DATABASES['default']['CONN_MAX_AGE'], "
        "s.DATABASES['default']['CONN_HEALTH_CHECKS'])"
    )
    result = manage("shell", "--no-imports", "-c", code, **documented_environment(secret_key_file))
    assert result.stdout.split() == [
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
        "['https://mahjong.example.org']",
        "True",
        "31536000",
        "True",
        "True",
        "1",
        "600",
        "True",
    ]


def test_the_wsgi_application_refuses_to_start_without_a_key_or_debug():
    code = "import sczmj_site.wsgi"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean_environment(), capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "Set DJANGO_SECRET_KEY or DJANGO_SECRET_KEY_FILE" in result.stderr
