"""A database that does not answer is an outage, not a crash: 503 with ``Retry-After``, in the API's one
error shape under /api/ and as a page of its own elsewhere, wherever it was met; /healthz says so too.
And a role refusal answers its words English in ``detail``, Chinese in ``detail_zh``."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from ledger.models import Role
from sczmj_site import __version__
from tests.ledger.conftest import client_for, make_table, make_user, member_join

ERROR_FIELDS = ["field", "detail", "detail_zh", "errors", "code"]


@contextmanager
def database_down() -> Iterator[None]:
    """Every query of this thread fails as a PostgreSQL that went away fails."""

    def refuse(*_: Any) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    with connection.execute_wrapper(refuse):
        yield


@pytest.mark.django_db
def test_the_api_answers_503_with_retry_after_in_the_one_shape():
    api = client_for(make_user("owner"))
    api.raise_request_exception = False
    with database_down():
        response = api.get("/api/v1/groups/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert list(body) == ERROR_FIELDS
    assert (body["field"], body["code"]) == ("body", "database_unavailable")
    assert body["detail"].isascii() and not body["detail_zh"].isascii()


@pytest.mark.django_db
def test_a_page_answers_503_with_retry_after_when_the_log_in_cannot_be_read():
    """The session middleware meets the outage before any view does."""
    client = Client(raise_request_exception=False)
    client.force_login(make_user("owner"))
    with database_down():
        response = client.get("/home/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "暂时无法连接数据库" in response.content.decode()


@pytest.mark.django_db
def test_healthz_says_503_with_retry_after():
    with database_down():
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response.json() == {"status": "error", "database": "unavailable", "version": __version__}


@pytest.mark.django_db
def test_a_crash_that_is_no_outage_is_still_a_500():
    api = client_for(make_user("owner"))
    api.raise_request_exception = False

    def crash(*_: Any) -> None:
        raise ZeroDivisionError

    with connection.execute_wrapper(crash):
        response = api.get("/api/v1/groups/")
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    assert "Retry-After" not in response


@pytest.mark.django_db
def test_a_role_refusals_detail_is_english_and_detail_zh_chinese():
    owner = make_user("owner")
    group, session = make_table(owner)
    viewer = make_user("viewer")
    member_join(actor=owner, group=group, username="viewer", role=Role.VIEWER)
    response = client_for(viewer).post(f"/api/v1/sessions/{session.pk}/close/", {}, format="json")
    assert response.status_code == 403
    body = response.json()
    assert list(body) == ERROR_FIELDS
    assert body["detail"] == "Your role in this group does not allow this."
    assert body["detail_zh"] == "你在本组的角色无权执行此操作。"
    assert (body["field"], body["code"], body["errors"]) == (
        "permission",
        "permission_denied",
        {"permission": [body["detail"]]},
    )
