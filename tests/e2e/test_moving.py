"""Moving a group at 360 px: the owner's download and import links on the group page, the import page
(Chinese, English, light and dark), a refused file with its reason, and an imported file becoming a new
group. Photographed into /tmp/sczmj-<name>-<scheme>.png for a person to look at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from ledger import group_file, services
from ledger.models import Group
from tests.e2e.test_accounts import PASSWORD, PHONE, fits_the_phone, switch_to_english
from tests.e2e.test_pages import photograph
from tests.ledger.conftest import SELF_DRAW_B, make_table

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A phone set to Chinese, as the players' phones are."""
    return {**browser_context_args, "locale": "zh-CN", "device_scale_factor": 2}


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button.primary").click()
    page.wait_for_load_state()


def test_an_owner_downloads_the_group_file_and_imports_it_as_a_new_group(
    phone_page: Page, live_server, tmp_path: Path
):
    page = phone_page
    page.set_viewport_size(PHONE)
    owner = get_user_model().objects.create_user(username="laozhang", password=PASSWORD)
    group, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    log_in(page, live_server.url, "laozhang")

    page.goto(f"{live_server.url}/groups/{group.pk}/")
    download = page.get_by_role("link", name="下载组文件")
    expect(download).to_be_visible()
    photograph(page, "group-moving")
    fits_the_phone(page)

    page.get_by_role("link", name="导入一个组").click()
    expect(page.get_by_role("heading", name="导入一个组")).to_be_visible()
    photograph(page, "import")
    fits_the_phone(page)

    good = tmp_path / "group.json"
    good.write_text(json.dumps(group_file.group_export(actor=owner, group=group), ensure_ascii=False))
    page.locator("input[type=file]").set_input_files(str(good))
    page.locator("#import-group").click()
    expect(page.get_by_text("已导入 周五麻将")).to_be_visible()
    assert Group.objects.count() == 2
    photograph(page, "imported")

    page.goto(f"{live_server.url}/groups/import/")
    switch_to_english(page)
    expect(page.get_by_role("heading", name="Import a group")).to_be_visible()
    photograph(page, "import-en")
    fits_the_phone(page)


def test_a_refused_file_shows_its_reason_on_the_page(page: Page, live_server, tmp_path: Path):
    """A refusal answers 400, which the browser logs as a failed load: the plain page, not phone_page."""
    page.set_viewport_size(PHONE)
    get_user_model().objects.create_user(username="xiaowang", password=PASSWORD)
    log_in(page, live_server.url, "xiaowang")
    page.goto(f"{live_server.url}/groups/import/")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "csv"}', encoding="utf-8")
    page.locator("input[type=file]").set_input_files(str(broken))
    page.locator("#import-group").click()
    expect(page.get_by_role("alert")).to_contain_text("这不是组文件")
    photograph(page, "import-refused")
    fits_the_phone(page)
