"""Several app servers, one PostgreSQL (docs/deployment.md): two gunicorn processes on two ports share one
database and nothing else, so whatever one records the other shows, an Idempotency-Key stores one round
whichever server each try reaches, and the throttles and the login lockout count across both.

Needs PostgreSQL at 127.0.0.1:5432 (``SCZMJ_SERVERS_POSTGRES`` to point elsewhere): skipped when none
answers, a failure when ``CI=true``. It makes a database of its own, so it runs beside either test run.
"""

import html
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sczmj_site import __version__

pytestmark = pytest.mark.servers

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = os.environ.get("SCZMJ_SERVERS_POSTGRES", "postgres://postgres@127.0.0.1:5432")
PORTS = range(8600, 8700)  # this project's test range; any free pair in it
PASSWORD = "a-long-pass-phrase"
SELF_DRAW = {"dealer": 0, "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 3}]}]}
SELF_DRAW_NET = [-5, 15, -5, -5]  # RULES.md example 11


def postgres_or_skip() -> Any:
    psycopg = pytest.importorskip("psycopg")
    try:
        return psycopg.connect(f"{POSTGRES}/postgres", connect_timeout=3, autocommit=True)
    except psycopg.Error as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI has no PostgreSQL at {POSTGRES}: {error}")
        pytest.skip(f"no PostgreSQL answers at {POSTGRES}")


def free_ports(count: int) -> list[int]:
    ports = []
    for port in PORTS:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                ports.append(port)
        if len(ports) == count:
            return ports
    pytest.skip(f"no {count} free ports in {PORTS}")


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]

    def page(self, path: str) -> tuple[int, str]:
        """(status, HTML) of a page, in English."""
        request = urllib.request.Request(self.url + path, headers={"Accept-Language": "en"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def call(self, method: str, path: str, body: Any = None, token: str = "", **headers: str) -> Any:
        """(status, headers, JSON body) of one request; errors are answers too."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Token {token}")
        for name, value in headers.items():
            request.add_header(name.replace("_", "-"), value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.headers, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, error.headers, json.loads(error.read() or b"null")


def environment(database_url: str) -> dict[str, str]:
    kept = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_"))}
    return {
        **kept,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "tests.ops.servers_settings",
        "DJANGO_SECRET_KEY": "several-servers-test-key-" + "x" * 40,
        "WEB_CONCURRENCY": "1",
        "SCZMJ_THREADS": "4",
    }


def wait_until_healthy(server: Server) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"gunicorn at {server.url} exited with {server.process.returncode}")
        try:
            if server.call("GET", "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    pytest.fail(f"gunicorn at {server.url} did not become healthy")


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    admin = postgres_or_skip()
    name = f"sczmj_servers_{os.getpid()}"
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    env = environment(f"{POSTGRES}/{name}")
    env["DJANGO_STATIC_ROOT"] = str(tmp_path_factory.mktemp("static"))  # the pages need the manifest
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *step, "-v", "0"], cwd=ROOT, env=env, check=True)
    started = []
    try:
        for port in free_ports(2):
            command = [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "python:sczmj_site.gunicorn_conf",
                "sczmj_site.wsgi",
            ]
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**env, "SCZMJ_BIND": f"127.0.0.1:{port}"},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            started.append(Server(f"http://127.0.0.1:{port}", process))
        for server in started:
            wait_until_healthy(server)
        yield started[0], started[1]
    finally:
        for server in started:
            server.process.terminate()
            server.process.wait(timeout=30)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(scope="module")
def table(servers: tuple[Server, Server]) -> dict[str, Any]:
    """An account, a group of four and an open session, all made through the first server."""
    first, _ = servers
    assert first.call("POST", "/api/v1/accounts/", {"username": "owner", "password": PASSWORD})[0] == 201
    token = first.call("POST", "/api/v1/auth/token/", {"username": "owner", "password": PASSWORD})[2]["token"]
    group = first.call("POST", "/api/v1/groups/", {"name": "周五麻将"}, token)[2]
    players = [
        first.call("POST", f"/api/v1/groups/{group['id']}/players/", {"name": name}, token)[2]["id"]
        for name in ("小王", "小李", "阿美", "老张")
    ]
    body = {"name": "第一场", "players": players}
    session = first.call("POST", f"/api/v1/groups/{group['id']}/sessions/", body, token)[2]
    return {"token": token, "session": session["id"]}


def totals(server: Server, table: dict[str, Any]) -> tuple[int, list[int]]:
    status, _, body = server.call("GET", f"/api/v1/sessions/{table['session']}/totals/", token=table["token"])
    assert status == 200, body
    return body["rounds"], [seat["points"] for seat in body["seats"]]


def record(server: Server, table: dict[str, Any], key: str) -> tuple[int, Any]:
    path = f"/api/v1/sessions/{table['session']}/rounds/"
    status, headers, _ = server.call("POST", path, SELF_DRAW, table["token"], Idempotency_Key=key)
    return status, headers.get("Idempotent-Replayed")


def test_both_servers_answer_healthz_from_the_one_database(servers):
    for server in servers:
        status, _, body = server.call("GET", "/healthz")
        assert (status, body) == (200, {"status": "ok", "database": "ok", "version": __version__})


def test_a_round_recorded_through_one_server_is_in_the_others_totals(servers, table):
    first, second = servers
    before, _ = totals(second, table)
    assert record(first, table, str(uuid.uuid4())) == (201, None)
    rounds, points = totals(second, table)
    assert rounds == before + 1
    assert totals(first, table) == (rounds, points)


def test_the_hand_in_progress_is_one_hand_whichever_server_is_asked(servers, table):
    """Two phones at one table, each reaching another server: an event saved through one is the hand the
    other shows, a write against the revision it replaced is refused, and the event that finishes the
    hand records its round for both."""
    first, second = servers
    hand = f"/api/v1/sessions/{table['session']}/hand/"
    token = table["token"]
    revision = second.call("GET", hand, token=token)[2]["revision"]
    kong = {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"}
    status, _, saved = first.call("POST", hand + "events/", {"event": kong, "revision": revision}, token)
    assert status == 200, saved
    status, headers, shown = second.call("GET", hand, token=token)
    assert (status, shown["events"], shown["revision"]) == (200, [kong], revision + 1)
    assert headers["ETag"] == f'"hand-{revision + 1}"'

    stale = {"event": {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 1}]}, "revision": revision}
    status, _, refused = second.call("POST", hand + "events/", stale, token)
    assert (status, refused["field"], refused["hand"]["events"]) == (409, "revision", [kong])

    rounds_before, _ = totals(first, table)
    three_win = {"type": "win", "from": 0, "winners": [{"player": p, "fan": 1} for p in (1, 2, 3)]}
    status, _, finished = second.call(
        "POST", hand + "events/", {"event": three_win, "revision": revision + 1}, token
    )
    assert status == 201, finished
    assert totals(first, table)[0] == rounds_before + 1
    assert first.call("GET", hand, token=token)[2]["events"] == []


def test_the_live_view_on_one_server_shows_a_round_recorded_through_the_other(servers, table):
    first, second = servers
    invites = f"/api/v1/sessions/{table['session']}/invites/"
    status, _, invite = first.call("POST", invites, {"role": "viewer"}, table["token"])
    assert status == 201, invite
    link = urllib.parse.urlsplit(invite["url"]).path
    rounds, _ = totals(first, table)
    status, before = second.page(link)
    assert status == 200
    assert f"{rounds} hands played" in before or f"{rounds} hand played" in before
    assert record(first, table, str(uuid.uuid4()))[0] == 201
    assert f"{rounds + 1} hands played" in second.page(link)[1]


def visit(
    server: Server, method: str, path: str, cookies: dict[str, str], form: Any = None, **headers: str
) -> Any:
    """(status, headers, text) of one request as a browser makes it, keeping its cookies in ``cookies`` by
    hand (they are Secure: a cookie jar would not send them over plain HTTP to 127.0.0.1)."""
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(server.url).netloc, timeout=30)
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
    if form is not None:
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, urllib.parse.urlencode(form) if form is not None else None, sent)
    response = connection.getresponse()
    for cookie in response.headers.get_all("Set-Cookie") or []:
        name, value = cookie.split(";", 1)[0].split("=", 1)
        cookies[name] = value
    answer = response.status, response.headers, response.read().decode()
    connection.close()
    return answer


def test_a_members_page_served_by_one_server_follows_live_through_the_other(servers, table):
    """The member's poll carries what it needs (the login cookie and the page's live pass) and the servers
    share the database and the key, nothing else: a page from one server polls the other."""
    first, second = servers
    cookies: dict[str, str] = {}
    _, _, form = visit(first, "GET", "/login/", cookies)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)  # type: ignore[union-attr]
    credentials = {"username": "owner", "password": PASSWORD, "csrfmiddlewaretoken": csrf}
    assert visit(first, "POST", "/login/", cookies, credentials)[0] == 302
    status, _, page = visit(first, "GET", f"/sessions/{table['session']}/", cookies)
    assert status == 200
    live = re.search(r'<div id="entry-live"[^>]*>', page).group(0)  # type: ignore[union-attr]
    poll = html.unescape(re.search(r'hx-get="([^"]+)"', live).group(1))  # type: ignore[union-attr]
    live_pass = re.search(r'"X-Live-Pass": "([^"]+)"', live).group(1)  # type: ignore[union-attr]
    assert visit(second, "GET", poll, cookies, X_Live_Pass=live_pass)[0] == 204

    hand = f"/api/v1/sessions/{table['session']}/hand/"
    revision = first.call("GET", hand, token=table["token"])[2]["revision"]
    kong = {"type": "kong", "player": 2, "kind": "concealed", "tile": "5p"}
    assert (
        first.call("POST", hand + "events/", {"event": kong, "revision": revision}, table["token"])[0] == 200
    )
    status, headers, update = visit(second, "GET", poll, cookies, X_Live_Pass=live_pass, HX_Request="true")
    assert (status, headers["X-Live-Revision"]) == (200, str(revision + 1))
    assert 'id="entry-seats"' in update and f'data-revision="{revision + 1}"' in update


def test_one_idempotency_key_on_both_servers_stores_one_round(servers, table):
    first, second = servers
    before, points_before = totals(first, table)
    key = str(uuid.uuid4())
    assert record(first, table, key) == (201, None)
    assert record(second, table, key) == (201, "true")
    rounds, points = totals(second, table)
    assert rounds == before + 1
    assert points == [was + net for was, net in zip(points_before, SELF_DRAW_NET, strict=True)]


def test_one_key_sent_to_both_servers_at_the_same_moment_stores_one_round(servers, table):
    first, second = servers
    before, _ = totals(first, table)
    key = str(uuid.uuid4())
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda server: record(server, table, key), [first, second] * 2))
    assert sorted(replayed or "" for _, replayed in answers) == ["", "true", "true", "true"]
    assert {status for status, _ in answers} == {201}
    assert totals(second, table)[0] == before + 1


def test_the_login_lockout_and_the_throttle_count_both_servers_together(servers, table):
    """Both count in the database, so a guesser gains nothing by spreading tries over the servers. The
    token endpoint has made one call so far (the table's token): 20 an hour per address are allowed."""
    first, second = servers
    guess = "/api/v1/auth/token/"
    assert first.call("POST", "/api/v1/accounts/", {"username": "victim", "password": PASSWORD})[0] == 201
    wrong = [
        (first, second)[n % 2].call("POST", guess, {"username": "victim", "password": f"w{n}"})
        for n in range(10)
    ]
    assert [status for status, _, _ in wrong] == [400] * 9 + [429]  # 10 wrong passwords lock the pair
    status, _, body = second.call("POST", guess, {"username": "victim", "password": PASSWORD})
    assert (status, body["detail"][:25]) == (429, "Too many wrong passwords ")
    calls = 1 + 10 + 1

    others = [
        (first, second)[n % 2].call("POST", guess, {"username": f"other{n}", "password": "w"})[0]
        for n in range(20 - calls)
    ]
    assert 429 not in others
    for server in servers:
        status, headers, body = server.call("POST", guess, {"username": "another", "password": "w"})
        assert (status, body["detail"]) == (429, "Too many requests: try again later.")
        assert int(headers["Retry-After"]) > 0
