"""Invites in Debian's chromium at 360 px: the 邀请 page with its QR code (decoded as the phone drew it),
a viewer link opened with no account, a revoked link refused in Chinese and in English, and, each phone a
browser context of its own, a viewer following a hand the scorekeeper records on his session page and a
scorekeeper link joining the visitor who signs up with it; the invitations page."""

import io
from typing import Any

import pytest
import zxingcpp
from django.test import Client
from django.urls import reverse
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ledger import services
from ledger.models import Membership, Role, Round
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user

from .conftest import Phones, assert_polls_only_while_visible
from .test_pages import browser_context_args, choose, photograph, tick  # noqa: F401 (the Chinese phone fixture)

pytestmark = pytest.mark.e2e


def log_in(context: BrowserContext, user: Any, base_url: str) -> None:
    """The browser takes over a session opened by Django's test client (the log-in page is not ours)."""
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])


def no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
        "the page scrolls sideways"
    )


def decoded_qr(page: Page) -> list[str]:
    """The QR code as the phone drew it, read back by zxing-cpp."""
    image = Image.open(io.BytesIO(page.locator(".invite-link__qr svg").first.screenshot())).convert("RGB")
    return [result.text for result in zxingcpp.read_barcodes(image)]


def open_refused(context: BrowserContext, url: str, status: int) -> Page:
    """A page answered with an error status: chromium logs that status as a console error, the one error
    allowed here; anything else (a CSP violation, a script error) still fails the test."""
    page = context.new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.goto(url)
    assert response is not None and response.status == status
    page.wait_for_load_state("load")
    assert errors == [f"Failed to load resource: the server responded with a status of {status} (Gone)"]
    return page


@pytest.fixture
def table(transactional_db: Any) -> dict[str, Any]:
    owner = make_user("owner")
    group, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    return {"owner": owner, "group": group, "session": session}


def test_the_invite_page_makes_a_link_with_its_qr_code_and_revokes_it(phone_page: Page, live_server, table):
    page = phone_page
    log_in(page.context, table["owner"], live_server.url)
    page.goto(f"{live_server.url}/sessions/{table['session'].pk}/invite/")
    page.get_by_text("观众：实时看分").click()
    page.get_by_role("button", name="生成链接").click()
    expect(page.locator(".invite-link__qr svg")).to_have_count(1)
    link = page.locator(".invite-link__url").input_value()
    assert "/join/" in link
    assert decoded_qr(page) == [link]
    expect(page.get_by_role("button", name="复制链接")).to_be_visible()
    no_horizontal_scroll(page)
    photograph(page, "invite")
    page.get_by_role("button", name="撤销").click()
    expect(page.locator(".invite-link--revoked")).to_have_count(1)
    gone = open_refused(page.context, link, 410)
    expect(gone.locator("h1")).to_have_text("这个邀请链接已被撤销。")
    no_horizontal_scroll(gone)
    photograph(gone, "invite-revoked")


def test_a_revoked_link_is_refused_in_chinese_and_in_english(browser: Browser, live_server, table):
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="viewer")
    services.invite_revoke(actor=table["owner"], invite=invite)
    words = {"zh-CN": "这个邀请链接已被撤销。", "en-US": "This invite link was revoked."}
    for locale, revoked in words.items():
        context = browser.new_context(locale=locale, viewport={"width": 360, "height": 740})
        gone = open_refused(context, f"{live_server.url}/join/{invite.token}/", 410)
        expect(gone.locator("h1")).to_have_text(revoked)
        expect(gone.locator(".live__seats")).to_have_count(0)  # nothing of the table
        no_horizontal_scroll(gone)
        photograph(gone, f"invite-revoked-{locale[:2]}")
        context.close()


def test_a_viewer_link_opens_the_table_without_an_account(phone_page: Page, live_server, table):
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="viewer")
    page = phone_page
    page.goto(f"{live_server.url}/join/{invite.token}/")
    expect(page.locator(".live__seats .seat")).to_have_count(4)
    expect(page.locator(".handtable tbody tr")).to_have_count(1)
    no_horizontal_scroll(page)
    photograph(page, "watch")
    page.locator(".langswitch button").click()
    expect(page.locator(".live__head p")).to_contain_text("Watching live")
    photograph(page, "watch-en")


