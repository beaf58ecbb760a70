"""``GET /healthz`` as API.md says: no login, no data, 200 when the database answers, 503 otherwise."""

from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client

from sczmj_site import __version__


@pytest.mark.django_db
def test_it_answers_ok_without_a_login_and_is_never_cached():
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "version": __version__}
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_a_database_that_does_not_answer_is_a_503():
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("connection refused")):
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] != "ok"


@pytest.mark.django_db
def test_it_only_reads():
    assert Client().post("/healthz").status_code == 405


@pytest.mark.django_db
def test_a_plain_http_health_check_is_not_redirected_to_https(settings):
    settings.SECURE_SSL_REDIRECT = True
    assert Client().get("/healthz").status_code == 200
    assert Client().get("/").status_code == 301
