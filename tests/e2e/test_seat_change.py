"""换人 / 换座 at 360 x 780, in Chinese and English: from the table's header, a substitute typed in and a swap
chosen, each back at the table with the new seating and each person's own points; the start page's table
fee folded open. Screenshots: /tmp/sczmj-seats-<language>-<scheme>.png, /tmp/sczmj-seats-table-<language>-
<scheme>.png and /tmp/sczmj-start-fee-<language>-<scheme>.png."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Browser, expect

from ledger import selectors, services
from tests.e2e.test_accounts import PHONE, fits_the_phone
from tests.e2e.test_pages import photograph
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user

pytestmark = pytest.mark.e2e

LOCALES = {"zh": "zh-CN", "en": "en-US"}
WORDS = {
    "zh": {"link": "换人", "sub": "换人", "swap": "换座", "fee": "台费（可选）"},
    "en": {"link": "Change seats", "sub": "Substitute", "swap": "Swap seats", "fee": "Table fee (optional)"},
}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_substitute_and_a_swap_from_the_tables_header(
    browser: Browser, live_server, transactional_db, language
):
    owner = make_user("owner")
    group, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # [-5, +15, -5, -5]
    context = browser.new_context(
        base_url=live_server.url, locale=LOCALES[language], device_scale_factor=2, viewport=PHONE
    )
    client = Client()
    client.force_login(owner)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    words = WORDS[language]

    page.goto(f"/sessions/{session.pk}/")
    page.get_by_role("link", name=words["link"], exact=True).click()  # tap 1
    expect(page.locator(".seatchange__row")).to_have_count(4)
    fits_the_phone(page)
    photograph(page, f"seats-{language}")
    last = page.locator(".seatchange__row").nth(3)
    last.locator("input[name=name]").fill("小刘")  # the typing
    last.get_by_role("button", name=words["sub"]).click()  # tap 2
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/")
    expect(page.locator(".notice")).to_contain_text("小刘")
    assert selectors.seat_points(session) == (-5, 15, -5, 0)

    page.get_by_role(
        "link", name=words["link"], exact=True
    ).click()  # a swap: 换人 → 换座 (seats 1 and 2 chosen)
    page.get_by_role("button", name=words["swap"]).click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/")
    assert [seat.player.name for seat in selectors.session_seats(session)] == ["小李", "小王", "阿美", "小刘"]
    fits_the_phone(page)
    photograph(page, f"seats-table-{language}", full_page=False)

    page.goto(f"/groups/{group.pk}/start/")
    page.get_by_text(words["fee"]).click()
    expect(page.locator("input[name=fee_amount]")).to_be_visible()
    fits_the_phone(page)
    page.locator(".startfee").scroll_into_view_if_needed()
    photograph(page, f"start-fee-{language}", full_page=False)
    context.close()
    assert errors == []