def test_a_scorekeeper_link_adds_its_visitor_to_the_group(phones: Phones, table):
    """The owner makes the link on his phone; the visitor opens it on another, signs up and joins."""
    owner = phones.open(table["owner"], f"/sessions/{table['session'].pk}/invite/")
    owner.get_by_text("记分员：加入本组，可以记录每一手").click()
    owner.get_by_role("button", name="生成链接").click()
    link = owner.locator(".invite-link__url").first.input_value()

    visitor = phones.open(None, link)
    expect(visitor.locator("#main").get_by_role("link", name="登录")).to_be_visible()
    no_horizontal_scroll(visitor)
    photograph(visitor, "join-anonymous")
    visitor.locator("#main").get_by_role("link", name="注册").click()
    visitor.locator("input[name=username]").fill("visitor")
    visitor.locator("input[name=password1]").fill("a-long-pass-phrase")
    visitor.locator("input[name=password2]").fill("a-long-pass-phrase")
    visitor.locator("#main button[type=submit]").click()
    visitor.wait_for_url(f"**{link.removeprefix(phones.base_url)}")  # back at the link, logged in
    assert not Membership.objects.filter(user__username="visitor").exists()
    visitor.get_by_role("button", name="以记分员身份加入 周五麻将").click()
    expect(visitor.locator(".invite-done")).to_be_visible()
    photograph(visitor, "join-done")
    membership = Membership.objects.get(user__username="visitor", group=table["group"])
    assert membership.role == Role.SCOREKEEPER
    visitor.goto(reverse("session-page", args=[table["session"].pk]))
    expect(visitor.locator("#entry-form")).to_be_visible()  # a scorekeeper now: he can record


def test_the_invitations_page_lets_the_account_asked_join(phone_page: Page, live_server, table):
    friend = make_user("friend")
    services.member_invite(actor=table["owner"], group=table["group"], username="friend", role="viewer")
    page = phone_page
    log_in(page.context, friend, live_server.url)
    page.goto(f"{live_server.url}/invitations/")
    expect(page.locator(".invitation")).to_have_count(1)
    no_horizontal_scroll(page)
    photograph(page, "invitations")
    page.get_by_role("button", name="加入").click()
    expect(page.locator(".invitation")).to_have_count(0)
    assert Membership.objects.filter(user=friend, group=table["group"]).exists()


def test_a_viewer_sees_a_hand_recorded_on_another_phone_within_3_seconds(phones: Phones, table):
    """Two browser contexts: the scorekeeper records on his session page; the viewer's never reloads."""
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="viewer")
    viewer = phones.open(None, f"/join/{invite.token}/")
    expect(viewer.locator(".handtable tbody tr")).to_have_count(1)

    keeper = phones.open(table["owner"], reverse("session-page", args=[table["session"].pk]))
    choose(keeper, "ev_type", "win")  # 一炮多响: 小王 discards, the three others win, the hand is over
    for seat in (1, 2, 3):
        tick(keeper, f"winner_{seat}")
    choose(keeper, "win_how", "discard:0")
    keeper.locator(".entrybar__record").click()
    expect(keeper.locator(".endcard")).to_be_visible()
    assert Round.objects.filter(session=table["session"]).count() == 2

    expect(viewer.locator(".handtable tbody tr")).to_have_count(2, timeout=3000)
    assert viewer.evaluate("window.__sameDocument") is True
    expect(viewer.locator(".live__seats .seat").nth(0)).to_contain_text("−8")  # −5 before, −3 now
    photograph(viewer, "watch-live")

    services.invite_revoke(actor=table["owner"], invite=invite)
    expect(viewer.locator(".invite-gone h1")).to_have_text("这个邀请链接已被撤销。", timeout=3000)


def test_a_hidden_page_does_not_poll(phone_page: Page, live_server, table):
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="viewer")
    page = phone_page
    page.goto(f"{live_server.url}/join/{invite.token}/")
    assert_polls_only_while_visible(page)


def test_the_group_page_shows_its_links_and_leads_to_making_one(phone_page: Page, live_server, table):
    page = phone_page
    log_in(page.context, table["owner"], live_server.url)
    page.goto(f"{live_server.url}/groups/{table['group'].pk}/")
    invites = page.locator("#invites")
    expect(invites).to_contain_text("目前没有可用的链接。")
    invites.get_by_role("link", name="为“第一场”生成链接").click()
    page.get_by_text("观众：实时看分").click()
    page.get_by_role("button", name="生成链接").click()
    link = page.locator(".invite-link__url").input_value()

    page.goto(f"{live_server.url}/groups/{table['group'].pk}/")
    expect(invites.locator(".invite-link")).to_have_count(1)
    expect(invites.locator(".invite-link__url")).to_have_value(link)
    invites.get_by_text("显示二维码").click()
    assert decoded_qr(page) == [link]
    no_horizontal_scroll(page)
    photograph(page, "group-invites")
    page.locator(".langswitch button").click()
    expect(page.locator("#invites h2")).to_have_text("Invite links")
    no_horizontal_scroll(page)
    photograph(page, "group-invites-en")

    page.locator("#invites .invite-revoke").click()
    page.wait_for_url(f"**/groups/{table['group'].pk}/#invites")
    expect(page.locator("#invites .invite-link")).to_have_count(0)
    gone = open_refused(page.context, link, 410)
    expect(gone.locator("h1")).to_have_text("This invite link was revoked.")  # the language chosen above
