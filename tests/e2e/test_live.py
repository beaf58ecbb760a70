"""Two logged-in phones on one session page, each its own browser context (its own cookies, its own
htmx): what one records, the other shows within 3 s without a reload, unless that other phone is in the
middle of entering an event, which the poll never disturbs. Three phones at once: the scorekeeper's, a
member's and a viewer's who opened the link read back from the invite page's QR code. A hidden page does
not poll.

Every page fails the test on any console error or CSP violation. Screenshots: /tmp/sczmj-live-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from ledger import services
from ledger.models import Role, Round
from tests.e2e.conftest import Phones, assert_polls_only_while_visible
from tests.e2e.test_invites import decoded_qr
from tests.e2e.test_pages import choose, photograph, tick
from tests.ledger.conftest import make_table, make_user

pytestmark = pytest.mark.e2e

FOLLOWS_WITHIN_MS = 3000


@pytest.fixture
def table(transactional_db: Any) -> dict[str, Any]:
    owner = make_user("owner")
    group, session = make_table(owner)
    keeper = make_user("keeper")
    invitation = services.member_invite(actor=owner, group=group, username="keeper", role=Role.SCOREKEEPER)
    services.invitation_accept(actor=keeper, invitation=invitation)
    return {
        "owner": owner,
        "keeper": keeper,
        "group": group,
        "session": session,
        "path": reverse("session-page", args=[session.pk]),
    }


def record(page: Page) -> None:
    page.locator(".entrybar__record").click()


def test_a_hand_recorded_on_one_phone_shows_on_the_other_within_3_seconds(phones: Phones, table):
    keeper = phones.open(table["keeper"], table["path"])
    watcher = phones.open(table["owner"], table["path"])
    seats = watcher.locator("#entry-seats .seat__total")
    expect(seats.nth(1)).to_have_text("0")

    choose(keeper, "ev_type", "kong")
    choose(keeper, "kong_player", "1")
    choose(keeper, "kong_kind", "concealed")  # the third tap records it
    expect(keeper.locator("#entry-seats .seat__total").nth(1)).to_have_text("+6")
    expect(seats.nth(1)).to_have_text("+6", timeout=FOLLOWS_WITHIN_MS)
    expect(watcher.locator("#entry-history")).to_contain_text("暗杠")

    # 一炮多响 (小王 discards: 小李 清一色, 阿美 平胡), then 老张 self-draws: the hand is over.
    choose(keeper, "ev_type", "win")
    tick(keeper, "winner_1")
    tick(keeper, "winner_2")
    choose(keeper, "win_how", "discard:0")
    keeper.locator(".winner--1 label:has(input[value='qing_yi_se']) span").click()
    record(keeper)
    expect(keeper.locator("input[name='winner_1']")).to_be_disabled()
    expect(watcher.locator("#entry-seats .seat--won")).to_have_count(2, timeout=FOLLOWS_WITHIN_MS)
    expect(watcher.locator("input[name='winner_1']")).to_be_disabled()  # its entry follows the hand too
    choose(keeper, "ev_type", "win")
    tick(keeper, "winner_3")
    choose(keeper, "win_how", "self_draw")
    record(keeper)
    expect(keeper.locator(".endcard")).to_contain_text("三家已胡")
    assert Round.objects.filter(session=table["session"]).count() == 1

    expect(watcher.locator(".endcard")).to_contain_text("第 1 手结束", timeout=FOLLOWS_WITHIN_MS)
    expect(watcher.locator("#entry-head")).to_contain_text("第 2 手 · 庄 小李")
    assert [seats.nth(seat).inner_text() for seat in range(4)] == [
        keeper.locator("#entry-seats .seat__total").nth(seat).inner_text() for seat in range(4)
    ]
    assert watcher.evaluate("window.__sameDocument") is True
    photograph(watcher, "live-member-end")
    watcher.locator(".langswitch button").click()
    expect(watcher.locator("#entry-head")).to_contain_text("Hand 2")
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(watcher, "live-member-en")


def shown_on_both_within_3_seconds(member: Page, viewer: Page, seat: int, total: str) -> None:
    """Both phones show ``total`` on ``seat`` within 3 s of now: one clock for the two, so the second phone
    does not get the time the first one took on top of its own."""
    deadline = time.monotonic() + FOLLOWS_WITHIN_MS / 1000
    for where in (member.locator("#entry-seats .seat__total"), viewer.locator(".live__seats .seat__total")):
        left_ms = max(1, round((deadline - time.monotonic()) * 1000))  # 0 would mean no timeout at all
        expect(where.nth(seat)).to_have_text(total, timeout=left_ms)


def test_three_phones_follow_one_table_one_from_the_invite_qr_code(phones: Phones, table):
    """Issue 9's "a second and a third browser follow a session live from a QR/link": the scorekeeper makes
    a viewer link, the viewer's phone opens what the QR code says, the owner's phone has the session page;
    a kong and then a win on the scorekeeper's show on both others without a reload."""
    keeper = phones.open(table["keeper"], reverse("session-invite", args=[table["session"].pk]))
    keeper.get_by_text("观众：实时看分").click()
    keeper.get_by_role("button", name="生成链接").click()
    [link] = decoded_qr(keeper)
    assert link == keeper.locator(".invite-link__url").input_value() and "/join/" in link
    viewer = phones.open(None, link)
    member = phones.open(table["owner"], table["path"])
    keeper.goto(table["path"])
    expect(viewer.locator(".live__seats .seat__total").nth(1)).to_have_text("0")

    choose(keeper, "ev_type", "kong")
    choose(keeper, "kong_player", "1")
    choose(keeper, "kong_kind", "concealed")  # the third tap records it
    expect(keeper.locator("#entry-seats .seat__total").nth(1)).to_have_text("+6")
    shown_on_both_within_3_seconds(member, viewer, 1, "+6")
    expect(member.locator("#entry-history")).to_contain_text("暗杠")
    expect(viewer.locator(".live__hand")).to_contain_text("本手已记 1 笔")
    expect(viewer.locator(".live__hand .event__title")).to_contain_text("小李")  # what happened, as members
    expect(viewer.locator(".live__hand .event__title")).to_contain_text("暗杠")  # read it

    choose(keeper, "ev_type", "win")  # 一炮多响: 小王 discards, the three others win, the hand is over
    for seat in (1, 2, 3):
        tick(keeper, f"winner_{seat}")
    choose(keeper, "win_how", "discard:0")
    record(keeper)
    expect(keeper.locator(".endcard")).to_be_visible()
    shown_on_both_within_3_seconds(member, viewer, 0, "−5")  # −2 for the kong, −3 for the three wins
    expect(member.locator(".endcard")).to_contain_text("第 1 手结束")
    expect(viewer.locator(".handtable tbody tr")).to_have_count(1)
    totals = [keeper.locator("#entry-seats .seat__total").nth(seat).inner_text() for seat in range(4)]
    assert [member.locator("#entry-seats .seat__total").nth(seat).inner_text() for seat in range(4)] == totals
    assert [viewer.locator(".live__seats .seat__total").nth(seat).inner_text() for seat in range(4)] == totals
    assert member.evaluate("window.__sameDocument") is True
    assert viewer.evaluate("window.__sameDocument") is True
    photograph(viewer, "live-three-viewer")


