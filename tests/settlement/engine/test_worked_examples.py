"""RULES.md section 12, round examples 11 to 17, and API.md's settle example, exactly as written."""

from __future__ import annotations

import pytest

from settlement.engine import settle_round

from .rounds import by_fan, by_hand, draw, kong, net, position, settle, status, win

A, B, C, D = 0, 1, 2, 3


def test_example_11_full_flush_self_draw_pays_four_plus_one_from_each():
    # 清一色 3 fan = x4, +1 加底 from each of A, C, D: B +15
    assert net(win(None, by_hand(B, "11s222s333s456s99s", "9s"))) == [-5, 15, -5, -5]


def test_example_12_concealed_kong_then_flower_on_the_kong():
    # 暗杠 2 x 3 = 6; 平胡 1 + gen 1 + 杠上花 1 = 3 fan = x4, +1 加底: (4 + 1) x 3 = 15; B +21
    result = settle(
        kong(B, "concealed", "5s"),
        win(
            None,
            by_hand(B, "123s678s234m2m", "2m", [{"kind": "kong_concealed", "tile": "5s"}]),
            after_kong=True,
        ),
    )
    assert list(result.net) == [-7, 21, -7, -7]
    assert result.events[1].scores[0].fan == 3


def test_example_13_win_on_the_discard_after_an_added_kong_takes_the_kong_money():
    # 弯杠: A, C, D pay 1; C wins 平胡 + 杠上炮 = 2 fan: B pays 2 and hands over 3
    assert net(kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True)) == [-1, -2, 4, -1]


def test_example_14_robbing_an_added_kong_pays_no_kong_money():
    # 平胡 + 抢杠 = 2 fan paid by the robbed B; the kong itself is void
    result = settle(win(B, by_hand(C, "234m567m789m11p55p", "5p"), robbing_kong=True))
    assert list(result.net) == [0, -2, 2, 0]
    assert result.events[0].scores[0].fan == 2


@pytest.mark.parametrize(
    ("direct_kong", "expected"),
    [
        pytest.param("chengbao", [0, -2, 2, 0], id="chengbao-the-feeder-pays-two"),
        pytest.param("jia_jia_you", [-1, -2, 4, -1], id="jia-jia-you-everyone-else-pays-one"),
    ],
)
def test_example_15_direct_kong(direct_kong, expected):
    assert net(kong(C, "direct", "7m", feeder=B), direct_kong=direct_kong) == expected


def test_example_16_draw_with_a_flower_pig_and_a_player_not_ready():
    # A pig pays 16 to B, C, D; D not ready pays B 1 (x1) and C 4 (清一色 x4)
    result = settle(
        draw(status(A, "huazhu"), status(B, "ready", 1), status(C, "ready", 3), status(D, "not_ready"))
    )
    assert list(result.net) == [-48, 17, 20, 11]


def test_example_16_with_the_hands_given_as_tiles():
    result = settle(
        draw(
            position(A, "123m456p789s1122m"),  # three suits: a flower pig
            position(B, "234m567m345p88p99p"),  # waits 8p / 9p: 平胡, 1 fan
            position(C, "123s123s789s55s66s"),  # waits 5s / 6s: 清一色, 3 fan, no gen
            position(D, "13579m2468p1357p"),  # not ready
        ),
        void_suits=[None, "s", "m", "s"],
    )
    statuses = [(entry.status, entry.fan) for entry in result.events[0].players]
    assert statuses == [("huazhu", None), ("ready", 1), ("ready", 3), ("not_ready", None)]
    assert list(result.net) == [-48, 17, 20, 11]


API_EXAMPLE = {
    "rules": {"preset": "chengdu", "base_points": 6, "tax_rate": 0.1},
    "dealer": 0,
    "void_suits": ["s", "p", None, "s"],
    "events": [
        {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"},
        {"type": "kong", "player": 0, "kind": "direct", "tile": "5p", "from": 2},
        {
            "type": "win",
            "from": 0,
            "after_kong": True,
            "winners": [
                {"player": 3, "hand": {"concealed": "111m333m777p999p8m", "melds": [], "win_tile": "8m"}}
            ],
        },
        {"type": "win", "from": None, "winners": [{"player": 1, "fan": 4}]},
        {
            "type": "draw",
            "players": [
                {
                    "player": 0,
                    "hand": {"concealed": "123p789p456m7m", "melds": [{"kind": "kong_direct", "tile": "5p"}]},
                },
                {"player": 2, "status": "not_ready"},
            ],
        },
    ],
    "coins": {"balances": [100000, 100000, 4500, 100000], "room_coefficient": 100},
}


def test_example_17_and_the_api_example_come_out_exactly():
    # b = 6. e0 暗杠: A, C, D pay 12 to B. e1 直杠: C pays A 12. e2 对对胡 2 + 杠上炮 1 = x4: A pays D 24 and
    # hands over the 12. e3 B self-draws 4 fan: x8 = 48 + 6 加底 from A and C. e4 A ready 平胡 + gen = x2:
    # C pays A 12. Net A -78, B +144, C -90, D +24. Coins: pool 7800 + 4500 = 12300; B 12300 x 144/168 =
    # 10542.86 -> 10543, D 1757.14 -> 1757; after 10% tax 9488 and 1581; house 12300 - 11069 = 1231.
    body = settle_round(**API_EXAMPLE).to_dict()
    assert body["transfers"][0] == {
        "event": 0,
        "from": 0,
        "to": 1,
        "points": 12,
        "reason": "concealed_kong",
        "detail": body["transfers"][0]["detail"],
    }
    assert body["net"] == [-78, 144, -90, 24]
    assert body["house"] == 0
    score = body["events"][2]["scores"][0]
    assert {key: score[key] for key in ("player", "fan", "multiplier", "pattern")} == {
        "player": 3,
        "fan": 3,
        "multiplier": 4,
        "pattern": "dui_dui_hu",
    }
    assert body["winners"] == [3, 1]
    assert body["finished"] is True
    assert body["next_dealer"] == 3
    assert {key: body["coins"][key] for key in ("change", "house", "balances")} == {
        "change": [-7800, 9488, -4500, 1581],
        "house": 1231,
        "balances": [92200, 109488, 0, 101581],
    }
