"""A 血流成河 evening at 360 px, as a table plays it (issue 17): six hands and a fine between two of them.

Winners play on, so each hand ends at a 流局. On the way: 小李 wins twice in one hand with a kong between his
wins (胡×2 on his seat, and on a viewer's board), 一炮多响 with an earlier winner among the winners, a 诈胡
fine inside a hand, a 罚分 alone between hands (an adjustment round, no hand), 流局 after two wins. The
page's totals must equal the engine's settlement of the stored events, and 统计 counts every win and no hand
for the adjustment round. In Chinese (both databases) and English (SQLite pass: the words cannot differ
with the database). Screenshots: /tmp/sczmj-xueliu-*.png.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from ledger import services
from ledger.models import Round, Session
from tests.e2e.conftest import Phones
from tests.e2e.test_evening import choose, expected_totals, record, settled, signed_numbers, tick
from tests.e2e.test_live import FOLLOWS_WITHIN_MS
from tests.e2e.test_pages import photograph
from tests.ledger.conftest import make_table, make_user

pytestmark = pytest.mark.e2e
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
XIAOWANG, XIAOLI, AMEI, LAOZHANG = "0", "1", "2", "3"


def win(page: Page, how: str, *winners: tuple[str, str]) -> None:
    """One win event: ``how`` is ``self_draw`` or ``discard:<seat>``; each winner with his pattern chip."""
    choose(page, "ev_type", "win")
    for seat, _pattern in winners:
        tick(page, f"winner_{seat}")
    choose(page, "win_how", how)
    for seat, pattern in winners:
        page.locator(f".winner--{seat} label:has(input[value='{pattern}']) span").click()
        settled(page)
    record(page)


def draw(page: Page, **statuses: str) -> None:
    """流局: only those who have not won are asked (``draw_<seat>``: ready, not_ready, huazhu)."""
    choose(page, "ev_type", "draw")
    for seat in (XIAOWANG, XIAOLI, AMEI, LAOZHANG):
        row = page.locator(f"[data-draw-row='{seat}']")
        asked = seat in statuses
        (expect(row).to_be_visible if asked else expect(row).to_be_hidden)()
        if asked:
            choose(page, f"draw_{seat}", statuses[seat])
    record(page)
    expect(page.locator(".endcard")).to_be_visible()


def fine(
    page: Page, payer: str, *, to: str | None = None, amount: str = "8", reason: str | None = None
) -> None:
    """罚分: who pays, to each player (the default) or one, a size, the reason (诈胡 is chosen already)."""
    choose(page, "ev_type", "adjust")
    choose(page, "adjust_from", payer)
    if to is not None:
        choose(page, "adjust_to", to)
    choose(page, "adjust_amount", amount)
    if reason is not None:
        choose(page, "adjust_reason", reason)
    record(page)


def next_hand(page: Page, rounds: int, session: Session) -> None:
    assert Round.objects.filter(session=session).count() == rounds
    page.locator("#entry-end button[name='action'][value='next']").click()
    expect(page.locator(".endcard")).to_have_count(0)
    settled(page)


def seat_tags(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#entry-seats .seat").all_inner_texts()]


@pytest.mark.parametrize(
    "locale",
    [
        "zh-CN",
        pytest.param(
            "en",
            marks=pytest.mark.skipif(ON_POSTGRES, reason="the English words are the same on either database"),
        ),
    ],
)
def test_a_xueliu_evening_of_six_hands_and_a_fine_settles_as_the_engine_does(
    phones: Phones, transactional_db, locale
):
    owner = make_user("owner")
    _group, session = make_table(owner, rules={"preset": "chengdu", "mode": "xueliu"})
    path = reverse("session-page", args=[session.pk])
    keeper = phones.open(owner, path, locale=locale)
    viewer_link = services.invite_create(actor=owner, session=session, role="viewer")
    viewer = phones.open(None, f"/join/{viewer_link.token}/", locale=locale)

    # Hand 1: 小李 自摸, 暗杠, 自摸 again; 流局 after his two wins (小王 not ready, 阿美 and 老张 ready).
    win(keeper, "self_draw", (XIAOLI, "ping_hu"))
    choose(keeper, "ev_type", "kong")
    choose(keeper, "kong_player", XIAOLI)  # a winner's seat stays live: he may kong
    choose(keeper, "kong_kind", "concealed")
    settled(keeper)
    win(keeper, "self_draw", (XIAOLI, "ping_hu"))
    expect(keeper.locator("#entry-seats .seat").nth(1)).to_contain_text("胡×2")
    expect(viewer.locator("#live-seats .seat").nth(1)).to_contain_text("胡×2", timeout=FOLLOWS_WITHIN_MS)
    photograph(keeper, f"xueliu-two-wins-{locale}")
    photograph(viewer, f"xueliu-viewer-{locale}", full_page=False)
    viewer.context.close()
    phones.contexts.remove(viewer.context)
    draw(keeper, **{XIAOWANG: "not_ready", AMEI: "ready", LAOZHANG: "ready"})
    photograph(keeper, f"xueliu-end-{locale}")
    next_hand(keeper, 1, session)

    # Hand 2: 阿美 自摸 对对胡; 老张 discards and 阿美 (again) and 小王 both win: 一炮多响 with an earlier
    # winner among the winners; 流局 for 小李 (not ready) and 老张 (ready).
    win(keeper, "self_draw", (AMEI, "dui_dui_hu"))
    win(keeper, f"discard:{LAOZHANG}", (AMEI, "ping_hu"), (XIAOWANG, "ping_hu"))
    draw(keeper, **{XIAOLI: "not_ready", LAOZHANG: "ready"})
    next_hand(keeper, 2, session)

    # Hand 3: 小王 discards to 小李's 清一色; 老张's 诈胡, fined 8 to each player inside the hand; 流局.
    win(keeper, f"discard:{XIAOWANG}", (XIAOLI, "qing_yi_se"))
    fine(keeper, LAOZHANG)
    draw(keeper, **{XIAOWANG: "ready", AMEI: "huazhu", LAOZHANG: "not_ready"})
    next_hand(keeper, 3, session)

    # Between hands: 小王 pays 阿美 2 as a 罚分 (an adjustment round: no hand is played).
    fine(keeper, XIAOWANG, to=AMEI, amount="2", reason="罚分")
    expect(keeper.locator(".endcard")).to_be_visible()
    next_hand(keeper, 4, session)

    # Hands 4 to 6: 老张 on 小李's discard; a 流局 with nobody ready; 阿美 自摸 清一色.
    win(keeper, f"discard:{XIAOLI}", (LAOZHANG, "ping_hu"))
    draw(keeper, **{XIAOWANG: "ready", XIAOLI: "not_ready", AMEI: "ready"})
    next_hand(keeper, 5, session)
    draw(keeper, **{seat: "not_ready" for seat in (XIAOWANG, XIAOLI, AMEI, LAOZHANG)})
    next_hand(keeper, 6, session)
    win(keeper, "self_draw", (AMEI, "qing_yi_se"))
    draw(keeper, **{XIAOWANG: "ready", XIAOLI: "ready", LAOZHANG: "not_ready"})

    rounds = Round.objects.filter(session=session).order_by("position")
    assert [round_.adjustment for round_ in rounds] == [False, False, False, True, False, False, False]
    assert signed_numbers(keeper, "#entry-seats .seat__total") == expected_totals(session)
    assert keeper.evaluate("document.documentElement.scrollWidth") <= 360

    # 统计: every win counts (小李 3, 阿美 3, 小王 1, 老张 1) and the fine between hands is no hand.
    keeper.goto(reverse("group-stats", args=[session.group_id]))
    table = keeper.locator("table.statstable--players")
    names = [name.strip() for name in table.locator("thead th").all_inner_texts()]
    figures = [row.locator("td").all_inner_texts() for row in table.locator("tbody tr").all()]
    photograph(keeper, f"xueliu-stats-{locale}")
    by_name = {figure: dict(zip(names, figures[row], strict=True)) for figure, row in FIGURE_ROWS.items()}
    assert by_name["wins"] == {"小王": "1", "小李": "3", "阿美": "3", "老张": "1"}
    assert set(by_name["hands"].values()) == {"6"}


# ledger/pages/stats.py FIGURES: the players' table's rows in their order
FIGURE_ROWS = {"hands": 3, "wins": 4}