def test_a_poll_never_resets_an_event_being_entered(phones: Phones, table):
    keeper = phones.open(table["keeper"], table["path"])
    busy = phones.open(table["owner"], table["path"])
    choose(busy, "ev_type", "win")  # half entered: a win, nobody chosen yet
    tick(busy, "winner_2")
    busy.locator(".winner--2 [data-by-tiles] summary").click()  # and the tile picker open
    expect(busy.locator("[data-entry-picker]")).to_be_visible()

    choose(keeper, "ev_type", "kong")
    choose(keeper, "kong_player", "1")
    choose(keeper, "kong_kind", "concealed")
    expect(keeper.locator("#entry-seats .seat__total").nth(1)).to_have_text("+6")
    busy.wait_for_timeout(FOLLOWS_WITHIN_MS + 1000)  # two ticks at least
    assert busy.locator("input[name='ev_type'][value='win']").is_checked()
    assert busy.locator("input[name='winner_2']").is_checked()
    expect(busy.locator("[data-entry-picker]")).to_be_visible()
    expect(busy.locator("#entry-seats .seat__total").nth(1)).to_have_text("0")  # held, not swapped

    # Its own tap finds out that another phone wrote first, and shows the hand as it now stands.
    busy.locator(".winner--2 [data-by-tiles] summary").click()
    choose(busy, "win_how", "self_draw")
    record(busy)
    expect(busy.locator(".entrybar__notice")).to_contain_text("别人先改了这一手")
    expect(busy.locator("#entry-seats .seat__total").nth(1)).to_have_text("+6")
    photograph(busy, "live-member-stale", full_page=False)

    # At rest again, it follows: the keeper's next kong shows by itself.
    choose(keeper, "ev_type", "kong")
    choose(keeper, "kong_player", "2")
    choose(keeper, "kong_kind", "concealed")
    expect(busy.locator("#entry-seats .seat__total").nth(2)).to_have_text("+4", timeout=FOLLOWS_WITHIN_MS)
    assert busy.evaluate("window.__sameDocument") is True


