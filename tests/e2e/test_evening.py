"""The whole evening of issue 8 on a 360 x 780 touch screen, as a new user lives it.

Sign up, create a group of four, start a session; record three 血战 hands on the session page (a kong, a
一炮多响, self-draws, a 流局 with a 花猪), reloading in the middle of a hand; correct one hand from the
history, void another; settle up. The page's totals must equal the engine's settlement of the same events
(``settle_round`` of each hand that counts, as it stands after the correction). Once in English, once in
dark mode; every main page photographed to /tmp/sczmj-evening-<page>-{light,dark}.png. ``phone_page``
fails the test on any console error or CSP violation.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import NoReverseMatch, reverse
from playwright.sync_api import Page, expect

from ledger.models import Round, Session
from settlement.engine import settle_round
from tests.e2e.test_accounts import fits_the_phone, sign_up_and_start, switch_to_english
from tests.e2e.test_pages import choose as tap_choice
from tests.e2e.test_pages import photograph
from tests.e2e.test_pages import tick as tap_tick


def open_hand(page: Page, position: int) -> None:
    """History shows each hand as one line: a tap opens its explanation and its 更正 / 作废."""
    fold = page.locator(f"#hand-{position} > details.histhand__fold")
    if fold.get_attribute("open") is None:
        fold.locator("> summary").click()
    expect(fold).to_have_attribute("open", "")


def _has_the_session_page() -> bool:
    try:
        reverse("session-page", args=[1])
    except NoReverseMatch:
        return False
    return True


pytestmark = [
    pytest.mark.e2e,
    # The evening is played on the session page (ledger/pages/session.py, h3's); until it is on main
    # there is no page to play it on. Passed twice against h3-entry's branch (4a69f46) merged in.
    pytest.mark.skipif(not _has_the_session_page(), reason="the session page is not on main yet"),
]
# Eight developers' tests share two cores today: a tap's answer can take more than Playwright's 5 s.
expect.set_options(timeout=20_000)

TOUCH_PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A touch phone of 360 x 780 set to Chinese, as the players' phones are."""
    return {**browser_context_args, "locale": "zh-CN", "device_scale_factor": 2}


def settled(page: Page) -> None:
    """No htmx request in flight. A tap made while a preview is still in flight can be lost today: htmx
    replays a queued submit without its button's action, and the page answers it with the whole entry
    (reported to the entry's owner); a person at the table waits for the preview, so the test does too."""
    expect(page.locator(".htmx-request")).to_have_count(0)


def choose(page: Page, name: str, value: str) -> None:
    tap_choice(page, name, value)
    settled(page)


def tick(page: Page, name: str) -> None:
    tap_tick(page, name)
    settled(page)


def revision(page: Page) -> str:
    return page.locator("#entry-revision").get_attribute("value") or ""


def written(page: Page, before: str) -> None:
    """Wait for the answer to a write (its new revision): the next taps must not race the form's reset."""
    expect(page.locator("#entry-revision")).not_to_have_attribute("value", before)


def record(page: Page) -> None:
    before = revision(page)
    page.locator(".entrybar__record").click()
    written(page, before)


def signed_numbers(page: Page, selector: str) -> list[int]:
    return [int(text.replace("−", "-").replace("+", "")) for text in page.locator(selector).all_inner_texts()]


def next_hand(page: Page, number: int) -> None:
    page.locator("#entry-end button[name='action'][value='next']").click()
    expect(page.locator("#entry-head")).to_contain_text(f"第 {number} 手")
    expect(page.locator(".endcard")).to_have_count(0)


def hand_one(page: Page) -> None:
    """小李 暗杠; a reload; 小王 discards to 小李 (清一色) and 阿美 (平胡); 老张 self-draws: three won."""
    page.wait_for_load_state("networkidle")
    before = revision(page)
    choose(page, "ev_type", "kong")
    choose(page, "kong_player", "1")
    choose(page, "kong_kind", "concealed")  # the third tap records the kong
    written(page, before)
    expect(page.locator(".seat__total").nth(1)).to_have_text("+6")
    page.reload()  # in the middle of the hand: the kong is on the server
    expect(page.locator(".seat__total").nth(1)).to_have_text("+6")
    choose(page, "ev_type", "win")
    tick(page, "winner_1")
    tick(page, "winner_2")
    choose(page, "win_how", "discard:0")
    page.locator(".winner--1 label:has(input[value='qing_yi_se']) span").click()
    settled(page)
    expect(page.locator(".entrybar__preview")).to_contain_text("小李 清一色 3 = 3番 ×4")
    photograph(page, "evening-session", full_page=False)
    record(page)
    expect(page.locator("input[name='winner_1']")).to_be_disabled()
    choose(page, "ev_type", "win")
    tick(page, "winner_3")
    choose(page, "win_how", "self_draw")
    record(page)
    expect(page.locator(".endcard")).to_contain_text("三家已胡")
    photograph(page, "evening-end")


