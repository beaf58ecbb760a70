"""Invites in Debian's chromium at 360 px: the 邀请 page with its QR code, a viewer link opened with no
account, a revoked link, a scorekeeper link joining its visitor to the group, the invitations page."""

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect
from rest_framework.authtoken.models import Token

from ledger import services
from ledger.models import Membership, Role
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user

from .test_pages import browser_context_args, photograph  # noqa: F401 (the Chinese phone fixture)

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
    page.get_by_text("观看：实时看分").click()
    page.get_by_role("button", name="生成链接").click()
    expect(page.locator(".invite-link__qr svg")).to_have_count(1)
    link = page.locator(".invite-link__url").input_value()
    assert "/join/" in link
    expect(page.get_by_role("button", name="复制链接")).to_be_visible()
    no_horizontal_scroll(page)
    photograph(page, "invite")
    page.get_by_role("button", name="撤销").click()
    expect(page.locator(".invite-link--revoked")).to_have_count(1)
    gone = open_refused(page.context, link, 410)
    expect(gone.locator("h1")).to_have_text("这个邀请链接已被撤销。")
    no_horizontal_scroll(gone)
    photograph(gone, "invite-revoked")


def test_a_viewer_link_opens_the_table_without_an_account(phone_page: Page, live_server, table):
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="viewer")
    page = phone_page
    page.goto(f"{live_server.url}/join/{invite.token}/")
    expect(page.locator(".live__seats .seat")).to_have_count(4)
    expect(page.locator(".live__rounds tbody tr")).to_have_count(1)
    no_horizontal_scroll(page)
    photograph(page, "watch")
    page.locator(".langswitch button").click()
    expect(page.locator(".live__head p")).to_contain_text("Watching live")
    photograph(page, "watch-en")


def test_a_scorekeeper_link_adds_its_visitor_to_the_group(phone_page: Page, live_server, table):
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="scorekeeper")
    page = phone_page
    page.goto(f"{live_server.url}/join/{invite.token}/")
    expect(page.locator("#main").get_by_role("link", name="登录")).to_be_visible()
    no_horizontal_scroll(page)
    photograph(page, "join-anonymous")
    page.locator("#main").get_by_role("link", name="注册").click()
    page.locator("input[name=username]").fill("visitor")
    page.locator("input[name=password1]").fill("a-long-pass-phrase")
    page.locator("input[name=password2]").fill("a-long-pass-phrase")
    page.locator("#main button[type=submit]").click()
    page.wait_for_url(f"**/join/{invite.token}/")  # back at the link, logged in
    assert not Membership.objects.filter(user__username="visitor").exists()
    page.get_by_role("button", name="以记分员身份加入 周五麻将").click()
    expect(page.locator(".invite-done")).to_be_visible()
    photograph(page, "join-done")
    membership = Membership.objects.get(user__username="visitor", group=table["group"])
    assert membership.role == Role.SCOREKEEPER


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


def test_a_viewer_sees_a_hand_recorded_on_another_phone_within_3_seconds(
    phone_page: Page, browser, live_server, table
):
    """Two browser contexts: the scorekeeper's phone records through the API; the viewer's never reloads."""
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="viewer")
    viewer = phone_page
    viewer.goto(f"{live_server.url}/join/{invite.token}/")
    expect(viewer.locator(".live__rounds tbody tr")).to_have_count(1)
    viewer.evaluate("window.__sameDocument = true")  # gone if the page ever reloads

    keeper = browser.new_context(base_url=live_server.url)
    token = Token.objects.get_or_create(user=table["owner"])[0].key
    answer = keeper.request.post(
        f"/api/v1/sessions/{table['session'].pk}/rounds/",
        data=SELF_DRAW_B,
        headers={"Authorization": f"Token {token}", "Idempotency-Key": "second-phone"},
    )
    assert answer.status == 201
    expect(viewer.locator(".live__rounds tbody tr")).to_have_count(2, timeout=3000)
    assert viewer.evaluate("window.__sameDocument") is True
    expect(viewer.locator(".live__seats .seat").nth(1)).to_contain_text("+30")
    photograph(viewer, "watch-live")

    services.invite_revoke(actor=table["owner"], invite=invite)
    expect(viewer.locator(".invite-gone h1")).to_have_text("这个邀请链接已被撤销。", timeout=3000)
    keeper.close()


def test_a_hidden_page_does_not_poll(phone_page: Page, live_server, table):
    invite = services.invite_create(actor=table["owner"], session=table["session"], role="viewer")
    page = phone_page
    page.goto(f"{live_server.url}/join/{invite.token}/")
    polls: list[str] = []
    page.on("request", lambda request: polls.append(request.url) if "/live/" in request.url else None)
    page.wait_for_timeout(2500)
    assert polls, "a visible board polls"
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    polls.clear()
    page.wait_for_timeout(4500)
    assert polls == []
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.wait_for_timeout(500)
    assert polls, "coming back asks at once"
