"""The API's edges: every 404 under /api/ in the one error shape, ``detail`` always English, tokens that
can be revoked and can expire."""

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

PASSWORD = "a-long-pass-phrase"
SHAPE = {"field", "detail", "detail_zh", "errors", "code"}  # code: issue 7, added last
CJK = re.compile(r"[\u3400-\u9fff]")
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_throttles")]


@pytest.fixture
def user() -> Any:
    return get_user_model().objects.create_user(username="alice", password=PASSWORD)


@pytest.fixture
def client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def token_of(username: str = "alice", password: str = PASSWORD, name: str = "") -> Any:
    return APIClient().post(
        "/api/v1/auth/token/", {"username": username, "password": password, "name": name}, format="json"
    )


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/groups/abc/",
        "/api/v1/groups/1234567890123456789/",  # 19 digits: past the id converter
        "/api/v1/groups/99/",  # a number, no such group
        "/api/v1/sessions/-1/totals/",
        "/api/v1/nope/",
        "/api/nope",
        "/api/v2/groups/",
    ],
)
def test_every_404_under_api_is_json_in_the_one_shape(client, path):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == SHAPE
    assert (body["field"], body["detail"], body["detail_zh"]) == ("path", "Not found.", "找不到该对象。")
    assert body["code"] == "not_found"


def test_a_page_404_stays_a_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("language", ["zh-hans", "en", None])
@pytest.mark.parametrize(
    ("path", "body", "field", "english"),
    [
        ("/api/v1/groups/", {}, "name", "This field is required."),
        ("/api/v1/groups/", {"name": ""}, "name", "This field may not be blank."),
        (
            "/api/v1/groups/",
            {"name": "x" * 101},
            "name",
            "Ensure this field has no more than 100 characters.",
        ),
        ("/api/v1/groups/", {"name": None}, "name", "This field may not be null."),
        (
            "/api/v1/accounts/",
            {"username": "bob", "password": "123"},
            "password",
            "This password is too short.",
        ),
    ],
)
def test_detail_is_english_and_detail_zh_chinese_whatever_the_language(
    client, language, path, body, field, english
):
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    answer = client.post(path, body, format="json", **headers).json()
    assert answer["field"] == field
    assert answer["detail"].startswith(english)
    assert not CJK.search(answer["detail"]), answer["detail"]
    assert not CJK.search(" ".join(answer["errors"][field]))
    assert CJK.search(answer["detail_zh"]), answer["detail_zh"]


def test_the_password_refusal_is_worded_in_both_languages(client):
    answer = client.post("/api/v1/accounts/", {"username": "bob", "password": "123"}, format="json").json()
    assert "This password is too common." in answer["detail"]
    assert "密码" in answer["detail_zh"] and "password" not in answer["detail_zh"]


def test_logging_out_one_device_leaves_the_other_working(user):
    phone, tablet = (token_of(name=name).json() for name in ("小王的手机", "平板"))
    holder = APIClient(headers={"Authorization": f"Token {phone['token']}"})
    other = APIClient(headers={"Authorization": f"Token {tablet['token']}"})
    devices = holder.get("/api/v1/auth/tokens/").json()
    assert [(d["name"], d["current"]) for d in devices] == [("平板", False), ("小王的手机", True)]
    assert "token" not in devices[0] and phone["token"] not in str(devices)

    assert holder.delete("/api/v1/auth/token/").status_code == 204
    refused = holder.get("/api/v1/groups/")
    assert refused.status_code == 401
    assert set(refused.json()) == SHAPE
    assert other.get("/api/v1/groups/").status_code == 200
    assert [d["name"] for d in other.get("/api/v1/auth/tokens/").json()] == ["平板"]


def test_one_device_logs_out_another_or_all_of_them(user):
    first, second, third = (token_of(name=f"d{n}").json() for n in range(3))
    holder = APIClient(headers={"Authorization": f"Token {first['token']}"})
    assert holder.delete(f"/api/v1/auth/tokens/{second['id']}/").status_code == 204
    assert (
        APIClient(headers={"Authorization": f"Token {second['token']}"}).get("/api/v1/groups/").status_code
        == 401
    )
    assert holder.delete("/api/v1/auth/tokens/nope/").status_code == 404
    get_user_model().objects.create_user(username="bob", password=PASSWORD)
    bobs = token_of("bob").json()
    assert holder.delete(f"/api/v1/auth/tokens/{bobs['id']}/").status_code == 404  # another account's
    assert (
        APIClient(headers={"Authorization": f"Token {bobs['token']}"}).get("/api/v1/groups/").status_code
        == 200
    )
    assert holder.delete("/api/v1/auth/tokens/").status_code == 204
    for token in (first, third):
        assert (
            APIClient(headers={"Authorization": f"Token {token['token']}"}).get("/api/v1/groups/").status_code
            == 401
        )


def test_a_database_dump_holds_no_usable_token(user):
    """Only a digest and the key's first characters are stored: neither logs in."""
    from ledger.models import DeviceToken

    key = token_of().json()["token"]
    (row,) = DeviceToken.objects.values_list("digest", "token_key")
    assert key not in " ".join(row)
    for stored in row:
        assert (
            APIClient(headers={"Authorization": f"Token {stored}"}).get("/api/v1/groups/").status_code == 401
        )


def test_logging_out_needs_the_token(user):
    assert APIClient().delete("/api/v1/auth/token/").status_code == 401


def test_a_stale_token_sent_with_a_log_in_does_not_refuse_it(user):
    response = APIClient(headers={"Authorization": "Token not-a-token"}).post(
        "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200


def test_a_token_dies_thirty_days_after_its_last_use_and_each_use_moves_that(user, settings):
    """REST_KNOX's TOKEN_TTL (DJANGO_API_TOKEN_DAYS, default 30) counts from the last use: a phone in use
    stays logged in; one unused for 30 days gets 401 token_expired in the one error shape."""
    from ledger.models import DeviceToken

    answer = token_of().json()
    key = answer["token"]
    holder = APIClient(headers={"Authorization": f"Token {key}"})
    long_ago = timezone.now() - timedelta(days=29)
    DeviceToken.objects.update(expiry=timezone.now() + timedelta(days=1), last_used=long_ago)
    assert holder.get("/api/v1/groups/").status_code == 200  # used: 30 days from now again
    (token,) = DeviceToken.objects.all()
    assert token.expiry > timezone.now() + timedelta(days=29, hours=23)
    assert token.last_used > long_ago

    DeviceToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    refused = holder.get("/api/v1/groups/")
    assert refused.status_code == 401
    assert set(refused.json()) == SHAPE
    assert refused.json()["field"] == "credentials"
    assert refused.json()["detail"].startswith("The token has expired")
    assert "过期" in refused.json()["detail_zh"]

    fresh = token_of().json()["token"]
    assert fresh != key
    assert APIClient(headers={"Authorization": f"Token {fresh}"}).get("/api/v1/groups/").status_code == 200


def test_with_no_expiry_set_a_token_lives_on_and_its_use_is_still_recorded(user, settings):
    """DJANGO_API_TOKEN_DAYS=0: no expiry; GET auth/tokens/ still says when each device was last used."""
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": None}
    answer = token_of(name="老电脑").json()
    assert answer["expiry"] is None
    holder = APIClient(headers={"Authorization": f"Token {answer['token']}"})
    (device,) = holder.get("/api/v1/auth/tokens/").json()
    assert device["expiry"] is None and device["last_used"] is not None