def hand_two(page: Page) -> None:
    """流局: 小王 a 花猪, 小李 not ready, 阿美 ready with a 清一色, 老张 ready with a 平胡."""
    choose(page, "ev_type", "draw")
    choose(page, "draw_0", "huazhu")
    choose(page, "draw_1", "not_ready")
    choose(page, "draw_2", "ready")
    page.locator("select[name='drawpattern_2']").select_option("qing_yi_se")
    settled(page)
    choose(page, "draw_3", "ready")
    record(page)
    expect(page.locator(".endcard")).to_be_visible()


def hand_three(page: Page) -> None:
    """Self-draws: 阿美 (对对胡), 小王 (平胡), then 小李 on 老张's discard: three have won."""
    for winner, how, pattern in (
        ("2", "self_draw", "dui_dui_hu"),
        ("0", "self_draw", "ping_hu"),
        ("1", "discard:3", "ping_hu"),
    ):
        choose(page, "ev_type", "win")
        tick(page, f"winner_{winner}")
        choose(page, "win_how", how)
        page.locator(f".winner--{winner} label:has(input[value='{pattern}']) span").click()
        settled(page)
        record(page)
    expect(page.locator(".endcard")).to_be_visible()


def expected_totals(session: Session) -> list[int]:
    """The engine's settlement of the hands that count, each with its events as they stand now."""
    totals = [0, 0, 0, 0]
    for round_ in Round.objects.filter(session=session, voided=False):
        result = settle_round(
            dealer=round_.dealer, void_suits=round_.void_suits, events=round_.events, rules=session.rules
        )
        totals = [total + net for total, net in zip(totals, result.net, strict=True)]
    return totals


def test_a_whole_evening_from_sign_up_to_settle_up(phone_page: Page, live_server):
    page = phone_page
    base = live_server.url
    sign_up_and_start(page, base, "xiaowang", "zh", shots=None)
    session = Session.objects.get(group__memberships__user=get_user_model().objects.get(username="xiaowang"))
    page.goto(f"{base}/sessions/{session.pk}/")
    expect(page.locator("#entry-head")).to_contain_text("第 1 手")
    fits_the_phone(page)

    hand_one(page)
    next_hand(page, 2)
    hand_two(page)
    next_hand(page, 3)
    hand_three(page)
    next_hand(page, 4)
    assert Round.objects.filter(session=session).count() == 3
    assert signed_numbers(page, ".seat__total") == expected_totals(session)

    # 历史: correct hand 3 (小李's win was a 清一色, not a 平胡), void hand 2
    page.get_by_role("link", name="历史").first.click()
    expect(page.locator("#hand-3")).to_contain_text("第 3 手")
    fits_the_phone(page)
    open_hand(page, 3)
    page.locator("#hand-3").get_by_role("link", name="更正").click()
    expect(page.locator("#entry-head")).to_contain_text("更正")
    before = revision(page)
    # The correction opens on the finished hand: its end card's 撤销 takes back the win.
    page.locator("#entry-end button[name='action'][value='undo']").click()
    written(page, before)
    choose(page, "ev_type", "win")
    tick(page, "winner_1")
    choose(page, "win_how", "discard:3")
    page.locator(".winner--1 label:has(input[value='qing_yi_se']) span").click()
    expect(page.locator(".entrybar__preview")).to_contain_text("小李 清一色 3 = 3番 ×4")
    fits_the_phone(page)
    photograph(page, "evening-correct", full_page=False)
    record(page)
    page.locator("#entry-end").get_by_role("button", name="保存更正").click()
    expect(page.locator("#hand-3 .badge--corrected")).to_have_text("改过")
    open_hand(page, 2)
    page.locator("#hand-2 .histhand__void > summary").click()
    page.locator("#hand-2").get_by_role("button", name="作废第 2 手").click()
    expect(page.locator("#hand-2 .badge--voided")).to_have_text("作废")
    photograph(page, "evening-history")
    assert signed_numbers(page, ".histtotals .signed") == expected_totals(session)

    # 结算: the same totals, the fewest transfers, the summary, closing the session
    page.get_by_role("link", name="结算").first.click()
    expect(page.locator(".settlepay li").first).to_contain_text("→")
    fits_the_phone(page)
    assert signed_numbers(page, ".settlenets__points") == expected_totals(session)
    photograph(page, "evening-settle")
    page.locator(".settleclose > summary").click()
    page.get_by_role("button", name="结束本场").click()
    expect(page.locator(".notice")).to_contain_text("本场已结束")

    # once in English and once dark: the history and the settle-up still fit and read right
    switch_to_english(page)
    expect(page.get_by_role("heading", name="Who pays whom")).to_be_visible()
    fits_the_phone(page)
    photograph(page, "evening-settle-en")
    page.emulate_media(color_scheme="dark")
    page.goto(f"{base}/sessions/{session.pk}/history/")
    expect(page.locator("#hand-2 .badge--voided")).to_have_text("Voided")
    fits_the_phone(page)
    assert Round.objects.get(session=session, position=3).version == 2
    assert Round.objects.get(session=session, position=2).voided
