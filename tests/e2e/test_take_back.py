"""撤销 on the end card takes a finished hand back (issue 15 point 5): on one phone the scorekeeper taps it,
and a second phone's totals go back within 3 s without a reload; the round is voided by a reversal version
and verify_ledger stays clean; redo records it again. On /round/ too (one phone: its evening lives in that
phone's own session). In Chinese and English at 360 px.

Screenshots: /tmp/sczmj-takeback-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ledger import integrity
from ledger.models import Round, Session
from tests.e2e.conftest import Phones
from tests.e2e.test_live import FOLLOWS_WITHIN_MS, record, table  # noqa: F401 (the fixture)
from tests.e2e.test_pages import choose, photograph, tick

pytestmark = pytest.mark.e2e


def totals(page: Page) -> list[str]:
    seats = page.locator("#entry-seats .seat__total")
    return [seats.nth(seat).inner_text() for seat in range(4)]


def play_to_the_end(keeper: Page) -> None:
    """小李 暗杠; 小王 discards to 小李 (清一色) and 阿美; 老张 self-draws: three have won."""
    choose(keeper, "ev_type", "kong")
    choose(keeper, "kong_player", "1")
    choose(keeper, "kong_kind", "concealed")
    expect(keeper.locator("#entry-seats .seat__total").nth(1)).to_have_text("+6")
    choose(keeper, "ev_type", "win")
    tick(keeper, "winner_1")
    tick(keeper, "winner_2")
    choose(keeper, "win_how", "discard:0")
    keeper.locator(".winner--1 label:has(input[value='qing_yi_se']) span").click()
    record(keeper)
    expect(keeper.locator("input[name='winner_1']")).to_be_disabled()


@pytest.mark.parametrize(
    ("locale", "over", "undo"), [("zh-CN", "第 1 手结束", "撤销"), ("en", "Hand 1 is over", "Undo")]
)
def test_undo_on_the_end_card_takes_the_hand_back_on_every_phone(phones: Phones, table, locale, over, undo):  # noqa: F811
    keeper = phones.open(table["keeper"], table["path"], locale=locale)
    watcher = phones.open(table["owner"], table["path"], locale=locale)
    play_to_the_end(keeper)
    before_the_end = totals(keeper)
    choose(keeper, "ev_type", "win")
    tick(keeper, "winner_3")
    choose(keeper, "win_how", "self_draw")
    record(keeper)
    expect(keeper.locator(".endcard")).to_contain_text(over)
    expect(watcher.locator(".endcard")).to_contain_text(over, timeout=FOLLOWS_WITHIN_MS)
    finished = totals(watcher)
    assert finished != before_the_end
    button = keeper.locator(".endcard__undo")
    expect(button).to_contain_text(undo)
    assert button.bounding_box()["height"] >= 44
    photograph(keeper, f"takeback-end-{locale}")

    button.click()
    expect(keeper.locator(".endcard")).to_have_count(0)
    expect(keeper.locator(".redo")).to_be_visible()
    for seat, total in enumerate(before_the_end):
        expect(watcher.locator("#entry-seats .seat__total").nth(seat)).to_have_text(
            total, timeout=FOLLOWS_WITHIN_MS
        )
    assert keeper.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(keeper, f"takeback-reopened-{locale}")
    round_ = Round.objects.get(session=table["session"])
    assert round_.voided and round_.versions.count() == 2
    assert list(integrity.verify_session(Session.objects.get(pk=table["session"].pk))) == []

    keeper.locator(".redo").click()
    expect(keeper.locator(".endcard")).to_contain_text(over)
    for seat, total in enumerate(finished):
        expect(watcher.locator("#entry-seats .seat__total").nth(seat)).to_have_text(
            total, timeout=FOLLOWS_WITHIN_MS
        )
    round_.refresh_from_db()
    assert not round_.voided and round_.version == 3
    assert list(integrity.verify_session(Session.objects.get(pk=table["session"].pk))) == []


@pytest.mark.parametrize(
    ("locale", "over", "undo"), [("zh-CN", "第 1 手结束", "撤销"), ("en", "Hand 1 is over", "Undo")]
)
def test_undo_on_the_end_card_takes_the_hand_back_on_the_round_page(phones: Phones, locale, over, undo):
    """/round/ keeps its evening in this phone's own session, so there is no second phone to follow: its
    end card's 撤销 takes the finishing event back, the totals return, and 重做 finishes the hand again."""
    phone = phones.open(None, "/round/", locale=locale)
    play_to_the_end(phone)
    before_the_end = totals(phone)
    choose(phone, "ev_type", "win")
    tick(phone, "winner_3")
    choose(phone, "win_how", "self_draw")
    record(phone)
    expect(phone.locator(".endcard")).to_contain_text(over)
    finished = totals(phone)
    assert finished != before_the_end
    button = phone.locator(".endcard__undo")
    expect(button).to_contain_text(undo)
    assert button.bounding_box()["height"] >= 44

    button.click()
    expect(phone.locator(".endcard")).to_have_count(0)
    for seat, total in enumerate(before_the_end):
        expect(phone.locator("#entry-seats .seat__total").nth(seat)).to_have_text(total)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(phone, f"takeback-round-reopened-{locale}")

    phone.locator(".redo").click()
    expect(phone.locator(".endcard")).to_contain_text(over)
    for seat, total in enumerate(finished):
        expect(phone.locator("#entry-seats .seat__total").nth(seat)).to_have_text(total)
