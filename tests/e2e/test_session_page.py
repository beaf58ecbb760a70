"""The session page at 360 x 780 in Debian's chromium: a hand entered from a phone, kept on the server.

``phone_page`` fails on any console error or CSP violation. Screenshots: /tmp/sczmj-session*-{light,dark}.png.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from ledger.models import Round
from tests.e2e.test_pages import choose, photograph, tick
from tests.ledger.conftest import make_table, make_user

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "zh-CN", "device_scale_factor": 2}


def logged_in(page: Page, live_server, username: str):
    """A phone logged in as a new owner of a group with a session of 小王 小李 阿美 老张."""
    user = make_user(username)
    _group, session = make_table(user)
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(live_server.url + reverse("session-page", args=[session.pk]))
    return session


def record(page: Page) -> None:
    page.locator(".entrybar__record").click()


def test_a_hand_is_kept_on_the_server_across_a_reload(phone_page: Page, live_server):
    page = phone_page
    session = logged_in(page, live_server, "keeper1")
    totals = page.locator(".seat__total")
    expect(page.locator("#entry-head")).to_contain_text("第一场 · 第 1 手 · 庄 小王")
    photograph(page, "session-start")
    choose(page, "ev_type", "kong")
    choose(page, "kong_player", "1")
    choose(page, "kong_kind", "concealed")
    expect(totals.nth(1)).to_have_text("+6")
    page.reload()  # in the middle of the hand
    expect(totals.nth(1)).to_have_text("+6")
    # 一炮多响: 小王 discards, 小李 清一色 and 阿美 平胡.
    choose(page, "ev_type", "win")
    tick(page, "winner_1")
    tick(page, "winner_2")
    choose(page, "win_how", "discard:0")
    page.locator(".winner--1 label:has(input[value='qing_yi_se']) span").click()
    expect(page.locator(".entrybar__preview")).to_contain_text("小李 清一色 3 = 3番 ×4")
    expect(page.locator(".entrybar__preview")).to_contain_text("阿美 平胡 1 = 1番 ×1")
    photograph(page, "session-win", full_page=False)
    record(page)
    expect(page.locator("input[name='winner_1']")).to_be_disabled()
    # 老张 self-draws: the hand is over and the round is stored at once.
    choose(page, "ev_type", "win")
    tick(page, "winner_3")
    choose(page, "win_how", "self_draw")
    record(page)
    expect(page.locator(".endcard")).to_contain_text("三家已胡")
    expect(page.locator(".endcard")).to_be_in_viewport()
    assert Round.objects.filter(session=session).count() == 1
    photograph(page, "session-end")
    page.locator("button[name='action'][value='next']").click()
    expect(page.locator("#entry-head")).to_contain_text("第 2 手 · 庄 小李")
    page.locator(".langswitch button").click()
    expect(page.locator("#entry-head")).to_contain_text("Hand 2")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    photograph(page, "session-en")
