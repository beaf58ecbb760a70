"""Behind the TLS proxy of docs/deployment.md: form posts with an https Origin are accepted, with the
settings the documented environment gives (tests/test_settings.py checks the environment reads so)."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

SITE = "mahjong.example.org"
PASSWORD = "a-long-pass-phrase"


@pytest.fixture
def behind_the_proxy(settings: Any) -> Any:
    settings.ALLOWED_HOSTS = [SITE]
    settings.CSRF_TRUSTED_ORIGINS = [f"https://{SITE}"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user(username="alice", password=PASSWORD, is_staff=True)
    return settings


def admin_login_through(proxy_headers: dict[str, str], host: str = SITE) -> Any:
    """Fetch the admin login form and post it back, both through the proxy, CSRF checks on."""
    browser = Client(enforce_csrf_checks=True, headers={"Host": host, **proxy_headers})
    page = browser.get("/admin/login/")
    assert page.status_code == 200, page.status_code
    token = browser.cookies["csrftoken"]
    assert token["secure"]
    form = {"username": "alice", "password": PASSWORD, "csrfmiddlewaretoken": token.value}
    return browser.post("/admin/login/", form, headers={"Origin": f"https://{SITE}"})


@pytest.mark.django_db
def test_a_form_posted_over_tls_through_the_proxy_is_accepted(behind_the_proxy):
    response = admin_login_through({"X-Forwarded-Proto": "https"})
    assert response.status_code == 302
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


@pytest.mark.django_db
def test_a_proxy_that_rewrites_host_is_covered_by_the_trusted_origins(behind_the_proxy):
    """A proxy sending Host: 127.0.0.1:8000 makes Origin differ from the host: CSRF_TRUSTED_ORIGINS."""
    behind_the_proxy.ALLOWED_HOSTS = [SITE, "127.0.0.1"]
    assert admin_login_through({"X-Forwarded-Proto": "https"}, host="127.0.0.1:8000").status_code == 302
    behind_the_proxy.CSRF_TRUSTED_ORIGINS = []
    assert admin_login_through({"X-Forwarded-Proto": "https"}, host="127.0.0.1:8000").status_code == 403


@pytest.mark.django_db
def test_without_the_proxy_ssl_header_every_post_is_refused(behind_the_proxy):
    """The failure issue 10 reported: Django sees http, the browser sent an https Origin."""
    behind_the_proxy.SECURE_SSL_REDIRECT = False
    behind_the_proxy.SECURE_PROXY_SSL_HEADER = None
    behind_the_proxy.CSRF_TRUSTED_ORIGINS = []
    assert admin_login_through({"X-Forwarded-Proto": "https"}).status_code == 403


@pytest.mark.django_db
def test_plain_http_through_the_proxy_is_redirected_to_https(behind_the_proxy):
    response = Client(headers={"Host": SITE, "X-Forwarded-Proto": "http"}).get("/admin/login/")
    assert response.status_code == 301
    assert response["Location"] == f"https://{SITE}/admin/login/"
