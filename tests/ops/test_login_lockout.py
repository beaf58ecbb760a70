"""Password guessing is locked out by user name and address together (django-axes), never by address alone:
a table of friends shares one Wi-Fi."""

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessFailureLog
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client
from django.urls import reverse

from sczmj_site import lockout

pytestmark = pytest.mark.usefixtures("fresh_throttles")

PASSWORD = "a-long-pass-phrase"
TABLE_WIFI = "203.0.113.7"  # the address every phone at the table shares
ELSEWHERE = "198.51.100.20"
LIMIT = 10


def staff(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password=PASSWORD, is_staff=True)


def admin_login(client: Client, username: str, password: str, **meta: str) -> int:
    response = client.post("/admin/login/", {"username": username, "password": password}, **meta)
    return response.status_code


def token(client: Client, username: str, password: str, **meta: str) -> Any:
    body = {"username": username, "password": password}
    return client.post("/api/v1/auth/token/", body, content_type="application/json", **meta)


@pytest.mark.django_db
def test_thirty_wrong_admin_passwords_lock_that_name_at_that_address_and_nobody_else():
    staff("alice")
    staff("bob")
    statuses = [admin_login(Client(), "alice", f"guess-{n}", REMOTE_ADDR=TABLE_WIFI) for n in range(30)]

    assert statuses == [200] * (LIMIT - 1) + [429] * (30 - LIMIT + 1)
    # Locked: even the right password is refused from that address, before it is checked.
    assert admin_login(Client(), "alice", PASSWORD, REMOTE_ADDR=TABLE_WIFI) == 429
    # Bob, on the same Wi-Fi, logs in; so does Alice from another network, after her name's first minute.
    assert admin_login(Client(), "bob", PASSWORD, REMOTE_ADDR=TABLE_WIFI) == 302
    assert admin_login(Client(), "alice", PASSWORD, REMOTE_ADDR=ELSEWHERE) == 429
    minutes_pass(1)
    assert admin_login(Client(), "alice", PASSWORD, REMOTE_ADDR=ELSEWHERE) == 302


@pytest.mark.django_db
def test_the_lockout_page_says_so_in_the_pages_language_and_when_to_come_back():
    staff("alice")
    for n in range(LIMIT):
        response = Client().post(
            "/admin/login/", {"username": "alice", "password": f"guess-{n}"}, HTTP_ACCEPT_LANGUAGE="en"
        )
    assert response.status_code == 429
    assert response["Retry-After"] == str(15 * 60)
    assert "locked from this address for 15 minutes" in response.content.decode()
    chinese = Client().post("/admin/login/", {"username": "alice", "password": "x"}).content.decode()
    assert "15 分钟" in chinese


@pytest.mark.django_db
def test_a_right_password_before_the_limit_clears_the_count():
    staff("alice")
    for n in range(LIMIT - 1):
        admin_login(Client(), "alice", f"guess-{n}")
    assert admin_login(Client(), "alice", PASSWORD) == 302
    assert [admin_login(Client(), "alice", f"again-{n}") for n in range(LIMIT - 1)] == [200] * (LIMIT - 1)


@pytest.mark.django_db
def test_the_api_token_endpoint_counts_too_and_answers_in_the_error_shape():
    staff("alice")
    statuses = [token(Client(), "alice", f"guess-{n}").status_code for n in range(LIMIT)]
    assert statuses == [400] * (LIMIT - 1) + [429]

    locked = token(Client(), "alice", PASSWORD)
    assert locked.status_code == 429
    assert locked.json()["field"] == "credentials"
    assert locked.json()["detail"].startswith("Too many wrong passwords")
    assert locked.json()["detail"].endswith("try again in 15 minutes.")
    assert "15 分钟" in locked.json()["detail_zh"]
    assert set(locked.json()) == {"field", "detail", "detail_zh", "errors", "code"}
    assert locked.json()["code"] == "locked_out"
    minutes_pass(1)  # the name's first wait (test_each_further_wrong_password_doubles_the_wait...)
    assert token(Client(), "alice", PASSWORD, REMOTE_ADDR=ELSEWHERE).status_code == 200


