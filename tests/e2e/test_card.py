"""结算's picture at 360 x 780, in Chinese and English: the demo evening finished, the card image loaded at
its full width, its QR code decoded to the summary link, and that link opened logged out showing the nets
and the transfers and nothing else. Screenshots: /tmp/sczmj-card-settle-<language>-<scheme>.png,
/tmp/sczmj-card-summary-<language>-<scheme>.png, and the picture itself as /tmp/sczmj-card-<language>.png."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import zxingcpp
from django.core.management import call_command
from PIL import Image
from playwright.sync_api import Browser, expect

from ledger import demo, selectors, services
from ledger.models import Role, Session
from tests.e2e.test_accounts import PHONE, fits_the_phone
from tests.e2e.test_pages import photograph

pytestmark = pytest.mark.e2e

LOCALES = {"zh": "zh-CN", "en": "en-US"}
# The demo evening plays for coins: the summary's headings say the amounts are coins.
WORDS = {
    "zh": {"save": "保存图片", "nets": "每位玩家（游戏币）", "pays": "谁给谁（游戏币）"},
    "en": {"save": "Save the picture", "nets": "Each player, in coins", "pays": "Who pays whom, in coins"},
}


@pytest.fixture
def demo_evening(transactional_db, settings):
    """The demo group, its evening's last hand finished at the draw (小王 ready, 小李 not, 老张 a 花猪)."""
    settings.DEBUG = True  # the demo loads only in development
    call_command("load_demo")
    session = Session.objects.get(group__name=demo.GROUP, name=demo.SESSION)
    owner = session.group.memberships.get(role=Role.OWNER).user
    draw = {
        "type": "draw",
        "players": [
            {"player": 0, "status": "ready", "fan": 1},
            {"player": 1, "status": "not_ready"},
            {"player": 3, "status": "huazhu"},
        ],
    }
    revision = selectors.session_hand_revision(session)
    services.hand_event_add(actor=owner, session=session, event=draw, revision=revision)
    assert selectors.session_totals(session).rounds == len(demo.ROUNDS) + 1
    return session


def _phone(browser: Browser, base: str, language: str):
    return browser.new_context(base_url=base, locale=LOCALES[language], device_scale_factor=2, viewport=PHONE)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_settle_page_shows_the_card_whose_qr_code_opens_the_summary_logged_out(
    browser: Browser, live_server, demo_evening, language
):
    words = WORDS[language]
    errors: list[str] = []
    member = _phone(browser, live_server.url, language)
    page = member.new_page()
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto("/login/")
    page.locator("input[name=username]").fill(demo.USERNAME)
    page.locator("input[name=password]").fill(demo.PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/")
    page.goto(f"/sessions/{demo_evening.pk}/settle/")

    card = page.locator("img.settlecard__img")
    expect(card).to_be_visible()
    page.wait_for_function("document.querySelector('img.settlecard__img').complete")
    assert card.evaluate("image => image.naturalWidth") >= 1080
    save = page.get_by_role("link", name=words["save"])
    expect(save).to_have_attribute("href", card.get_attribute("src"))
    assert save.get_attribute("download").startswith(f"sczmj-{demo_evening.pk}-")
    fits_the_phone(page)
    photograph(page, f"card-settle-{language}")

    picture = page.request.get(card.get_attribute("src"))
    assert picture.ok and len(picture.body()) < 300_000
    Path(f"/tmp/sczmj-card-{language}.png").write_bytes(picture.body())
    image = Image.open(io.BytesIO(picture.body()))
    (code,) = zxingcpp.read_barcodes(image.convert("RGB"))
    assert code.text.startswith(f"{live_server.url}/s/")
    member.close()

    stranger = _phone(browser, live_server.url, language)
    summary = stranger.new_page()
    summary.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    summary.goto(code.text)
    main = summary.locator("main")
    expect(main.locator("h2")).to_have_text([words["nets"], words["pays"]])
    names = main.locator(".settlenets__name").all_inner_texts()
    assert names == list(demo.PLAYERS)
    payments = main.locator(".settlepay li")
    assert payments.count() >= 1
    assert main.locator("a, form, button, img").count() == 0  # nothing to follow, nothing to do
    assert summary.locator('meta[property="og:image"]').get_attribute("content").endswith("card.png")
    fits_the_phone(summary)
    photograph(summary, f"card-summary-{language}")
    stranger.close()
    assert errors == []
