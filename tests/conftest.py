import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run inside one
# unless told the code is not really async. The browser tests only touch the ORM to prepare data.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's chromium, never a downloaded browser; flags that keep it off the closed network."""
    if CHROMIUM is None:
        if os.environ.get("SCZMJ_REQUIRE_BROWSER"):
            pytest.fail("chromium is not on the PATH (apt-get install chromium)")
        pytest.skip("chromium is not on the PATH: apt-get install chromium to run the browser tests")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture
def phone_page(page):
    """A phone-sized page that fails the test on any console error or uncaught exception."""
    errors: list[str] = []
    page.set_viewport_size({"width": 360, "height": 740})
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert errors == [], f"the browser reported errors: {errors}"


def pytest_sessionfinish(session, exitstatus):
    """Django deletes the SQLite test database but not its WAL side files; leave no trace in the tree."""
    from django.conf import settings

    test_name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if test_name and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        for suffix in ("-wal", "-shm"):
            Path(f"{test_name}{suffix}").unlink(missing_ok=True)
