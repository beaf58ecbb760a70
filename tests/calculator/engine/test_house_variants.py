"""Issue 11's house variants in scoring (RULES.md 3.3) and the waits fix (3.4): ``jin_gou_diao_fan``,
``men_qing`` and ``zhong_zhang`` one at a time, each on and off and meeting its neighbours; fan worked out
by hand in the comment beside each case (平胡 is 1 fan, the multiplier 2^(fan-1))."""

import pytest

from calculator.engine import EngineError, Rules, find_waits, score_hand

FOUR_PUNGS = (
    {"kind": "pung", "tile": "2m"},
    {"kind": "pung", "tile": "5p"},
    {"kind": "pung", "tile": "7p"},
    {"kind": "pung", "tile": "8p"},
)


@pytest.mark.parametrize(
    ("rules", "fan", "points"),
    [
        # four pungs shown, the win completes the 33m pair: 对对胡 2 fan, x2
        pytest.param({}, 2, 2, id="off"),
        pytest.param({"jin_gou_diao": True}, 3, 4, id="on-worth-1"),  # 2 + 1 = 3 fan, x4
        pytest.param({"jin_gou_diao": True, "jin_gou_diao_fan": 2}, 4, 8, id="on-worth-2"),  # 2 + 2, x8
        pytest.param({"jin_gou_diao_fan": 2}, 2, 2, id="worth-2-but-off"),
        pytest.param({"jin_gou_diao": True, "jin_gou_diao_fan": 2, "cap_multiplier": 4}, 4, 4, id="capped"),
    ],
)
def test_jin_gou_diao_is_worth_its_fan(rules, fan, points):
    result = score_hand("3m", "3m", melds=FOUR_PUNGS, rules=rules)
    assert (result.pattern.key, result.fan, result.points) == ("dui_dui_hu", fan, points)
    extras = {extra.key: extra.fan for extra in result.extras}
    assert extras.get("jin_gou_diao", 0) == fan - 2


def test_jin_gou_diao_fan_counts_in_a_ready_hands_value_and_stacks_with_zhong_zhang():
    # waiting on 3m with the four pungs: 对对胡 2 + 金钩钓 2 + 中张 1 (no 1 or 9 anywhere) = 5 fan, x16
    rules = {"jin_gou_diao": True, "jin_gou_diao_fan": 2, "zhong_zhang": True}
    waits = find_waits("3m", melds=FOUR_PUNGS, rules=rules)
    assert [(wait.tile, wait.fan, wait.points) for wait in waits.waits] == [("3m", 5, 16)]


@pytest.mark.parametrize("value", [0, 3, True, "2"])
def test_jin_gou_diao_fan_is_one_or_two(value):
    with pytest.raises(EngineError) as refused:
        Rules.from_dict({"jin_gou_diao_fan": value})
    assert refused.value.field == "rules.jin_gou_diao_fan"


# A hand with both: no melds (门清), 2..6p and 3..8s (中张): 平胡 1 fan.
BOTH = ("234p456p66p345s67s", "8s")
# 门清 only: no melds, but a 9s.
CONCEALED_WITH_A_NINE = ("234p456p7p345s789s", "7p")
# 中张 only: a pung of 5p shown, no 1 or 9.
PUNG_NO_TERMINAL = ("234p345s678s6p", "6p", ({"kind": "pung", "tile": "5p"},))


@pytest.mark.parametrize(
    ("rules", "both", "men_qing_only", "zhong_zhang_only"),
    [
        pytest.param({}, 1, 1, 1, id="all-off"),
        pytest.param({"men_qing_zhong_zhang": True}, 3, 2, 2, id="the-combined-switch-turns-on-both"),
        pytest.param({"men_qing": True}, 2, 2, 1, id="men-qing-alone"),
        pytest.param({"zhong_zhang": True}, 2, 1, 2, id="zhong-zhang-alone"),
        pytest.param({"men_qing": True, "zhong_zhang": True}, 3, 2, 2, id="both-one-at-a-time"),
        # one given alone wins over the combined switch, the other follows it
        pytest.param(
            {"men_qing_zhong_zhang": True, "zhong_zhang": False}, 2, 2, 1, id="combined-but-no-zhong-zhang"
        ),
        pytest.param(
            {"men_qing_zhong_zhang": True, "men_qing": False}, 2, 1, 2, id="combined-but-no-men-qing"
        ),
        pytest.param(
            {"men_qing_zhong_zhang": False, "men_qing": True}, 2, 2, 1, id="men-qing-over-combined-off"
        ),
        pytest.param(
            {"men_qing_zhong_zhang": True, "men_qing": None}, 3, 2, 2, id="null-follows-the-combined"
        ),
    ],
)
def test_men_qing_and_zhong_zhang_one_at_a_time(rules, both, men_qing_only, zhong_zhang_only):
    assert score_hand(*BOTH, rules=rules).fan == both
    assert score_hand(*CONCEALED_WITH_A_NINE, rules=rules).fan == men_qing_only
    concealed, win_tile, melds = PUNG_NO_TERMINAL
    assert score_hand(concealed, win_tile, melds=melds, rules=rules).fan == zhong_zhang_only


