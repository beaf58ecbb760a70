"""Every page's first load over the wire is at most 60 KB: the encoded bodies of every response the
browser receives (the HTML, its stylesheets, scripts, images, the htmx requests it makes as it loads;
the headers, some 600 bytes a response, aside), as deployed: gunicorn with debug off, static files
collected (hashed, pre-compressed, served by WhiteNoise) and the app's GZipMiddleware compressing pages.

Each page opens in a new browser context (an empty cache, as a phone that never visited), logged in where
the page needs it. Service workers are blocked: what the offline worker stores after the page has loaded
(the engine and, once per version, Pyodide: docs/offline.md) is no part of loading the page.

The server is the checkout's own code on a throwaway SQLite file; the table is made through the API. It
runs once per CI run, on the SQLite pass.
"""

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.gunicorn import gunicorn

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the pages weigh the same on either database: measured once, on the SQLite pass",
    ),
]

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60 * 1024
PASSWORD = "a-long-pass-phrase"
SELF_DRAW = {"dealer": 0, "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 3}]}]}
HANDS = 5
PUBLIC = ["/", "/round/", "/signup/", "/login/", "/offline/"]
MEMBERS = [
    "/home/",
    "/groups/{group}/",
    "/groups/{group}/stats/",
    "/groups/{group}/start/",
    "/password/",
    "/invitations/",
    "/sessions/{session}/",
    "/sessions/{session}/history/",
    "/sessions/{session}/settle/",
    "/sessions/{session}/chart/",
    "/sessions/{session}/invite/",
]


@dataclass(frozen=True)
class Site:
    url: str
    group: int
    session: int


def call(url: str, path: str, body: Any, token: str = "") -> Any:
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def seed(url: str) -> Site:
    """An owner, a group of four, an open session with a few hands: what every member page shows."""
    call(url, "/api/v1/accounts/", {"username": "owner", "password": PASSWORD})
    token = call(url, "/api/v1/auth/token/", {"username": "owner", "password": PASSWORD})["token"]
    group = call(url, "/api/v1/groups/", {"name": "周五麻将"}, token)["id"]
    players = [
        call(url, f"/api/v1/groups/{group}/players/", {"name": name}, token)["id"]
        for name in ("小王", "小李", "阿美", "老张")
    ]
    session = call(url, f"/api/v1/groups/{group}/sessions/", {"name": "第一场", "players": players}, token)[
        "id"
    ]
    for _ in range(HANDS):
        call(url, f"/api/v1/sessions/{session}/rounds/", SELF_DRAW, token)
    return Site(url, group, session)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    work = tmp_path_factory.mktemp("weight")
    kept = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_"))}
    environment = {
        **kept,
        "DJANGO_SECRET_KEY": "page-weight-test-key-" + "w" * 40,
        "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
        "DJANGO_STATIC_ROOT": str(work / "static"),
    }
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *step, "-v", "0"], cwd=ROOT, env=environment, check=True)
    with gunicorn([sys.executable, "-m", "gunicorn"], ROOT, environment) as url:
        yield seed(url)


def first_load(browser: Browser, site: Site, path: str, storage: Any = None) -> tuple[int, list[str]]:
    """(bytes over the wire, what was fetched) of ``path`` opened in a new context with an empty cache."""
    context = browser.new_context(
        base_url=site.url, locale="zh-CN", service_workers="block", storage_state=storage
    )
    responses: list[Any] = []
    page = context.new_page()
    page.on("response", lambda response: responses.append(response))
    status = page.goto(path)
    assert status is not None and status.status == 200, f"{path} answered {status and status.status}"
    page.wait_for_load_state("networkidle")
    sizes = [(response.url, response.request.sizes()) for response in responses]
    context.close()
    total = sum(size["responseBodySize"] for _, size in sizes)
    headers = sum(size["responseHeadersSize"] for _, size in sizes)
    print(f"{path}: {len(sizes)} responses, {total / 1024:.1f} KB, headers {headers / 1024:.1f} KB")  # -s
    fetched = [f"{url.removeprefix(site.url)} {size['responseBodySize']} B" for url, size in sizes]
    return total, fetched


@pytest.fixture(scope="module")
def logged_in(browser: Browser, site: Site) -> Any:
    """The cookies of a log-in through the log-in page, for each member page's new context."""
    context = browser.new_context(base_url=site.url, locale="zh-CN", service_workers="block")
    page = context.new_page()
    page.goto("/login/")
    page.locator("input[name=username]").fill("owner")
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name="登录").click()
    page.wait_for_url("**/home/")
    state = context.storage_state()
    context.close()
    return state


@pytest.mark.parametrize("path", PUBLIC)
def test_a_public_pages_first_load_is_at_most_60_kb_over_the_wire(browser, site, path):
    total, fetched = first_load(browser, site, path)
    assert total <= LIMIT, f"{path}: {total / 1024:.1f} KB over the wire: {fetched}"


@pytest.mark.parametrize("path", MEMBERS)
def test_a_member_pages_first_load_is_at_most_60_kb_over_the_wire(browser, site, logged_in, path):
    path = path.format(group=site.group, session=site.session)
    total, fetched = first_load(browser, site, path, logged_in)
    assert total <= LIMIT, f"{path}: {total / 1024:.1f} KB over the wire: {fetched}"


def test_the_html_leaves_the_app_gzipped(site):
    request = urllib.request.Request(site.url + "/round/", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response.headers["Vary"]
