"""The deployment of docs/deployment.md end to end: gunicorn behind Debian's caddy running deploy/Caddyfile
itself, with ``tls internal`` on 127.0.0.1, the app with the documented environment.

Over https a phone logs in and records a round through the session page (chromium, trusting Caddy's own
certificate authority); the answers carry HSTS and secure cookies; plain http is redirected to https;
/healthz answers through the proxy; and an ``X-Forwarded-Proto`` a client writes itself is not believed
(Caddy replaces it: else a forged ``http`` would send the app into redirecting an https request).

Skipped, saying why, where caddy is not installed (``apt-get install caddy``; .ci/run installs it, and
with ``SCZMJ_REQUIRE_BROWSER=1`` a missing caddy fails like a missing browser). Runs once, on the SQLite
pass: the proxy is the same whatever the database.
"""

import http.client
import json
import os
import shutil
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.test_pages import choose, tick
from tests.gunicorn import free_ports, gunicorn
from tests.test_settings import documented_environment

ROOT = Path(__file__).resolve().parents[2]
CADDY = shutil.which("caddy")
PASSWORD = "a-long-pass-phrase"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the proxy is the same on either database: it is tested once, on the SQLite pass",
    ),
]


@dataclass(frozen=True)
class Proxy:
    https: str
    http_port: int
    https_port: int
    tls: ssl.SSLContext


def require_caddy() -> str:
    if CADDY is None:
        message = "caddy is not on the PATH (apt-get install caddy): the TLS proxy test cannot run"
        if os.environ.get("SCZMJ_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return CADDY


def wait_for_file(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while not path.is_file():
        assert process.poll() is None, f"caddy exited with {process.returncode}"
        assert time.monotonic() < deadline, f"caddy made no {path}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    caddy = require_caddy()
    work = tmp_path_factory.mktemp("caddy")
    key_file = work / "secret_key"
    key_file.write_text("caddy-test-" + "c" * 50 + "\n")
    kept = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_"))}
    environment = {
        **kept,
        **documented_environment(key_file),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
        "DJANGO_STATIC_ROOT": str(work / "static"),
    }
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *step, "-v", "0"], cwd=ROOT, env=environment, check=True)
    with gunicorn([sys.executable, "-m", "gunicorn"], ROOT, environment) as upstream:
        http_port, https_port = free_ports(2)  # gunicorn holds its own already
        origin = f"https://127.0.0.1:{https_port}"
        caddy_environment = {
            **kept,
            "HOME": str(work),
            "XDG_DATA_HOME": str(work / "data"),
            "XDG_CONFIG_HOME": str(work / "config"),
            "SCZMJ_CADDY_GLOBAL": (
                f"admin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n"
                "\tskip_install_trust\n\tdefault_sni 127.0.0.1"
            ),
            "SCZMJ_SITE": "127.0.0.1",
            "SCZMJ_TLS": "tls internal",
            "SCZMJ_UPSTREAM": upstream.removeprefix("http://"),
        }
        command = [caddy, "run", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"]
        process = subprocess.Popen(
            command, cwd=work, env=caddy_environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            root = work / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
            wait_for_file(root, process)
            tls = ssl.create_default_context(cafile=str(root))
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(origin + "/healthz", context=tls, timeout=5).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "caddy never answered over https"
                    time.sleep(0.3)
            yield Proxy(origin, http_port, https_port, tls)
        finally:
            process.terminate()
            process.wait(timeout=30)


def get(proxy: Proxy, path: str, **headers: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=proxy.tls, timeout=30)
    connection.request("GET", path, headers=headers)
    return connection.getresponse()


def test_healthz_answers_through_the_proxy_over_https(proxy):
    response = get(proxy, "/healthz")
    assert response.status == 200
    assert json.loads(response.read())["status"] == "ok"


def test_plain_http_is_redirected_to_https(proxy):
    connection = http.client.HTTPConnection("127.0.0.1", proxy.http_port, timeout=30)
    connection.request("GET", "/login/")
    response = connection.getresponse()
    assert response.status in (301, 308)
    # Same host and path over https; Caddy 2.6 leaves a non-standard https port out (on a server it is 443).
    assert response.headers["Location"] in (
        "https://127.0.0.1/login/",
        f"https://127.0.0.1:{proxy.https_port}/login/",
    )


def test_https_answers_carry_hsts_and_secure_cookies(proxy):
    response = get(proxy, "/login/")
    assert response.status == 200
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    cookies = response.headers.get_all("Set-Cookie") or []
    assert any(cookie.startswith("csrftoken=") for cookie in cookies), cookies
    assert all("Secure" in cookie for cookie in cookies), cookies


def test_a_forged_forwarded_proto_from_a_client_is_not_believed(proxy):
    """Believed, ``http`` would make the app redirect this https request to https, for ever."""
    response = get(proxy, "/login/", **{"X-Forwarded-Proto": "http"})
    assert response.status == 200


def test_a_phone_logs_in_over_https_and_records_a_round_through_the_session_page(browser: Browser, proxy):
    call = api(proxy)
    call("/api/v1/accounts/", {"username": "keeper", "password": PASSWORD})
    token = call("/api/v1/auth/token/", {"username": "keeper", "password": PASSWORD})["token"]
    group = call("/api/v1/groups/", {"name": "周五麻将"}, token)["id"]
    players = [
        call(f"/api/v1/groups/{group}/players/", {"name": name}, token)["id"]
        for name in ("小王", "小李", "阿美", "老张")
    ]
    session = call(f"/api/v1/groups/{group}/sessions/", {"name": "第一场", "players": players}, token)["id"]
    context = browser.new_context(base_url=proxy.https, locale="zh-CN", ignore_https_errors=True)
    try:
        page = context.new_page()
        page.goto("/login/")
        page.locator("input[name=username]").fill("keeper")
        page.locator("input[name=password]").fill(PASSWORD)
        page.get_by_role("button", name="登录").click()
        page.wait_for_url("**/home/")
        assert all(cookie["secure"] for cookie in context.cookies()), context.cookies()
        page.goto(f"/sessions/{session}/")
        # 一炮多响: 小王 discards to 小李 and 阿美; then 老张 self-draws and the hand is over.
        choose(page, "ev_type", "win")
        tick(page, "winner_1")
        tick(page, "winner_2")
        choose(page, "win_how", "discard:0")
        page.locator(".entrybar__record").click()
        expect(page.locator("input[name='winner_1']")).to_be_disabled()
        choose(page, "ev_type", "win")
        tick(page, "winner_3")
        choose(page, "win_how", "self_draw")
        page.locator(".entrybar__record").click()
        expect(page.locator(".endcard")).to_contain_text("三家已胡")
    finally:
        context.close()
    totals = call(f"/api/v1/sessions/{session}/totals/", None, token)
    assert totals["rounds"] == 1


def api(proxy: Proxy) -> Any:
    def call(path: str, body: Any, token: str = "") -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            proxy.https + path, data=data, method="GET" if body is None else "POST"
        )
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Token {token}")
        with urllib.request.urlopen(request, context=proxy.tls, timeout=30) as response:
            return json.loads(response.read())

    return call
