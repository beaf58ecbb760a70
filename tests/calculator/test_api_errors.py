"""Every API error has one shape and is never a 500: hostile bodies, DRF's refusals, oversized requests."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.test import Client, override_settings
from rest_framework.exceptions import ErrorDetail, NotAuthenticated, PermissionDenied, Throttled

from api.errors import exception_handler, validation_body
from calculator.engine import EngineError
from ledger import tokens

STATELESS = ("/api/v1/score/", "/api/v1/waits/", "/api/v1/settle/")
SHAPE = {"field", "detail", "detail_zh", "errors"}


def assert_shape(response, status: int, field: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) >= SHAPE
    assert body["field"] == field
    assert body["errors"] == {field: [body["detail"]]} or field in body["errors"]
    return body


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)


@pytest.fixture
def member(db):
    user = get_user_model().objects.create_user(username="h10", password="a long enough pass 123")
    return Client(HTTP_AUTHORIZATION=f"Token {tokens.token_issue(user=user)[1]}")


HOSTILE_BODIES = [
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="nested-past-the-recursion-limit"),
    pytest.param(b'{"a":' * 50_000 + b"1" + b"}" * 50_000, id="nested-objects"),
    pytest.param(b"[" * 200 + b"]" * 200, id="nested-deeper-than-the-limit"),
    pytest.param(b'{"concealed":"\\ud800","win_tile":"9s"}', id="lone-surrogate-value"),
    pytest.param(b'{"\\udfff":1}', id="lone-surrogate-key"),
    pytest.param(b'{"concealed":"\xed\xa0\x80","win_tile":"9s"}', id="utf-8-encoded-surrogate"),
]


@pytest.mark.parametrize("url", STATELESS)
@pytest.mark.parametrize("raw", HOSTILE_BODIES)
def test_a_hostile_json_body_is_a_400_on_body(url, raw):
    response = Client().post(url, raw, content_type="application/json")
    assert_shape(response, 400, "body")


@pytest.mark.parametrize("raw", HOSTILE_BODIES)
def test_a_hostile_json_body_to_a_drf_parsed_endpoint_is_a_400_on_body(member, raw):
    response = member.post("/api/v1/groups/", raw, content_type="application/json")
    assert_shape(response, 400, "body")


def test_a_paired_surrogate_escape_is_a_real_character_and_accepted():
    response = Client().post(
        "/api/v1/score/", b'{"concealed":"\\ud83c\\udc00","win_tile":"9s"}', content_type="application/json"
    )
    body = assert_shape(response, 400, "concealed")  # read, then refused as a tile, not as a body
    assert "\U0001f000" in body["detail"]


def test_a_deep_but_legal_settle_body_is_read():
    hand = {"concealed": "123p456p789p11m22m", "win_tile": "2m", "melds": []}
    body = {"dealer": 0, "events": [{"type": "win", "from": 1, "winners": [{"player": 2, "hand": hand}]}]}
    assert Client().post("/api/v1/settle/", body, content_type="application/json").status_code == 200


def test_an_error_message_with_a_lone_surrogate_still_encodes():
    """However a surrogate reaches a message, the answer is the message with it escaped, not a 500."""
    response = exception_handler(EngineError("not_a_tile", field="concealed", position=1, char="\ud800"), {})
    assert response.data["detail"] == "'\\ud800' at position 1 is not a tile."
    assert response.data["errors"] == {"concealed": ["'\\ud800' at position 1 is not a tile."]}


REFUSALS = [
    pytest.param("get", "/api/v1/groups/", None, 401, "credentials", "未登录", id="401-no-credentials"),
    pytest.param("get", "/api/v1/sessions/999999/", "member", 404, "path", "找不到", id="404-session"),
    pytest.param("get", "/api/v1/groups/999999/", "member", 404, "path", "找不到", id="404-group"),
    pytest.param("get", "/api/v1/score/", None, 405, "method", "方法不允许", id="405-get-on-score"),
    pytest.param("delete", "/api/v1/groups/", "member", 405, "method", "方法不允许", id="405-on-ledger"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url", "who", "status", "field", "zh"), REFUSALS)
def test_drf_refusals_come_in_the_one_shape(request, method, url, who, status, field, zh):
    client = request.getfixturevalue(who) if who else Client()
    body = assert_shape(getattr(client, method)(url, HTTP_ACCEPT_LANGUAGE="zh-hans"), status, field)
    assert zh in body["detail_zh"]
    assert not has_chinese(body["detail"])  # detail is English whatever the request's language
    assert "matches the given query" not in body["detail"]  # the model's name stays private


def test_a_bad_token_is_a_401_in_the_one_shape(db):
    response = Client(HTTP_AUTHORIZATION="Token nope").get("/api/v1/groups/")
    assert_shape(response, 401, "credentials")


def test_a_form_body_is_a_415_in_the_one_shape():
    body = assert_shape(Client().post("/api/v1/score/", {"a": "b"}), 415, "content_type")
    assert "不支持的媒体类型" in body["detail_zh"]


def test_a_throttled_request_is_a_429_in_the_one_shape_keeping_retry_after():
    response = exception_handler(Throttled(wait=30), {})
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    assert set(response.data) >= SHAPE
    assert "请求太频繁" in response.data["detail_zh"]


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
@pytest.mark.parametrize("url", [*STATELESS, "/api/v1/groups/"])
def test_a_body_over_the_upload_limit_is_a_json_413(member, url):
    response = member.post(url, b'{"concealed":"' + b"1" * 2000 + b'"}', content_type="application/json")
    body = assert_shape(response, 413, "body")
    assert has_chinese(body["detail_zh"])


def test_a_validation_error_gets_chinese_for_drf_messages():
    body = validation_body({"name": [ErrorDetail("This field is required.", code="required")]})
    assert body["field"] == "name"
    assert body["detail"] == "This field is required."
    assert has_chinese(body["detail_zh"])


def test_a_ledger_serializer_error_carries_chinese(member):
    body = assert_shape(member.post("/api/v1/groups/", {}, content_type="application/json"), 400, "name")
    assert has_chinese(body["detail_zh"])


@pytest.mark.parametrize(
    ("exc", "status", "field", "zh"),
    [
        pytest.param(DjangoPermissionDenied(), 403, "permission", "没有权限", id="django-permission-denied"),
        pytest.param(PermissionDenied(), 403, "permission", "没有权限", id="drf-permission-denied"),
        pytest.param(Http404("No Session matches the given query."), 404, "path", "找不到", id="http404"),
        pytest.param(NotAuthenticated(), 401, "credentials", "身份认证信息未提供", id="not-authenticated"),
    ],
)
def test_the_handler_shapes_django_and_drf_refusals(exc, status, field, zh):
    response = exception_handler(exc, {})
    assert (response.status_code, response.data["field"]) == (status, field)
    assert zh in response.data["detail_zh"]
    assert "Session" not in response.data["detail"]


def test_a_refusal_worded_by_the_project_keeps_its_words():
    response = exception_handler(DjangoPermissionDenied("Your role in this group does not allow this."), {})
    assert response.data["detail"] == "Your role in this group does not allow this."
    assert "没有权限" in response.data["detail_zh"]
