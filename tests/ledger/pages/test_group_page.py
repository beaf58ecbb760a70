"""The group page: sessions with each player's net, standings, players added inline, members and roles;
every refusal a message on the page, nothing stored."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Membership, Player, Role, SessionInvite
from tests.ledger.conftest import (
    DIRECT_KONG,
    SELF_DRAW_B,
    make_table,
    make_user,
    member_join,
    queries_as_the_group_grows,
)
from tests.ledger.pages.helpers import ENGLISH, errors_of, logged_in, visible_text


@pytest.fixture
def client(owner):
    return logged_in(owner)


def test_sessions_newest_first_with_each_players_net_and_the_standings(owner, client):
    group, first = make_table(owner)
    services.round_record(actor=owner, session=first, body=SELF_DRAW_B)
    services.session_close(actor=owner, session=first)
    players = list(Player.objects.filter(group=group).order_by("id"))
    second = services.session_start(
        actor=owner, group=group, name="第二场", player_ids=[p.pk for p in players]
    )
    services.round_record(actor=owner, session=second, body=DIRECT_KONG)
    text = visible_text(client.get(reverse("group-page", args=[group.pk])))
    assert text.index("第二场") < text.index("第一场")
    assert "小王 0 小李 −2 阿美 +2 老张 0" in text  # 第二场: the direct kong
    assert "小王 −5 小李 +15 阿美 −5 老张 −5" in text  # 第一场: the self-draw
    standings = text[text.index("积分榜") :]
    assert standings.index("小李") < standings.index("阿美") < standings.index("小王")
    assert "+13" in standings and "−3" in standings


def test_a_player_is_added_by_name_inline(owner, client):
    group, _ = make_table(owner)
    response = client.post(reverse("group-player-add", args=[group.pk]), {"name": "  小美 "}, follow=True)
    assert Player.objects.filter(group=group, name="小美").exists()
    assert "小美" in visible_text(response)


@pytest.mark.parametrize(
    ("name", "chinese", "english"),
    [
        pytest.param("小王", "已有名为 小王 的玩家", "already a player called 小王", id="taken"),
        pytest.param("", "必填", "required", id="empty"),
        pytest.param("长" * 51, "50", "50", id="too-long"),
    ],
)
def test_a_refused_player_is_a_message_and_nothing_is_stored(owner, client, name, chinese, english):
    group, _ = make_table(owner)
    for headers, words in (({}, chinese), (ENGLISH, english)):
        response = client.post(reverse("group-player-add", args=[group.pk]), {"name": name}, **headers)
        assert response.status_code == 400
        assert any(words in error for error in errors_of(response)), errors_of(response)
    assert Player.objects.filter(group=group).count() == 4


def test_a_viewer_sees_the_group_but_adding_a_player_is_refused(owner):
    group, _ = make_table(owner)
    viewer = make_user("guest")
    member_join(actor=owner, group=group, username="guest", role=Role.VIEWER)
    client = logged_in(viewer)
    page = client.get(reverse("group-page", args=[group.pk]))
    assert reverse("group-player-add", args=[group.pk]) not in page.content.decode()
    response = client.post(reverse("group-player-add", args=[group.pk]), {"name": "小美"})
    assert response.status_code == 400
    assert any("角色" in error for error in errors_of(response))
    assert not Player.objects.filter(name="小美").exists()


def test_the_owner_changes_a_role(owner, client):
    group, _ = make_table(owner)
    make_user("amei")
    member = member_join(actor=owner, group=group, username="amei", role=Role.VIEWER)
    response = client.post(
        reverse("group-member-role", args=[group.pk, member.pk]), {"role": Role.SCOREKEEPER}, follow=True
    )
    member.refresh_from_db()
    assert member.role == Role.SCOREKEEPER
    assert "amei 现在是记分员" in visible_text(response)


def test_the_last_owner_cannot_step_down_or_leave(owner, client):
    group, _ = make_table(owner)
    mine = Membership.objects.get(group=group, user=owner)
    for url, data in (
        (reverse("group-member-role", args=[group.pk, mine.pk]), {"role": Role.VIEWER}),
        (reverse("group-member-remove", args=[group.pk, mine.pk]), {}),
    ):
        response = client.post(url, data)
        assert response.status_code == 400
        assert any("至少要有一位组长" in error for error in errors_of(response)), errors_of(response)
        english = client.post(url, data, **ENGLISH)
        assert any("at least one owner" in error for error in errors_of(english))
    mine.refresh_from_db()
    assert mine.role == Role.OWNER


def test_an_unknown_role_is_a_message(owner, client):
    group, _ = make_table(owner)
    mine = Membership.objects.get(group=group, user=owner)
    response = client.post(reverse("group-member-role", args=[group.pk, mine.pk]), {"role": "king"})
    assert response.status_code == 400
    assert errors_of(response)
    mine.refresh_from_db()
    assert mine.role == Role.OWNER


def test_the_owner_removes_a_member_and_a_scorekeeper_may_not(owner, client):
    group, _ = make_table(owner)
    keeper = make_user("keeper")
    member_join(actor=owner, group=group, username="keeper", role=Role.SCOREKEEPER)
    make_user("amei")
    amei = member_join(actor=owner, group=group, username="amei", role=Role.VIEWER)
    refused = logged_in(keeper).post(reverse("group-member-remove", args=[group.pk, amei.pk]))
    assert refused.status_code == 400
    assert Membership.objects.filter(pk=amei.pk).exists()
    client.post(reverse("group-member-remove", args=[group.pk, amei.pk]))
    assert not Membership.objects.filter(pk=amei.pk).exists()


def test_another_groups_page_is_not_found(owner):
    group, _ = make_table(owner)
    stranger = logged_in(make_user("stranger"))
    assert stranger.get(reverse("group-page", args=[group.pk])).status_code == 404
    assert stranger.post(reverse("group-player-add", args=[group.pk]), {"name": "x"}).status_code == 404
    assert stranger.get(reverse("session-start", args=[group.pk])).status_code == 404


# --- invite links ---------------------------------------------------------------------------------------


def test_the_group_page_shows_the_links_that_still_work_and_where_to_make_one(owner, client):
    group, session = make_table(owner)
    viewing = services.invite_create(actor=owner, session=session, role="viewer")
    keeping = services.invite_create(actor=owner, session=session, role="scorekeeper")
    revoked = services.invite_revoke(
        actor=owner, invite=services.invite_create(actor=owner, session=session, role="viewer")
    )
    expired = services.invite_create(actor=owner, session=session, role="viewer")
    SessionInvite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    page = client.get(reverse("group-page", args=[group.pk]))
    html = page.content.decode()
    for working in (viewing, keeping):
        assert f"/join/{working.token}/" in html
    for gone in (revoked, expired):
        assert gone.token not in html
    assert html.count('class="qr"') == 2, "each working link with its QR code"
    invites = visible_text(page)[visible_text(page).index("邀请链接") :]
    assert "记分员 · 第一场" in invites and "观众 · 第一场" in invites
    assert reverse("session-invite", args=[session.pk]) in html
    assert "为“第一场”生成链接" in invites
    english = visible_text(client.get(reverse("group-page", args=[group.pk]), **ENGLISH))
    assert "Invite links" in english and "Make a link to 第一场" in english


def test_with_no_open_session_the_group_page_says_how_to_get_a_link(owner, client):
    group, session = make_table(owner)
    services.session_close(actor=owner, session=session)
    text = visible_text(client.get(reverse("group-page", args=[group.pk])))
    assert "目前没有可用的链接" in text and "先开始今晚的一场" in text


def test_viewers_see_no_links_on_the_group_page(owner):
    group, session = make_table(owner)
    link = services.invite_create(actor=owner, session=session, role="scorekeeper")
    make_user("guest")
    member_join(actor=owner, group=group, username="guest", role=Role.VIEWER)
    html = logged_in(User.objects.get(username="guest")).get(reverse("group-page", args=[group.pk]))
    assert link.token not in html.content.decode() and 'id="invites"' not in html.content.decode()


def test_a_scorekeeper_revokes_his_own_links_from_the_group_page_and_comes_back_to_it(owner):
    group, session = make_table(owner)
    keeper = make_user("keeper")
    member_join(actor=owner, group=group, username="keeper", role=Role.SCOREKEEPER)
    owners_link = services.invite_create(actor=owner, session=session, role="viewer")
    his_link = services.invite_create(actor=keeper, session=session, role="viewer")
    client = logged_in(keeper)
    html = client.get(reverse("group-page", args=[group.pk])).content.decode()
    assert reverse("invite-revoke", args=[his_link.pk]) in html
    assert reverse("invite-revoke", args=[owners_link.pk]) not in html
    response = client.post(reverse("invite-revoke", args=[his_link.pk]), {"back": "group"})
    assert response.status_code == 302
    assert response["Location"] == reverse("group-page", args=[group.pk]) + "#invites"
    his_link.refresh_from_db()
    assert his_link.revoked_at is not None
    elsewhere = client.post(
        reverse("invite-revoke", args=[his_link.pk]), {"back": "https://elsewhere.example"}
    )
    assert elsewhere["Location"] == reverse("session-invite", args=[session.pk])


def test_the_page_costs_the_same_queries_at_10_and_100_sessions(owner, client):
    """谁还欠谁 reads each session's kept transfers (ledger/debts.py) and the sessions come a page at a
    time: the page's queries do not grow with the group's history, before or after a write."""
    group, _first = make_table(owner)
    url = reverse("group-page", args=[group.pk])

    def read():
        assert client.get(url).status_code == 200

    at_ten = queries_as_the_group_grows(owner, group, 10, read)
    assert queries_as_the_group_grows(owner, group, 100, read) == at_ten