def test_men_qing_alone_on_a_capped_self_draw():
    # 门清 + 中张 + 自摸加番 on BOTH: 1 + 1 + 1 + 1 = 4 fan, x8; capped at x4 it pays 4.
    rules = {"men_qing": True, "zhong_zhang": True, "zimo_bonus": "jia_fan", "cap_multiplier": 4}
    result = score_hand(*BOTH, win_by="self_draw", rules=rules)
    assert (result.fan, result.multiplier, result.points, result.capped) == (4, 8, 4, True)


def test_a_concealed_kong_keeps_men_qing():
    # 暗杠 5555s beside 234p 678s 234s 22p: 平胡 1 + gen 1 + 门清 1 = 3 fan
    concealed_kong = ({"kind": "kong_concealed", "tile": "5s"},)
    result = score_hand("234p678s234s2p", "2p", melds=concealed_kong, rules={"men_qing": True})
    assert result.fan == 3


@pytest.mark.parametrize("key", ["men_qing", "zhong_zhang"])
def test_men_qing_and_zhong_zhang_take_true_false_or_null(key):
    assert Rules.from_dict({key: True}).to_dict()[key] is True
    assert Rules.from_dict({key: None}).to_dict()[key] is None
    with pytest.raises(EngineError) as refused:
        Rules.from_dict({key: "yes"})
    assert refused.value.field == f"rules.{key}"
    with pytest.raises(EngineError):
        Rules.from_dict({"dingque": None})  # only these two options may follow another


# ------------------------------------------------------------------------------------------ waits fix


def test_a_fourteen_holding_the_void_suit_is_a_pig_that_can_discard_into_ready():
    # RULES.md 3.4: 3p is the void suit. As he stands, a 花猪; throwing 3p leaves 2222334445699s, ready on
    # 5s and on 9s, each 清一色 3 + 1 gen (2222s) = 4 fan.
    result = find_waits(concealed="3p2222334445699s", void_suit="p").to_dict()
    assert (result["ready"], result["huazhu"]) == (True, True)
    assert [entry["discard"] for entry in result["discards"]] == ["3p"]
    assert [(wait["tile"], wait["fan"]) for wait in result["waits"]] == [("5s", 4), ("9s", 4)]
    assert result["best_discard"] == "3p"


def test_the_same_fourteen_without_a_void_suit_is_no_pig():
    result = find_waits(concealed="3p2222334445699s").to_dict()
    assert (result["ready"], result["huazhu"]) == (True, False)
    assert "3p" in [entry["discard"] for entry in result["discards"]]


def test_a_pig_of_fourteen_with_no_discard_into_ready_lists_none():
    result = find_waits(concealed="1m3p222233444569s", void_suit="p").to_dict()
    assert (result["ready"], result["huazhu"], result["discards"]) == (False, True, [])


def test_a_thirteen_holding_the_void_suit_stays_a_pig_with_no_waits():
    result = find_waits(concealed="3p222233444569s", void_suit="p").to_dict()
    assert (result["ready"], result["huazhu"], result["waits"]) == (False, True, [])
    assert "discards" not in result


def test_the_pig_of_fourteen_is_still_a_pig_at_the_draw():
    """RULES.md 5.1: a player holding 14 with a void tile is a flower pig whatever he might discard."""
    from settlement.engine import settle_round

    draw = {
        "type": "draw",
        "players": [
            {"player": 0, "hand": {"concealed": "3p2222334445699s"}},
            {"player": 1, "status": "not_ready"},
            {"player": 2, "status": "not_ready"},
            {"player": 3, "status": "not_ready"},
        ],
    }
    result = settle_round(dealer=0, events=[draw], void_suits=["p", None, None, None])
    assert result.events[0].players[0].status == "huazhu"
    assert list(result.net) == [-48, 16, 16, 16]


def test_the_waits_fix_through_the_api(client):
    response = client.post(
        "/api/v1/waits/", {"concealed": "3p2222334445699s", "void_suit": "p"}, content_type="application/json"
    )
    body = response.json()
    assert (response.status_code, body["ready"], body["huazhu"], body["best_discard"]) == (
        200,
        True,
        True,
        "3p",
    )
    assert [wait["tile"] for wait in body["discards"][0]["waits"]] == ["5s", "9s"]


def test_the_rules_endpoint_offers_the_new_options_with_their_words(client):
    options = {option["key"]: option for option in client.get("/api/v1/rules/").json()["options"]}
    assert options["direct_kong"]["values"][-1] == "every_1"
    assert options["gang_shang_pao_transfer"]["value_labels"][-1]["label_zh"].startswith("退杠")
    assert (options["jin_gou_diao_fan"]["minimum"], options["jin_gou_diao_fan"]["maximum"]) == (1, 2)
    assert options["men_qing"]["type"] == "boolean or null" and options["men_qing"]["default"] is None
    assert options["tui_shui"]["label_zh"] == "退税"
