"""gunicorn started for a test as docs/deployment.md's service starts it, on a free port of this project's
test range, stopped when the test is done (tests/ops/test_wheel.py, tests/e2e/test_page_weight.py)."""

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PORTS = range(8600, 8700)
CONFIG = ["-c", "python:sczmj_site.gunicorn_conf", "sczmj_site.wsgi"]


def free_ports(count: int) -> list[int]:
    found = []
    for port in PORTS:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                found.append(port)
        if len(found) == count:
            return found
    pytest.skip(f"no {count} free ports in {PORTS}")


def free_port() -> int:
    return free_ports(1)[0]


@contextmanager
def gunicorn(command: list[str], cwd: Path, environment: dict[str, str]) -> Iterator[str]:
    """``command`` (how to run gunicorn) with the project's config, one worker; yields its base URL once
    /healthz answers."""
    url = f"http://127.0.0.1:{free_port()}"
    process = subprocess.Popen(
        [*command, *CONFIG],
        cwd=cwd,
        env={**environment, "SCZMJ_BIND": url.removeprefix("http://"), "WEB_CONCURRENCY": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=5).close()
                break
            except OSError:
                time.sleep(0.2)
        assert process.poll() is None, f"gunicorn exited with {process.returncode}"
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