def test_a_hidden_session_page_does_not_poll_and_asks_at_once_when_shown(phones: Phones, table):
    page = phones.open(table["owner"], table["path"])
    assert_polls_only_while_visible(page)


def test_a_viewer_members_page_follows_read_only(phones: Phones, table):
    viewer = make_user("viewer")
    invitation = services.member_invite(
        actor=table["owner"], group=table["group"], username="viewer", role=Role.VIEWER
    )
    services.invitation_accept(actor=viewer, invitation=invitation)
    watcher = phones.open(viewer, table["path"])
    expect(watcher.locator("#entry-form")).to_have_count(0)
    expect(watcher.locator("footer")).to_contain_text("你正在观看")
    keeper = phones.open(table["keeper"], table["path"])
    choose(keeper, "ev_type", "win")  # 一炮多响: 小王 discards, the three others win, the hand is over
    for seat in (1, 2, 3):
        tick(keeper, f"winner_{seat}")
    choose(keeper, "win_how", "discard:0")
    record(keeper)
    expect(watcher.locator(".endcard")).to_contain_text("第 1 手结束", timeout=FOLLOWS_WITHIN_MS)
    expect(watcher.locator(".endcard button")).to_have_count(0)  # nothing for a viewer to tap
    expect(watcher.locator("#entry-seats .seat__total").nth(0)).to_have_text("−3")
    assert watcher.evaluate("window.__sameDocument") is True
    photograph(watcher, "live-viewer-member")
    watcher.locator(".langswitch button").click()
    expect(watcher.locator("footer")).to_contain_text("You are watching")
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(watcher, "live-viewer-member-en")


def test_issue_18_9_a_viewers_board_follows_a_hand_by_its_parts_and_tags_its_winners(phones: Phones, table):
    """Issue 18 #9: the viewer's board says what happened in the hand (小李 暗杠), a winner carries 胡 as
    on the members' pages, and each poll swaps the parts that moved, never the whole board (issue 16)."""
    owner, session = table["owner"], table["session"]
    link = services.invite_create(actor=owner, session=session, role="viewer")
    viewer = phones.open(None, reverse("invite-join", args=[link.token]))
    viewer.evaluate("document.getElementById('live-played').dataset.marked = 'kept'")
    services.hand_event_add(
        actor=owner,
        session=session,
        event={"type": "kong", "player": 1, "kind": "concealed", "tile": "1s"},
        revision=0,
    )
    expect(viewer.locator("#live-hand .event__title")).to_contain_text("暗杠", timeout=FOLLOWS_WITHIN_MS)
    services.hand_event_add(
        actor=owner,
        session=session,
        event={"type": "win", "from": 0, "winners": [{"player": 2, "fan": 2}]},
        revision=1,
    )
    expect(viewer.locator("#live-seats .seat--won .tag--won")).to_have_text("胡", timeout=FOLLOWS_WITHIN_MS)
    expect(viewer.locator("#live-seats .seat--won")).to_contain_text("阿美")
    # the hands played were not sent again: the element this phone marked is the one it still has
    assert viewer.evaluate("document.getElementById('live-played').dataset.marked") == "kept"
    assert viewer.evaluate("window.__sameDocument") is True
    assert viewer.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(viewer, "live-viewer-hand")
    viewer.locator(".langswitch button").click()
    expect(viewer.locator("#live-hand .event__title").first).to_contain_text("Concealed kong")
    assert viewer.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(viewer, "live-viewer-hand-en")
