"""A forgotten password by mail, when mail is configured (docs/security.md, "A forgotten password"), and
the account's e-mail address it is mailed to, sent to Django's locmem outbox."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

from tests.ledger.conftest import make_user

NEW = "a-brand-new-pass-phrase"
ADDRESS = "xiaoli@example.org"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def mail_on(settings):
    settings.MAILERS = {"default": {"BACKEND": LOCMEM}}
    settings.RESET_BY_MAIL = True
    cache.clear()  # the throttles' counts
    yield
    cache.clear()


def with_address(username: str, email: str = ADDRESS):
    user = make_user(username)
    user.email = email
    user.save()
    return user


def ask(email: str, language: str = "zh-hans", **extra):
    return Client(HTTP_ACCEPT_LANGUAGE=language).post("/password/forgot/", {"email": email}, **extra)


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group()


@pytest.mark.django_db
def test_the_mail_goes_to_the_accounts_address_with_a_link_that_sets_a_new_password_once(mail_on):
    with_address("xiaoli")
    login = Client().get("/login/").content.decode()
    assert 'href="/password/forgot/"' in login and "忘记密码？" in login
    assert "邮箱地址" in Client().get("/password/forgot/").content.decode()  # named as on the account page

    asked = ask(ADDRESS.upper())  # Django matches the address whatever its case
    assert asked.status_code == 302 and asked["Location"] == "/password/forgot/sent/"
    [message] = mail.outbox
    assert message.to == [ADDRESS]
    assert "xiaoli" in message.body and "3 天" in message.body
    link = link_in(message)
    assert link.startswith("http://testserver/reset/")

    client = Client()
    form = client.get(link.removeprefix("http://testserver"), follow=True)
    assert form.context["validlink"]
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == "/login/"
    assert get_user_model().objects.get(username="xiaoli").check_password(NEW)
    assert not Client().get(link.removeprefix("http://testserver"), follow=True).context["validlink"]


@pytest.mark.django_db
def test_the_mail_is_in_the_askers_language(mail_on):
    with_address("xiaoli")
    ask(ADDRESS, language="en")
    [message] = mail.outbox
    assert message.subject == "Set a new password for 川麻计分"
    assert "for 3 days" in message.body and "do nothing" in message.body


@pytest.mark.django_db
def test_an_unknown_address_gets_the_same_answer_and_no_mail(mail_on):
    with_address("xiaoli")
    known, unknown = ask(ADDRESS), ask("nobody@example.org")
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert [message.to for message in mail.outbox] == [[ADDRESS]]
    sent = Client().get(unknown["Location"]).content.decode()
    assert "如果有账号使用这个邮箱" in sent


@pytest.mark.django_db
def test_two_accounts_sharing_an_address_each_get_a_mail(mail_on):
    with_address("xiaoli")
    with_address("amei")
    ask(ADDRESS)
    assert sorted(re.search(r"账号 (\w+)", m.body).group(1) for m in mail.outbox) == ["amei", "xiaoli"]


@pytest.mark.django_db
def test_without_mail_settings_there_is_no_link_and_no_page(settings):
    settings.RESET_BY_MAIL = False
    with_address("xiaoli")
    assert "/password/forgot/" not in Client().get("/login/").content.decode()
    assert Client().get("/password/forgot/").status_code == 404
    assert ask(ADDRESS).status_code == 404
    assert Client().get("/password/forgot/sent/").status_code == 404
    assert mail.outbox == []


@pytest.mark.django_db
def test_one_address_is_mailed_three_times_an_hour_whoever_asks(mail_on):
    with_address("xiaoli")
    answers = [ask(ADDRESS, REMOTE_ADDR=f"10.0.0.{n}").status_code for n in range(4)]
    assert answers == [302, 302, 302, 429]
    assert len(mail.outbox) == 3
    assert ask("other@example.org", REMOTE_ADDR="10.0.0.9").status_code == 302  # another address is not


@pytest.mark.django_db
def test_one_client_asks_ten_times_an_hour_known_address_or_not(mail_on):
    answers = [ask(f"guess-{n}@example.org", language="en").status_code for n in range(11)]
    assert answers == [302] * 10 + [429]
    assert "Too many reset mails" in ask("guess-x@example.org", language="en").content.decode()


@pytest.mark.django_db
def test_the_account_page_sets_changes_and_clears_the_address():
    user = make_user("xiaoli")
    client = Client()
    client.force_login(user)
    page = client.get("/password/").content.decode()
    assert 'name="email"' in page and "邮箱" in page
    for given, stored in [
        ("xiaoli@example.org", "xiaoli@example.org"),
        ("li@example.cn", "li@example.cn"),
        ("", ""),
    ]:
        saved = client.post("/password/email/", {"email": given})
        assert saved.status_code == 302 and saved["Location"] == "/password/"
        user.refresh_from_db()
        assert user.email == stored


@pytest.mark.django_db
def test_a_malformed_address_is_refused_in_the_pages_language_and_nothing_stored():
    user = with_address("xiaoli")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    refused = client.post("/password/email/", {"email": "not an address"})
    assert refused.status_code == 400
    assert "Enter a valid email address." in refused.content.decode()
    assert 'name="old_password"' in refused.content.decode()  # the page, whole
    user.refresh_from_db()
    assert user.email == ADDRESS
    assert Client().post("/password/email/", {"email": "x@example.org"}).status_code == 302  # to log in


def test_the_environment_names_the_smtp_server(monkeypatch):
    """EMAIL_HOST and its neighbours become Django's default mailer; without EMAIL_HOST, no reset by mail."""
    import importlib

    import sczmj_site.settings as site_settings

    monkeypatch.setenv("EMAIL_HOST", "smtp.example.org")
    monkeypatch.setenv("EMAIL_HOST_USER", "mahjong@example.org")
    monkeypatch.setenv("EMAIL_USE_TLS", "0")
    options = importlib.reload(site_settings).MAILERS["default"]["OPTIONS"]
    assert options == {
        "host": "smtp.example.org",
        "port": 587,
        "username": "mahjong@example.org",
        "password": "",
        "use_tls": False,
    }
    monkeypatch.delenv("EMAIL_HOST")
    assert not importlib.reload(site_settings).RESET_BY_MAIL
