"""Sign up, log in, log out, change the password: Django's forms and validators, messages in the page's
language, nothing stored by a refused form, the header showing who is logged in."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.ledger.conftest import make_user
from tests.ledger.pages.helpers import ENGLISH, errors_of, logged_in, visible_text

PASSWORD = "mahjong-friday-night"


def sign_up(client, username, password1, password2=None, **headers):
    return client.post(
        reverse("sign-up"),
        {"username": username, "password1": password1, "password2": password2 or password1},
        **headers,
    )


def test_signing_up_logs_the_new_account_in_and_goes_home(db):
    client = Client()
    response = sign_up(client, "xiaowang", PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    home = client.get(reverse("home"))
    assert "xiaowang" in visible_text(home)
    assert get_user_model().objects.filter(username="xiaowang").exists()


@pytest.mark.parametrize(
    ("username", "password1", "password2", "chinese", "english"),
    [
        pytest.param("xiaowang", "abc", "abc", "太短", "too short", id="short"),
        pytest.param("xiaowang", "password123", None, "太常见", "too common", id="common"),
        pytest.param("xiaowang", "73915824601", None, "只包含数字", "entirely numeric", id="numeric"),
        pytest.param("xiaowang", PASSWORD, "mahjong-saturday", "不一致", "didn’t match", id="mismatch"),
        pytest.param("", PASSWORD, None, "必填项", "required", id="no-name"),
        pytest.param("xiao wang", PASSWORD, None, "合法的用户名", "valid username", id="space-in-name"),
    ],
)
def test_a_refused_sign_up_says_why_in_the_page_language_and_stores_nothing(
    db, username, password1, password2, chinese, english
):
    for headers, words in (({}, chinese), (ENGLISH, english)):
        response = sign_up(Client(), username, password1, password2, **headers)
        assert response.status_code == 400
        assert any(words in error for error in errors_of(response)), errors_of(response)
    assert not get_user_model().objects.exists()


def test_a_name_taken_in_another_case_is_refused(db):
    make_user("XiaoWang")
    response = sign_up(Client(), "xiaowang", PASSWORD)
    assert response.status_code == 400
    assert any("已存在" in error for error in errors_of(response))
    assert get_user_model().objects.count() == 1


def test_the_page_sign_up_shares_the_api_throttle_of_its_address(db):
    statuses = [sign_up(Client(), f"guest{n}", PASSWORD).status_code for n in range(21)]
    assert statuses[:20] == [302] * 20
    assert statuses[20] == 429
    assert get_user_model().objects.count() == 20


def test_a_wrong_password_is_a_message_and_the_right_one_goes_home(db):
    make_user("laozhang")
    client = Client()
    wrong = client.post(reverse("login"), {"username": "laozhang", "password": "nope"})
    assert wrong.status_code == 200
    assert any("用户名" in error and "密码" in error for error in errors_of(wrong))
    wrong_en = client.post(reverse("login"), {"username": "laozhang", "password": "nope"}, **ENGLISH)
    assert any("correct username and password" in error for error in errors_of(wrong_en))
    right = client.post(reverse("login"), {"username": "laozhang", "password": "a-long-pass-phrase"})
    assert right.status_code == 302
    assert right["Location"] == reverse("home")


def test_an_empty_log_in_names_both_fields(db):
    response = Client().post(reverse("login"), {"username": "", "password": ""})
    assert len([error for error in errors_of(response) if "必填" in error]) == 2


def test_logging_out_takes_a_post_and_ends_the_session(db):
    client = logged_in(make_user("amei"))
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("home"))["Location"].startswith(reverse("login"))


def test_the_header_shows_who_is_logged_in_with_a_log_out(db):
    client = logged_in(make_user("xiaoli"))
    page = client.get(reverse("calculator-page"))
    text = visible_text(page)
    assert "xiaoli" in text and "退出" in text and "首页" in text
    assert f'action="{reverse("logout")}"' in page.content.decode()
    anonymous = visible_text(Client().get(reverse("calculator-page")))
    assert "登录" in anonymous and "退出" not in anonymous


def test_changing_the_password_checks_the_old_one_and_the_validators(db):
    user = make_user("xiaowang")
    client = logged_in(user)
    url = reverse("password-change")
    wrong_old = client.post(url, {"old_password": "x", "new_password1": PASSWORD, "new_password2": PASSWORD})
    assert wrong_old.status_code == 200
    assert any("旧密码" in error for error in errors_of(wrong_old))
    weak = client.post(
        url, {"old_password": "a-long-pass-phrase", "new_password1": "12345678", "new_password2": "12345678"}
    )
    assert any("常见" in error or "数字" in error for error in errors_of(weak))
    user.refresh_from_db()
    assert user.check_password("a-long-pass-phrase")
    done = client.post(
        url,
        {"old_password": "a-long-pass-phrase", "new_password1": PASSWORD, "new_password2": PASSWORD},
        follow=True,
    )
    assert "密码已修改" in visible_text(done)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_pages_of_an_account_send_a_visitor_to_log_in_first(db):
    for name in ("home", "password-change"):
        response = Client().get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
