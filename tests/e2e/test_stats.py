"""统计 at 360 x 780 on the demo group (three evenings): reached from home in one tap, every table fits the
phone without scrolling sideways, in Chinese and in English, light and dark. Screenshots:
/tmp/sczmj-group-stats-*.png and /tmp/sczmj-group-stats-en-*.png; a range of one day narrows every table
(/tmp/sczmj-group-stats-range-*.png)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import Page, expect

from ledger import demo
from tests.e2e.test_accounts import PHONE, fits_the_phone, switch_to_english
from tests.e2e.test_pages import photograph

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "zh-CN", "device_scale_factor": 2}


def tables_fit(page: Page) -> None:
    """With four players no table needs its own sideways scroll either."""
    boxes = "[...document.querySelectorAll('.statsscroll')]"
    overflowing = page.evaluate(f"{boxes}.filter(box => box.scrollWidth > box.clientWidth).length")
    assert overflowing == 0


def test_the_demo_groups_statistics_read_on_a_phone(phone_page: Page, live_server, settings):
    settings.DEBUG = True  # load_demo runs in development mode only
    call_command("load_demo")
    page = phone_page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/login/")
    page.locator("input[name=username]").fill(demo.USERNAME)
    page.locator("input[name=password]").fill(demo.PASSWORD)
    page.get_by_role("button", name="登录").click()
    page.get_by_role("link", name="统计").click()

    expect(page.locator("h1")).to_have_text(f"统计 · {demo.GROUP}")
    standings = page.locator(".statstable--standings tbody tr")
    expect(standings).to_have_count(1 + len(demo.EARLIER))  # the two earlier Fridays and tonight
    expect(standings.first).to_contain_text(demo.EARLIER[0][0])
    expect(page.locator(".statstable--players")).to_contain_text("点炮")
    expect(page.locator(".chartfig svg .chart-line")).to_have_count(len(demo.PLAYERS) * 2)  # lines, legend
    expect(page.locator("#biggest .bighands li")).to_have_count(len(demo.PLAYERS))
    expect(page.locator("#biggest")).to_contain_text("龙七对")  # a biggest hand scored from its tiles
    photograph(page, "group-stats")
    fits_the_phone(page)
    tables_fit(page)

    # every table follows the period: tonight's day alone is tonight's evening (the others were weeks ago)
    tonight = timezone.localdate().isoformat()
    page.locator(".periodrange input[name=from]").fill(tonight)
    page.locator(".periodrange input[name=to]").fill(tonight)
    page.get_by_role("button", name="看这几天").click()
    expect(standings).to_have_count(1)
    expect(page.locator(".periodrange input[name=from]")).to_have_value(tonight)
    photograph(page, "group-stats-range")
    fits_the_phone(page)
    tables_fit(page)

    switch_to_english(page)
    expect(page.locator("h1")).to_have_text(f"Statistics · {demo.GROUP}")
    expect(page.locator(".statstable--players")).to_contain_text("Deal-ins (点炮)")
    photograph(page, "group-stats-en")
    fits_the_phone(page)
    tables_fit(page)

    # back on the group page, its standings lead here again
    page.get_by_role("link", name="Back to the group").click()
    more = page.get_by_role("link", name="More statistics")
    more.scroll_into_view_if_needed()
    photograph(page, "group-stats-link", full_page=False)
    more.click()
    expect(page.locator("h1")).to_have_text(f"Statistics · {demo.GROUP}")
