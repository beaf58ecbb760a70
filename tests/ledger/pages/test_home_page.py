"""Home: my groups with their open sessions and running totals; a new account walked to its first group."""

from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import Group, Membership, Role
from ledger.selectors import HOME_CARDS
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user, member_join
from tests.ledger.pages.helpers import ENGLISH, errors_of, logged_in, visible_text


def test_a_new_account_is_asked_for_its_first_group(db):
    client = logged_in(make_user("xiaowang"))
    text = visible_text(client.get(reverse("home")))
    assert "第 1 步" in text and "欢迎" in text
    response = client.post(reverse("group-create"), {"name": "周五麻将"})
    group = Group.objects.get(name="周五麻将")
    assert response["Location"] == reverse("session-start", args=[group.pk])
    assert Membership.objects.get(group=group).role == Role.OWNER


def test_a_group_without_a_name_is_a_message_and_nothing_is_stored(db):
    client = logged_in(make_user("xiaowang"))
    for headers, words in (({}, "必填"), (ENGLISH, "required")):
        response = client.post(reverse("group-create"), {"name": "   "}, **headers)
        assert response.status_code == 400
        assert any(words in error for error in errors_of(response))
    too_long = client.post(reverse("group-create"), {"name": "麻" * 101})
    assert any("100" in error for error in errors_of(too_long))
    assert not Group.objects.exists()


def test_home_shows_each_open_session_with_its_running_totals(owner):
    _, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    home = logged_in(owner).get(reverse("home"))
    text = visible_text(home)
    assert "周五麻将" in text and "第一场" in text and "1 手 · 第 2 手进行中" in text
    for name, points in (("小王", "−5"), ("小李", "+15"), ("阿美", "−5"), ("老张", "−5")):
        assert f"{name} {points}" in text
    assert reverse("session-start", args=[session.group_id]) in home.content.decode()


def test_a_viewer_is_not_offered_to_start_a_session(owner):
    group, _ = make_table(owner)
    viewer = make_user("guest")
    member_join(actor=owner, group=group, username="guest", role=Role.VIEWER)
    home = logged_in(viewer).get(reverse("home"))
    assert reverse("session-start", args=[group.pk]) not in home.content.decode()
    assert "观众" in visible_text(home)


def test_the_groups_played_least_recently_are_a_line_each_after_the_cards(owner):
    """A parlour's player in many groups: the HOME_CARDS played in most recently are cards with their open
    sessions' totals, the rest one line each (name, role, a link), so home costs what a dozen cards do."""
    groups = [make_table(owner, group_name=f"第{number}桌")[0] for number in range(HOME_CARDS + 2)]
    home = logged_in(owner).get(reverse("home"))
    text, html = visible_text(home), home.content.decode()
    assert "另外 2 个群组（较久没打）" in text
    oldest, second_oldest, newest = groups[0], groups[1], groups[-1]
    for listed in (oldest, second_oldest):  # a link to the group, no card and no totals
        assert reverse("group-page", args=[listed.pk]) in html
        assert reverse("session-start", args=[listed.pk]) not in html
    assert reverse("session-start", args=[newest.pk]) in html
    assert html.count('class="card groupcard"') == HOME_CARDS
    english = visible_text(logged_in(owner).get(reverse("home"), **ENGLISH))
    assert "2 more groups, played less recently" in english


def test_home_is_for_logged_in_players(db):
    assert Client().get(reverse("home"))["Location"] == f"{reverse('login')}?next={reverse('home')}"


def test_issue_18_13_the_installed_app_opens_tonight_s_session_else_home_else_the_calculator(owner, client):
    """The manifest's start_url (/app/): the calculator with nobody logged in, home with no session
    tonight, and tonight's open session once one is started (issue 18, point 13)."""
    assert client.get(reverse("app-start"))["Location"] == reverse("calculator-page")
    me = logged_in(owner)
    assert me.get(reverse("app-start"))["Location"] == reverse("home")
    _, session = make_table(owner)
    assert me.get(reverse("app-start"))["Location"] == reverse("session-page", args=[session.pk])
    services.session_close(actor=owner, session=session)
    assert me.get(reverse("app-start"))["Location"] == reverse("home")
