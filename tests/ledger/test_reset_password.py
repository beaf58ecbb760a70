"""A forgotten password on a home server with no mail: ``sczmj reset_password`` prints a one-time link, and
a group owner makes one for a member from the group page or the API."""

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from ledger import services
from ledger.models import Membership, Role
from tests.ledger.conftest import client_for, make_user
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text

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


# --- an owner's link, from the group page and the API (issue 20 #8: "a one-time link an owner ... makes")


@pytest.fixture
def xiaoli(member_factory):
    return member_factory("xiaoli")


def _membership(group, user):
    return Membership.objects.get(group=group, user=user)


def _reset_link_url(group, user):
    return reverse("group-member-reset-link", args=[group.pk, _membership(group, user).pk])


def test_an_owner_makes_a_members_link_on_the_group_page_and_it_sets_the_password_once(owner, group, xiaoli):
    page = logged_in(owner).get(reverse("group-page", args=[group.pk]))
    assert _reset_link_url(group, xiaoli) in page.content.decode()  # the member's row offers it
    assert _reset_link_url(group, owner) not in page.content.decode()  # one's own row does not
    shown = logged_in(owner).post(_reset_link_url(group, xiaoli))
    assert shown.status_code == 200
    assert "no-store" in shown["Cache-Control"]
    assert "给 xiaoli 设置新密码" in visible_text(shown)
    link = shown.context["link"]
    assert link.startswith("http://testserver/reset/")
    client = Client()
    form = client.get(link.removeprefix("http://testserver"), follow=True)
    assert form.context["validlink"]
    client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert get_user_model().objects.get(username="xiaoli").check_password(NEW)
    assert not Client().get(link.removeprefix("http://testserver"), follow=True).context["validlink"]


def test_the_page_is_in_english_for_an_english_reader(owner, group, xiaoli):
    shown = logged_in(owner).post(_reset_link_url(group, xiaoli), **ENGLISH)
    assert "A new password for xiaoli" in visible_text(shown)


def test_only_an_owner_makes_one_for_a_member_whose_every_group_they_own(owner, group, member_factory):
    keeper = member_factory("keeper", Role.SCOREKEEPER)
    amei = member_factory("amei")
    elsewhere = services.group_create(actor=amei, name="别的组")  # amei owns a group the owner is not in
    assert elsewhere.pk
    password_before = get_user_model().objects.get(username="amei").password
    refusals = [
        (keeper, amei, "你在本组的角色无权执行此操作"),
        (owner, amei, "该成员还在你不是组长的组里"),
        (owner, owner, "你自己的密码请在“修改密码”页面修改"),
    ]
    for actor, target, words in refusals:
        answer = logged_in(actor).post(_reset_link_url(group, target))
        assert answer.status_code == 400
        assert words in visible_text(answer)
        assert "link" not in (answer.context or {})
    staff = member_factory("staff")
    staff.is_staff = True
    staff.save()
    assert "只有服务器管理员" in visible_text(logged_in(owner).post(_reset_link_url(group, staff)))
    assert get_user_model().objects.get(username="amei").password == password_before


def test_the_api_makes_it_too_with_the_same_refusals(owner, group, xiaoli, member_factory):
    url = reverse("ledger:member-reset-link", args=[group.pk, _membership(group, xiaoli).pk])
    made = client_for(owner).post(url)
    assert made.status_code == 201 and made["Cache-Control"] == "no-store"
    assert made.json()["username"] == "xiaoli"
    assert made.json()["url"].startswith("http://testserver/reset/")
    assert parse_datetime(made.json()["expires"]) > timezone.now() + timedelta(days=2)
    keeper = member_factory("keeper", Role.SCOREKEEPER)
    refused = client_for(keeper).post(url)
    assert refused.status_code == 403 and refused.json()["detail_zh"] == "你在本组的角色无权执行此操作。"
    amei = member_factory("amei")
    services.group_create(actor=amei, name="别的组")
    elsewhere = client_for(owner).post(
        reverse("ledger:member-reset-link", args=[group.pk, _membership(group, amei).pk])
    )
    assert elsewhere.status_code == 403 and "only the server's operator" in elsewhere.json()["detail"]
    own = reverse("ledger:member-reset-link", args=[group.pk, _membership(group, owner).pk])
    self_refused = client_for(owner).post(own)
    assert self_refused.status_code == 400 and self_refused.json()["field"] == "member"
