"""The players' name of a hand's shape (十八罗汉, 清金钩 ...; RULES.md 3.1) beside a win's breakdown on every
page that explains a hand (session page, history, live board), never in place of the table's pattern.

A hand entered by its tiles is named by the engine (the settle answer's ``composition``); a quick entry
names no melds, so its four kongs are the hand's own kong events.
"""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from settlement.engine import settle_round
from web.entry.events import table_rules
from web.entry.explain import event_views

NAMES = ("东", "南", "西", "北")
VOIDS = ["m", "m", "m", "m"]


def _kong(player, tile, kind="concealed"):
    return {"type": "kong", "player": player, "kind": kind, "tile": tile}


def _lines(events, notes=(), language="zh-hans"):
    result = settle_round(dealer=0, events=events, void_suits=VOIDS).to_dict()
    with translation.override(language):
        return [
            line
            for view in event_views(result, notes, NAMES, table_rules({}), language)
            for line in view.scores
        ]


def test_a_tile_entry_of_four_kongs_and_a_pair_is_eighteen_arhats_in_the_settle_answer_and_on_the_page():
    melds = [{"kind": "kong_concealed", "tile": tile} for tile in ("2s", "5s", "8s", "8p")]
    events = [
        *(_kong(1, meld["tile"]) for meld in melds),
        {
            "type": "win",
            "from": None,
            "winners": [{"player": 1, "hand": {"concealed": "5p", "melds": melds, "win_tile": "5p"}}],
        },
    ]
    result = settle_round(dealer=0, events=events, void_suits=VOIDS)
    score = result.to_dict()["events"][-1]["scores"][0]
    assert (score["pattern"], score["composition"]) == ("jiang_dui", "shi_ba_luo_han")
    assert _lines(events)[-1].endswith("· 十八罗汉")
    assert _lines(events, language="en")[-1].endswith("· Eighteen arhats (十八罗汉)")


def test_a_golden_hook_needs_the_pungs_only_a_tile_entry_gives():
    melds = [{"kind": "pung", "tile": tile} for tile in ("1s", "3s", "5s", "7s")]
    events = [
        {
            "type": "win",
            "from": 2,
            "winners": [{"player": 1, "hand": {"concealed": "9s", "melds": melds, "win_tile": "9s"}}],
        }
    ]
    assert _lines(events)[-1].endswith("· 清金钩")


def test_a_plain_win_has_no_name_and_the_answer_says_none():
    events = [{"type": "win", "from": 2, "winners": [{"player": 1, "fan": 2}]}]
    result = settle_round(dealer=0, events=events, void_suits=VOIDS).to_dict()
    assert result["events"][0]["scores"][0]["composition"] is None
    assert "·" not in _lines(events)[0]


@pytest.mark.parametrize(("kongs", "named"), [(4, True), (3, False)])
def test_a_quick_entry_of_all_pungs_with_four_standing_kongs_is_eighteen_arhats(kongs, named):
    events = [_kong(1, tile) for tile in ("2s", "4s", "6s", "8p")[:kongs]]
    events.append({"type": "win", "from": None, "winners": [{"player": 1, "fan": 2 + kongs}]})
    notes = [""] * kongs + [json.dumps({"1": {"pattern": "dui_dui_hu", "gen": kongs}})]
    line = _lines(events, notes)[-1]
    assert line.startswith("南 对对胡")
    assert line.endswith("· 十八罗汉") is named
