"""Debts at 360 px, in Chinese and English: on 结算 one transfer marked paid in full and one in part, the
rest shown there, on the group page (谁还欠谁) and, apart from tonight's, on the next session's 结算; then
the first session corrected shows the difference to return.
Screenshots: /tmp/sczmj-debts-<page>-<language>-<scheme>.png."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from ledger import services
from ledger.models import Player
from tests.e2e.test_accounts import fits_the_phone
from tests.e2e.test_pages import photograph
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user
from tests.ledger.test_debts import ONE_FAN_SELF_DRAW

pytestmark = pytest.mark.e2e
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
# Chinese on both passes; the English words are the same on either database, so English runs on SQLite's.
LANGUAGES = [
    "zh",
    pytest.param(
        "en",
        marks=pytest.mark.skipif(ON_POSTGRES, reason="the English words are the same on either database"),
    ),
]

LOCALES = {"zh": "zh-CN", "en": "en-US"}
WORDS = {
    "zh": {
        "mark": "标记已付",
        "full": "已付清",
        "part": "已付 2，还差 3",
        "owed": "谁还欠谁",
        "carried": "之前欠的",
        "corrected": "标记付款之后改过账",
        "returns": "小李 退还 3",
    },
    "en": {
        "mark": "Mark paid",
        "full": "Paid in full",
        "part": "Paid 2, 3 left",
        "owed": "Who still owes whom",
        "carried": "Still owed from earlier sessions",
        "corrected": "A hand was corrected after payments were marked",
        "returns": "小李 returns 3",
    },
}


def row(page: Page, payer: str):
    return page.locator("#pay-title ~ .settlepay .debtrow").filter(has_text=payer)


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_paid_in_full_and_one_in_part_leave_the_rest_on_the_group_page_and_the_next_settle_up(
    transactional_db, phones, language
):
    words = WORDS[language]
    owner = make_user("owner")
    group, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # three owe 小李 5 each
    page = phones.open(owner, f"/sessions/{session.pk}/settle/", locale=LOCALES[language])

    row(page, "小王").get_by_role("button", name=words["mark"]).click()  # the whole 5, as proposed
    expect(row(page, "小王")).to_contain_text(words["full"])
    part = row(page, "阿美")
    part.get_by_role("spinbutton").fill("2")
    part.get_by_role("button", name=words["mark"]).click()
    expect(row(page, "阿美")).to_contain_text(words["part"])
    expect(row(page, "老张")).not_to_contain_text(words["full"])
    fits_the_phone(page)
    photograph(page, f"debts-settle-{language}")

    page.goto(f"/groups/{group.pk}/")
    owed = page.locator("#owed")
    expect(owed).to_contain_text(words["owed"])
    expect(owed.locator("li")).to_have_count(2)
    expect(owed.locator("li").filter(has_text="阿美")).to_contain_text("3")
    expect(owed.locator("li").filter(has_text="老张")).to_contain_text("5")
    fits_the_phone(page)
    owed.scroll_into_view_if_needed()
    photograph(page, f"debts-group-{language}", full_page=False)

    players = [Player.objects.get(group=group, name=name).pk for name in ("小王", "小李", "阿美", "老张")]
    tonight = services.session_start(actor=owner, group=group, name="第二场", player_ids=players)
    page.goto(f"/sessions/{tonight.pk}/settle/")
    carried = page.locator("#carried")
    expect(carried).to_contain_text(words["carried"])
    expect(carried.locator(".debtrow")).to_have_count(2)
    expect(carried.locator(".debtrow").filter(has_text="阿美")).to_contain_text("3")
    fits_the_phone(page)
    carried.scroll_into_view_if_needed()
    photograph(page, f"debts-carried-{language}", full_page=False)

    # the first session corrected to a 1-fan self-draw (each owes 2): 小王 paid 5, so 小李 returns 3
    services.round_correct(actor=owner, round_=session.rounds.get(), body=ONE_FAN_SELF_DRAW)
    page.goto(f"/sessions/{session.pk}/settle/")
    expect(page.get_by_role("note").filter(has_text=words["corrected"])).to_be_visible()
    expect(row(page, "小王")).to_contain_text(words["returns"])
    expect(row(page, "阿美")).to_contain_text(words["full"])
    fits_the_phone(page)
    row(page, "小王").scroll_into_view_if_needed()
    photograph(page, f"debts-corrected-{language}", full_page=False)


FEE_WORDS = {
    "zh": {
        "open": "加台费…",
        "split": "大赢家出",
        "set": "设定台费",
        "line": "台费 6 · 大赢家出 · 还没付给场地: 小李 6",
    },
    "en": {
        "open": "Add a table fee…",
        "split": "the biggest winner",
        "set": "Set the table fee",
        "line": "Table fee 6 · the biggest winner · still to pay the room: 小李 6",
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_fee_set_on_the_settle_page_shows_there_and_on_the_summary_link(
    transactional_db, phones, language
):
    words = FEE_WORDS[language]
    owner = make_user("owner")
    _, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    page = phones.open(owner, f"/sessions/{session.pk}/settle/", locale=LOCALES[language])
    page.get_by_text(words["open"]).click()
    form = page.locator(".settlefeeform form")
    form.get_by_role("spinbutton").fill("6")
    form.locator("select[name=split]").select_option(label=words["split"])
    form.get_by_role("button", name=words["set"]).click()
    expect(page.locator(".settlefee")).to_have_text(words["line"])
    expect(page.locator("#pay-title ~ .settlepay li:not(.debtrow)")).not_to_have_count(0)  # to the house
    fits_the_phone(page)
    page.locator(".settlefee").scroll_into_view_if_needed()
    photograph(page, f"debts-fee-{language}", full_page=False)
    summary = page.locator(
        "a", has_text="结算链接" if language == "zh" else "summary link"
    ).first.get_attribute("href")
    page.goto(summary or "")
    expect(page.locator(".settlefee")).to_have_text(words["line"])