@pytest.mark.django_db
def test_behind_one_proxy_the_address_the_proxy_saw_is_the_client(settings):
    """DJANGO_NUM_PROXIES=1: every request comes from the proxy (127.0.0.1); the last X-Forwarded-For
    entry, the one the proxy appended, tells the phones apart."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    staff("alice")
    behind = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": TABLE_WIFI}
    for n in range(LIMIT):
        admin_login(Client(), "alice", f"guess-{n}", **behind)
    assert admin_login(Client(), "alice", PASSWORD, **behind) == 429
    other_network = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": ELSEWHERE}
    minutes_pass(1)
    assert admin_login(Client(), "alice", PASSWORD, **other_network) == 302


@pytest.mark.django_db
def test_without_a_trusted_proxy_a_forged_forwarded_for_changes_nothing():
    """DJANGO_NUM_PROXIES=0 (the default): X-Forwarded-For is the client's own writing, so a guesser cannot
    become a new address per try by sending a new header each time."""
    staff("alice")
    for n in range(LIMIT):
        forging = {"REMOTE_ADDR": TABLE_WIFI, "HTTP_X_FORWARDED_FOR": f"10.0.0.{n}"}
        admin_login(Client(), "alice", f"guess-{n}", **forging)
    forged = {"REMOTE_ADDR": TABLE_WIFI, "HTTP_X_FORWARDED_FOR": "10.9.9.9"}
    assert admin_login(Client(), "alice", PASSWORD, **forged) == 429


@pytest.mark.django_db
def test_the_sites_log_in_page_locks_the_same_way():
    get_user_model().objects.create_user(username="alice", password=PASSWORD)
    get_user_model().objects.create_user(username="bob", password=PASSWORD)

    def log_in(username: str, password: str) -> int:
        body = {"username": username, "password": password}
        return Client().post(reverse("login"), body, REMOTE_ADDR=TABLE_WIFI).status_code

    assert [log_in("alice", f"guess-{n}") for n in range(LIMIT + 1)] == [200] * (LIMIT - 1) + [429] * 2
    assert log_in("alice", PASSWORD) == 429
    assert log_in("bob", PASSWORD) == 302


# Guessing spread over many addresses: the name's own cool-off (sczmj_site/lockout.py, docs/security.md).
def address(n: int) -> dict[str, str]:
    return {"REMOTE_ADDR": f"192.0.2.{n + 1}"}


def minutes_pass(minutes: float) -> None:
    """Move the clock: every failure axes logged happened ``minutes`` earlier."""
    AccessFailureLog.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=minutes))


def test_the_wait_doubles_from_a_minute_to_fifteen():
    waits = [lockout.name_wait(n) for n in (0, 9, 10, 11, 12, 13, 14, 15, 1000)]
    assert [wait.total_seconds() / 60 for wait in waits] == [0, 0, 1, 2, 4, 8, 15, 15, 15]


@pytest.mark.django_db
def test_the_issues_thirty_addresses_are_slowed_after_ten_wrong_passwords_for_the_name():
    """The issue's attack: 9 wrong passwords each from 30 addresses (270, under the pair's limit) were all
    tried. Now the name's 11th try, from a 12th address, is refused before its password is checked."""
    get_user_model().objects.create_user(username="alice", password=PASSWORD)
    statuses = [token(Client(), "alice", f"guess-{n}", **address(n)).status_code for n in range(30)]
    assert statuses == [400] * lockout.FREE_FAILURES + [429] * (30 - lockout.FREE_FAILURES)
    assert AccessFailureLog.objects.count() == lockout.FREE_FAILURES  # the refused were never tried

    refused = token(Client(), "alice", PASSWORD, **address(40))  # the owner too, for now
    assert refused.status_code == 429
    assert refused.json()["code"] == "name_cooling_off"
    assert refused["Retry-After"] == "60"
    assert refused.json()["detail"].endswith("try again in 1 minute.")  # singular
    assert "1 分钟后再试" in refused.json()["detail_zh"]


@pytest.mark.django_db
def test_each_further_wrong_password_doubles_the_wait_and_the_right_one_after_it_logs_in():
    get_user_model().objects.create_user(username="alice", password=PASSWORD)
    for n in range(lockout.FREE_FAILURES):
        token(Client(), "alice", f"guess-{n}", **address(n))
    tries = []
    for n, wait in enumerate([1, 2, 4, 8, 15, 15]):
        assert token(Client(), "alice", "early", **address(50 + n)).status_code == 429
        minutes_pass(wait - 0.5)
        assert token(Client(), "alice", "early", **address(50 + n)).status_code == 429
        minutes_pass(0.5)
        tries.append(token(Client(), "alice", f"later-{n}", **address(50 + n)).status_code)
    assert tries == [400] * 6  # one try a wait: the guesser's pace is 4 an hour at most

    minutes_pass(15)
    assert token(Client(), "alice", PASSWORD, **address(99)).status_code == 200
    # The log-in cleared the name's count: the owner's next typo is not made to wait.
    assert token(Client(), "alice", "typo", **address(99)).status_code == 400
    assert token(Client(), "alice", PASSWORD, **address(99)).status_code == 200


@pytest.mark.django_db
def test_the_page_says_the_name_waits_in_the_pages_language_and_other_names_do_not():
    get_user_model().objects.create_user(username="alice", password=PASSWORD)
    get_user_model().objects.create_user(username="bob", password=PASSWORD)

    def log_in(username: str, password: str, n: int, **meta: str) -> Any:
        body = {"username": username, "password": password}
        return Client().post(reverse("login"), body, **address(n), **meta)

    for n in range(lockout.FREE_FAILURES):
        assert log_in("alice", f"guess-{n}", n).status_code == 200
    minutes_pass(0.25)
    english = log_in("alice", PASSWORD, 20, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 429
    assert english["Retry-After"] == "45"
    assert "from several addresses: try again in 1 minute." in english.content.decode()
    assert "to 15 minutes at most." in english.content.decode()
    assert "1 分钟后再试" in log_in("alice", PASSWORD, 20).content.decode()
    assert log_in("bob", PASSWORD, 0).status_code == 302

    minutes_pass(1)
    assert log_in("alice", PASSWORD, 20).status_code == 302


@pytest.mark.django_db
def test_failures_older_than_a_day_count_no_more():
    get_user_model().objects.create_user(username="alice", password=PASSWORD)
    for n in range(lockout.FREE_FAILURES):
        token(Client(), "alice", f"guess-{n}", **address(n))
    minutes_pass(24 * 60)
    assert token(Client(), "alice", "one-more", **address(11)).status_code == 400
    assert token(Client(), "alice", PASSWORD, **address(11)).status_code == 200
