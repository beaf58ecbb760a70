"""The entry under 血流成河 and the 罚分 action (issue 17): a winner's seat stays live with his wins on it
(胡×2), 流局 asks only those who have not won, and a 诈胡 fine of a usual size is four taps."""

from __future__ import annotations

import re

import pytest

from ledger.models import HandInProgress, Round
from tests.ledger.conftest import make_table, make_user
from tests.ledger.pages.test_session_page import Phone, text_of, totals

pytestmark = pytest.mark.django_db


@pytest.fixture
def flowing():
    owner = make_user("owner")
    _group, session = make_table(owner, rules={"preset": "chengdu", "mode": "xueliu"})
    return Phone(owner, session), session


def _self_draw(seat: int) -> dict[str, str]:
    return {"ev_type": "win", f"winner_{seat}": "on", "win_how": "self_draw", f"pattern_{seat}": "ping_hu"}


def _seat_inputs(response, name: str) -> dict[str, bool]:
    """Each seat choice of ``name``: its value and whether it can be chosen."""
    html = response.content.decode()
    found = re.findall(rf'<input[^>]*name="{name}"[^>]*>', html)
    return {re.search(r'value="([^"]*)"', tag).group(1): "disabled" not in tag for tag in found}


def test_a_winner_stays_live_with_his_wins_on_his_seat(flowing):
    phone, _session = flowing
    phone.record(**_self_draw(1))  # 小李 自摸 平胡: each pays 1 + 1
    phone.record(**_self_draw(1))  # and again
    page = phone.client.get(phone.url)
    assert totals(page) == ["−4", "+12", "−4", "−4"]
    assert "胡×2" in text_of(page)
    assert "血流成河" in text_of(page)
    assert "seat--won" not in page.content.decode()  # not greyed out: he plays on
    assert _seat_inputs(page, "kong_player")["1"]  # he may kong
    assert _seat_inputs(page, "winner_1") == {"on": True}  # and win again
    assert HandInProgress.objects.get(session=phone.session).events[1]["winners"][0]["player"] == 1


def test_the_draw_asks_only_those_who_have_not_won_and_records_the_hand(flowing):
    phone, session = flowing
    phone.record(**_self_draw(1))
    phone.record(**_self_draw(2))
    html = phone.client.get(phone.url).content.decode()
    assert re.search(r'data-draw-row="1"[^>]*hidden', html) and re.search(
        r'data-draw-row="2"[^>]*hidden', html
    )
    assert not re.search(r'data-draw-row="0"[^>]*hidden', html)
    done = phone.record(ev_type="draw", draw_0="not_ready", draw_3="ready", drawpattern_3="qing_yi_se")
    assert done.status_code == 200
    (round_,) = Round.objects.filter(session=session)
    # 小李 and 阿美 each self-draw 平胡 (+6, the others -2 each); 小王 not ready pays 老张 4 (清一色)
    assert round_.versions.get().result["net"] == [-8, 4, 4, 0]


def test_a_false_win_fined_from_each_in_four_taps_between_hands(flowing):
    phone, session = flowing
    # the taps: 罚分 (ev_type), who pays, a size, 记录; 各家 and 诈胡 are already chosen
    page = phone.record(ev_type="adjust", adjust_from="3", adjust_amount="8")
    assert page.status_code == 200
    (round_,) = Round.objects.filter(session=session)
    assert round_.events == [{"type": "adjust", "from": 3, "to": "each", "amount": 8, "reason": "诈胡"}]
    assert round_.versions.get().result["net"] == [8, 8, 8, -24]
    assert "老张 罚分（诈胡）" in text_of(page)  # the end card explains it
    assert "只记了罚分：这不算一手牌。" in text_of(page)


@pytest.mark.parametrize(
    ("fields", "event"),
    [
        pytest.param(
            {"adjust_to": "house", "adjust_points": "3", "adjust_reason": "罚分"},
            {"type": "adjust", "from": 0, "to": "house", "amount": 3, "reason": "罚分"},
            id="to-the-house-a-typed-amount",
        ),
        pytest.param(
            {"adjust_to": "2", "adjust_amount": "2", "adjust_reason": "其他", "adjust_note": "赌 8 万"},
            {"type": "adjust", "from": 0, "to": 2, "amount": 2, "reason": "赌 8 万"},
            id="a-side-bet-to-one-player",
        ),
    ],
)
def test_a_penalty_to_one_player_or_the_house_with_its_words(flowing, fields, event):
    phone, session = flowing
    phone.record(ev_type="adjust", adjust_from="0", **fields)
    assert Round.objects.get(session=session).events == [event]


def test_a_penalty_for_something_else_needs_its_words(flowing):
    phone, session = flowing
    page = phone.record(ev_type="adjust", adjust_from="0", adjust_amount="2", adjust_reason="其他")
    assert "说明" in text_of(page) or "Say what" in text_of(page)
    assert not Round.objects.filter(session=session).exists()


def test_a_fine_inside_a_hand_stays_in_the_hand(flowing):
    phone, session = flowing
    phone.record(**_self_draw(1))
    phone.record(ev_type="adjust", adjust_from="3", adjust_amount="2")
    assert not Round.objects.filter(session=session).exists()
    assert [event["type"] for event in HandInProgress.objects.get(session=session).events] == [
        "win",
        "adjust",
    ]


def test_the_history_shows_an_adjustment_with_its_reason_and_points(flowing):
    from django.urls import reverse

    phone, session = flowing
    phone.record(
        ev_type="adjust", adjust_from="3", adjust_amount="2", adjust_reason="罚分", adjust_note="迟到"
    )
    text = text_of(phone.client.get(reverse("session-history", args=[session.pk])))
    assert "老张 罚分（罚分 · 迟到）" in text
    assert "+2" in text and "−6" in text
