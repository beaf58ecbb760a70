import os

import pytest

from pwa.offline import runtime


@pytest.fixture
def pyodide():
    """Offline scoring needs the runtime make setup fetches; CI (SCZMJ_REQUIRE_BROWSER) fails without it."""
    if runtime() is None:
        message = "Pyodide is not in vendor/pyodide: run make setup with a network (tools/fetch_pyodide.py)"
        if os.environ.get("SCZMJ_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
