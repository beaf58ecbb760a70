"""结算: each player's net (and coins), the fewest transfers, the plain-text summary, the CSV link,
closing the session after a confirmation; viewers and strangers; Chinese and English."""

import pytest
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Role
from settlement.engine import settle_up
from tests.ledger.conftest import DRAW_WITH_PIG, SELF_DRAW_B, make_table, make_user
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text


@pytest.fixture
def client(owner):
    return logged_in(owner)


def settle(client, session, headers=None):
    return client.get(reverse("session-settle", args=[session.pk]), **(headers or {}))


@pytest.fixture
def played(owner, session):
    for body in (SELF_DRAW_B, DRAW_WITH_PIG):
        services.round_record(actor=owner, session=session, body=body)
    return session


def test_each_net_and_the_fewest_transfers_by_name(client, played):
    page = settle(client, played)
    assert page.status_code == 200
    text = visible_text(page)
    totals = [seat.points for seat in selectors.session_totals(played).seats]
    assert totals == [-53, 32, 15, 6]
    for name, points in zip(("小王", "小李", "阿美", "老张"), ("−53", "+32", "+15", "+6"), strict=True):
        assert f"{name} {points}" in text
    for payment in settle_up(totals):
        names = ("小王", "小李", "阿美", "老张")
        assert f"{names[payment.payer]} → {names[payment.payee]} {payment.amount}" in text


def test_the_summary_to_copy_names_the_group_the_hands_the_nets_and_the_transfers(client, played):
    summary = settle(client, played).context["summary"]
    lines = summary.splitlines()
    assert lines[0].startswith("周五麻将 · 第一场 · ")
    assert lines[1] == "2 手"
    assert "小王 −53" in lines and "结算：" in lines and "小王 → 小李 32" in lines
    english = settle(client, played, ENGLISH).context["summary"].splitlines()
    assert english[1] == "2 hands" and "Settle up:" in english


def test_coins_show_the_balance_and_the_change(client, owner):
    _, session = make_table(owner, coins={"room_coefficient": 100, "starting_balances": [10000] * 4})
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    text = visible_text(settle(client, session))
    assert "小王 −5 游戏币 9500 ( −500 )" in text and "小李 +15 游戏币 11500 ( +1500 )" in text
    assert "游戏币 −500" in settle(client, session).context["summary"]


def test_an_empty_session_is_all_square(client, session):
    text = visible_text(settle(client, session))
    assert "两清" in text


def test_the_csv_link_downloads_the_session(client, played):
    page = settle(client, played)
    response = client.get(page.context["csv_url"])
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")


def test_it_leads_to_the_groups_statistics(client, played):
    """After an evening a player looks here: how it stands over all the group's sessions is one tap on."""
    page = settle(client, played)
    stats = reverse("group-stats", args=[played.group.pk])
    assert f'href="{stats}">本组统计 ›' in page.content.decode()
    assert client.get(stats).status_code == 200
    assert f'href="{stats}">The group\'s statistics ›' in settle(client, played, ENGLISH).content.decode()


def test_closing_the_session_after_the_confirmation(client, played):
    assert "结束本场" in visible_text(settle(client, played))
    response = client.post(reverse("session-close-page", args=[played.pk]))
    assert response.status_code == 303
    played.refresh_from_db()
    assert not played.is_open
    text = visible_text(settle(client, played))
    assert "已结束" in text and "结束本场…" not in text


def test_a_viewer_sees_the_settle_up_but_cannot_close(played, member_factory):
    viewer = logged_in(member_factory("viewer", Role.VIEWER))
    assert "结束本场" not in visible_text(settle(viewer, played))
    response = viewer.post(reverse("session-close-page", args=[played.pk]))
    assert response.status_code == 403 and "无权" in visible_text(response)
    played.refresh_from_db()
    assert played.is_open


def test_another_groups_session_is_not_found(played):
    stranger = make_user("stranger")
    make_table(stranger, group_name="隔壁桌")
    client = logged_in(stranger)
    assert settle(client, played).status_code == 404
    assert client.post(reverse("session-close-page", args=[played.pk])).status_code == 404
    played.refresh_from_db()
    assert played.is_open


def test_the_page_speaks_english_too(client, played):
    text = visible_text(settle(client, played, ENGLISH))
    assert "Who pays whom" in text and "Copy the summary" in text and "Close the session…" in text


def test_issue_18_3_the_close_confirmation_says_the_unfinished_hands_kong_is_dropped(client, played):
    assert "还没打完" not in visible_text(settle(client, played))
    services.hand_event_add(
        actor=played.group.memberships.get(role="owner").user,
        session=played,
        event={"type": "kong", "player": 1, "kind": "concealed"},
        revision=selectors.session_hand_revision(played),
    )
    number = selectors.hand_row(played).number
    zh = visible_text(settle(client, played))
    assert f"第 {number} 手还没打完：本手已记的 1 笔（杠钱也算在内）结束本场时会丢掉" in zh
    en = visible_text(settle(client, played, ENGLISH))
    assert f"Hand {number} is not over: its 1 recorded entry (a kong's money too) is dropped" in en


def _short_loser(owner):
    """SELF_DRAW_B at 100 coins a point: 小王 loses 5 points (500 coins) but holds only 300."""
    _, session = make_table(
        owner, coins={"room_coefficient": 100, "starting_balances": [300, 10000, 10000, 10000]}
    )
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    return session


def test_issue_18_4_with_coins_the_transfers_are_the_coins_that_moved_in_both_languages(client, owner):
    session = _short_loser(owner)
    totals = selectors.session_totals(session)
    changes = [
        seat.coins - start for seat, start in zip(totals.seats, session.starting_balances, strict=True)
    ]
    assert changes[0] == -300  # ran short: paid what they held, not the 500 its points ask
    names = ("小王", "小李", "阿美", "老张")
    in_coins = settle_up([*changes, totals.house_coins] if totals.house_coins else changes)
    in_points = settle_up([seat.points for seat in totals.seats])
    assert {p.amount for p in in_coins} != {p.amount * 100 for p in in_points}  # the two disagree
    for headers, unit, heading in (
        (None, "游戏币", "结算（游戏币）："),
        (ENGLISH, "coins", "Settle up in coins:"),
    ):
        page = settle(client, session, headers)
        text, summary = visible_text(page), page.context["summary"].splitlines()
        for payment in in_coins:
            line = f"{names[payment.payer]} → {names[payment.payee]} {payment.amount} {unit}"
            assert line in text and line in summary
        for payment in in_points:  # the points' transfers are not offered to pay
            assert f"{names[payment.payer]} → {names[payment.payee]} {payment.amount}" not in summary
        assert heading in summary
        score = "得分" if headers is None else "score"
        assert f"小王 {score} −5 · {unit} −300" in summary
