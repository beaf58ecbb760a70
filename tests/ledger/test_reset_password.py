"""A forgotten password on a home server with no mail: ``sczmj reset_password`` prints a one-time link."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from tests.ledger.conftest import make_user

NEW = "a-brand-new-pass-phrase"


def link_for(username: str) -> str:
    out = io.StringIO()
    call_command("reset_password", username, "--base-url", "https://mahjong.example.org", stdout=out)
    return out.getvalue().splitlines()[0]


@pytest.mark.django_db
def test_the_link_sets_a_new_password_once():
    make_user("xiaoli")
    link = link_for("xiaoli")
    assert link.startswith("https://mahjong.example.org/reset/")
    client = Client()
    form = client.get(link.removeprefix("https://mahjong.example.org"), follow=True)
    assert form.status_code == 200 and form.context["validlink"]
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == "/login/"
    assert get_user_model().objects.get(username="xiaoli").check_password(NEW)
    again = Client().get(link.removeprefix("https://mahjong.example.org"), follow=True)
    assert not again.context["validlink"]
    assert "这个链接已经用过或已过期" in again.content.decode()


@pytest.mark.django_db
def test_an_unknown_or_disabled_account_gets_no_link():
    user = make_user("amei")
    user.is_active = False
    user.save()
    for name in ("amei", "nobody"):
        with pytest.raises(CommandError, match="No active account"):
            link_for(name)
    assert get_user_model().objects.get(username="amei").check_password("a-long-pass-phrase")
