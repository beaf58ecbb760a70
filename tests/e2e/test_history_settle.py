"""历史 and 结算 at 360 x 780: the hands of an evening explained, an earlier version on tap, voiding after
a confirmation, correcting in the entry UI, the settle-up with its copy button, closing the session;
Chinese, English once, dark once. Screenshots: /tmp/sczmj-history-*.png, -correct-, -settle-."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from ledger import selectors, services
from ledger.models import Round
from tests.e2e.test_accounts import PASSWORD, PHONE, fits_the_phone, switch_to_english
from tests.e2e.test_evening import choose, open_hand, record, settled, tick, written
from tests.e2e.test_pages import photograph
from tests.ledger.conftest import DRAW_WITH_PIG, make_table
from tests.ledger.test_hand import EVENING, KONG

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "zh-CN", "device_scale_factor": 2}


@pytest.fixture
def evening(transactional_db):
    """Three hands through the hand services: the 血战 evening, a draw with a 花猪, then the evening again,
    the first one corrected once (the kong was an added one)."""
    owner = get_user_model().objects.create_user(username="xiaowang", password=PASSWORD)
    _, session = make_table(owner)
    note = json.dumps({"1": {"pattern": "qing_yi_se", "gen": 0}})  # 小李's 3 fan, as the quick picker says
    for events in (EVENING, DRAW_WITH_PIG["events"], EVENING):
        for index, event in enumerate(events):
            revision = selectors.session_hand_revision(session)
            services.hand_event_add(
                actor=owner,
                session=session,
                event=event,
                revision=revision,
                note=note if index == 2 else None,
            )
    first = Round.objects.get(session=session, position=1)
    added = {**KONG, "kind": "added"}
    services.round_correct(actor=owner, round_=first, body={"dealer": 0, "events": [added, *EVENING[1:]]})
    return owner, session


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/login/")
    page.locator("input[name=username]").fill("xiaowang")
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name="登录").click()
    page.wait_for_load_state()


def test_the_history_explains_voids_and_corrects(phone_page: Page, live_server, evening):
    _, session = evening
    page = phone_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/sessions/{session.pk}/history/")
    expect(page.locator("#hand-3")).to_contain_text("第 3 手")
    expect(page.locator("#hand-1 .badge--corrected")).to_have_text("改过")
    fits_the_phone(page)
    photograph(page, "history-folded")
    open_hand(page, 1)
    page.locator("#hand-1 .histhand__earlier > summary").click()
    expect(page.locator("#hand-1 .histversion")).to_contain_text("记录")
    photograph(page, "history")

    # 作废 hand 2 after the confirmation: it is struck through and the totals no longer count it
    open_hand(page, 2)
    page.locator("#hand-2 .histhand__void > summary").click()
    page.locator("#hand-2").get_by_role("button", name="作废第 2 手").click()
    expect(page.locator("#hand-2 .badge--voided")).to_have_text("作废")
    expect(page.locator(".notice")).to_contain_text("第 2 手已作废")
    expected = [seat.points for seat in selectors.session_totals(session).seats]
    shown = page.locator(".histtotals .signed").all_inner_texts()
    assert [int(text.replace("−", "-").replace("+", "")) for text in shown] == expected

    # 更正 hand 3 in the entry: undo its self-draw, enter it again as a 清一色 with 1根, and save
    open_hand(page, 3)
    page.locator("#hand-3").get_by_role("link", name="更正").click()
    expect(page.locator("#entry-head")).to_contain_text("更正")
    fits_the_phone(page)
    photograph(page, "correct")
    before = page.locator("#entry-revision").get_attribute("value") or ""
    page.locator("#entry-end button[name='action'][value='undo']").click()  # the finished hand's 撤销
    written(page, before)
    choose(page, "ev_type", "win")
    tick(page, "winner_1")
    choose(page, "win_how", "self_draw")
    choose(page, "pattern_1", "qing_yi_se")
    choose(page, "gen_1", "1")
    settled(page)
    expect(page.locator(".entrybar__preview")).to_contain_text("清一色 3 + 1根 = 4番")
    record(page)
    page.locator("#entry-end").get_by_role("button", name="保存更正").click()
    expect(page.locator(".notice")).to_contain_text("第 3 手已更正")
    corrected = Round.objects.get(session=session, position=3)
    assert corrected.version == 2 and corrected.events[-1]["winners"][0]["fan"] == 4
    expect(page.locator("#hand-3 .badge--corrected")).to_have_text("改过")


def test_the_settle_up_copies_its_summary_and_closes_the_session(phone_page: Page, live_server, evening):
    _, session = evening
    page = phone_page
    page.set_viewport_size(PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/sessions/{session.pk}/settle/")
    expect(page.locator(".settlepay li").first).to_contain_text("→")
    fits_the_phone(page)
    page.get_by_role("button", name="复制总结").click()
    expect(page.locator("[data-copy-status]")).to_have_text("已复制")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("周五麻将 · 第一场") and "结算：" in copied
    photograph(page, "settle")
    page.get_by_role("link", name="本组统计").click()
    expect(page.locator("h1")).to_have_text("统计 · 周五麻将")
    page.go_back()
    page.locator(".settleclose > summary").click()
    page.get_by_role("button", name="结束本场").click()
    expect(page.locator(".notice")).to_contain_text("本场已结束")
    session.refresh_from_db()
    assert not session.is_open


def test_the_pages_in_english_and_dark(phone_page: Page, live_server, evening):
    _, session = evening
    page = phone_page
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/sessions/{session.pk}/history/")
    switch_to_english(page)
    expect(page.locator("#hand-1 .badge--corrected")).to_have_text("Corrected")
    fits_the_phone(page)
    photograph(page, "history-en")
    page.goto(f"{live_server.url}/sessions/{session.pk}/settle/")
    expect(page.get_by_role("heading", name="Who pays whom")).to_be_visible()
    fits_the_phone(page)
    photograph(page, "settle-en")
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server.url}/sessions/{session.pk}/history/")
    fits_the_phone(page)
