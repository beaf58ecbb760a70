"""走势 at 360 x 780 on the demo evening: reached from the session page's header, the chart drawn with a
line per player, the table beside it, the biggest hands; no horizontal scroll, no console error or CSP
violation (``phone_page``); Chinese and English, light and dark. Screenshots: /tmp/sczmj-session-chart-*.png
and /tmp/sczmj-session-chart-en-*.png."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from ledger import selectors
from ledger.models import Session
from tests.e2e.test_accounts import PHONE, fits_the_phone, switch_to_english
from tests.e2e.test_pages import photograph

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "zh-CN", "device_scale_factor": 2}


@pytest.fixture
def demo(transactional_db, settings):
    settings.DEBUG = True  # load_demo runs in development mode only
    call_command("load_demo")
    return Session.objects.get(name="第一场")


def log_in_as_demo(page: Page, base: str) -> None:
    page.goto(f"{base}/login/")
    page.locator("input[name=username]").fill("demo")
    page.locator("input[name=password]").fill("demo-sczmj")
    page.get_by_role("button", name="登录").click()
    page.wait_for_load_state()


def test_the_demo_evenings_trends_from_the_session_page(phone_page: Page, live_server, demo):
    page = phone_page
    page.set_viewport_size(PHONE)
    log_in_as_demo(page, live_server.url)
    page.goto(f"{live_server.url}/sessions/{demo.pk}/")
    fits_the_phone(page)  # the header's links wrap rather than push the page sideways
    page.locator(".entryhead__tools").get_by_role("link", name="走势").click()
    expect(page.locator("h1")).to_contain_text("走势 · 第一场")
    chart = page.locator("svg.chart")
    expect(chart).to_have_attribute("aria-label", "每手累计走势")
    expect(chart.locator("polyline")).to_have_count(4)
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    totals = [seat.points for seat in selectors.session_totals(demo).seats]
    last_row = page.locator(".handtable tbody tr").last.locator("td").all_inner_texts()
    assert [int(text.replace("−", "-").replace("+", "")) for text in last_row] == totals
    expect(page.locator(".bighands li")).to_have_count(5)
    expect(page.locator(".bighands li").first).to_contain_text("小王 · 自摸")
    fits_the_phone(page)
    photograph(page, "session-chart")

    switch_to_english(page)
    expect(page.locator("h1")).to_contain_text("Trends")
    expect(page.locator(".bighands li").first).to_contain_text("self-draw")
    fits_the_phone(page)
    photograph(page, "session-chart-en")
    # English words are longer: the session page's header still fits, its links wrapping under the title
    page.goto(f"{live_server.url}/sessions/{demo.pk}/")
    expect(page.locator(".entryhead__tools").get_by_role("link", name="Trends")).to_be_visible()
    fits_the_phone(page)


def test_the_settle_up_page_leads_to_the_trends_and_back(phone_page: Page, live_server, demo):
    page = phone_page
    page.set_viewport_size(PHONE)
    log_in_as_demo(page, live_server.url)
    page.goto(f"{live_server.url}/sessions/{demo.pk}/settle/")
    page.locator(".histnav").get_by_role("link", name="走势").click()
    expect(page.locator("svg.chart")).to_be_visible()
    page.locator(".histnav").get_by_role("link", name="结算").click()
    expect(page.locator("h1")).to_contain_text("结算")
