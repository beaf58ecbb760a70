"""RULES.md section 12, worked examples 18 to 23 (issue 17), through the JSON API exactly as written,
and ``GET /api/v1/rules/`` listing every new option with both labels."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

A, B, C, D = 0, 1, 2, 3
NEW_OPTIONS = ("yao_jiu_jiang_dui", "jia_xin_wu", "men_qing_needs_zimo", "chajiao_value", "min_fan_to_win")


@pytest.fixture
def client() -> Client:
    return Client(enforce_csrf_checks=True)


def post(client: Client, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(f"/api/v1/{path}/", data=json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def _round(*events: dict[str, Any], **rules: Any) -> dict[str, Any]:
    return {"rules": {"preset": "chengdu", **rules}, "dealer": A, "events": list(events)}


def _win(discarder: int | None, player: int, fan: int, **flags: Any) -> dict[str, Any]:
    return {"type": "win", "from": discarder, "winners": [{"player": player, "fan": fan}], **flags}


def test_example_18_xueliu_two_wins_by_b_and_the_draw(client):
    status, body = post(
        client,
        "settle",
        _round(
            _win(None, B, 1),
            _win(B, C, 2),
            _win(None, B, 1),
            {
                "type": "draw",
                "players": [{"player": A, "status": "not_ready"}, {"player": D, "status": "ready", "fan": 3}],
            },
            mode="xueliu",
        ),
    )
    assert status == 200, body
    assert body["net"] == [-8, 10, -2, 0]
    assert body["winners"] == [B, C, B] and body["finished"] is True


def test_example_19_xueliu_gang_shang_pao_by_a_winner_is_not_finished(client):
    status, body = post(
        client,
        "settle",
        _round(
            _win(A, B, 1),
            {"type": "kong", "player": B, "kind": "concealed"},
            _win(B, C, 2, after_kong=True),
            mode="xueliu",
        ),
    )
    assert status == 200, body
    assert body["net"] == [-3, -1, 6, -2]
    assert body["finished"] is False and body["next_dealer"] is None


def test_example_20_a_false_win_fined_then_a_self_draw(client):
    fine = {"type": "adjust", "from": D, "to": "each", "amount": 2, "reason": "诈胡"}
    status, body = post(client, "settle", _round(fine, _win(None, A, 1)))
    assert status == 200, body
    assert body["net"] == [8, 0, 0, -8]
    assert [t["note"] for t in body["transfers"] if t["reason"] == "adjust"] == ["诈胡"] * 3


def test_an_adjustment_alone_is_finished_at_once_with_the_same_dealer(client):
    fine = {"type": "adjust", "from": D, "to": "house", "amount": 2, "reason": "罚分"}
    status, body = post(client, "settle", {**_round(fine), "dealer": C})
    assert status == 200, body
    assert (body["net"], body["house"], body["finished"], body["next_dealer"]) == ([0, 0, 0, -2], 2, True, C)


def test_a_bad_adjustment_is_a_400_naming_the_field(client):
    status, body = post(
        client, "settle", _round({"type": "adjust", "from": D, "to": D, "amount": 2, "reason": "x"})
    )
    assert status == 400
    assert (body["field"], body["code"]) == ("events[0].to", "adjust_to_self")


@pytest.mark.parametrize(
    ("concealed", "win_tile", "rules", "pattern", "fan"),
    [
        pytest.param("111222333m789p9p", "9p", {"yao_jiu_jiang_dui": False}, "ping_hu", 1, id="21a"),
        pytest.param("222s555s888s888m5m", "5m", {"yao_jiu_jiang_dui": False}, "dui_dui_hu", 2, id="21b"),
        pytest.param("12346789m789p55p", "5m", {"jia_xin_wu": True}, "ping_hu", 2, id="22"),
        pytest.param(
            "111m222m444m333p9p", "9p", {"min_fan_to_win": 2}, "dui_dui_hu", 2, id="23-all-pungs-wins"
        ),
    ],
)
def test_examples_21_to_23_score_as_written(client, concealed, win_tile, rules, pattern, fan):
    status, body = post(client, "score", {"concealed": concealed, "win_tile": win_tile, "rules": rules})
    assert status == 200, body
    assert (body["win"], body["pattern"]["key"], body["fan"]) == (True, pattern, fan)
    if "jia_xin_wu" in rules:
        assert [extra["key"] for extra in body["extras"]] == ["jia_xin_wu"] and body["multiplier"] == 2


def test_example_23_a_plain_hand_is_refused_as_a_win(client):
    status, body = post(
        client, "score", {"concealed": "234p456p7p345s789s", "win_tile": "7p", "rules": {"min_fan_to_win": 2}}
    )
    assert status == 200, body
    assert (body["win"], body["reason_code"], body["fan"]) == (False, "below_min_fan", 1)
    status, body = post(client, "settle", _round(_win(A, B, 1), min_fan_to_win=2))
    assert status == 400
    assert (body["code"], body["field"]) == ("win_below_min_fan", "events[0].winners[0].fan")


def test_the_rules_endpoint_lists_every_new_option_with_both_labels(client):
    body = client.get("/api/v1/rules/").json()
    options = {option["key"]: option for option in body["options"]}
    for key in NEW_OPTIONS:
        option = options[key]
        assert option["label"] and option["label_zh"] and option["explanation"] and option["explanation_zh"]
    assert options["chajiao_value"]["values"] == ["max", "min"]
    assert "xueliu" in options["mode"]["values"]
    assert {v["value"]: v["label_zh"] for v in options["mode"]["value_labels"]}["xueliu"] == "血流成河"
    assert [v["label_zh"] for v in options["min_fan_to_win"]["value_labels"]] == [
        "平胡就能胡",
        "平胡不能胡",
        "平胡至少再加两番",
    ]
    for preset in body["presets"].values():  # a preset's answers never change when an option is added
        assert {key: preset[key] for key in NEW_OPTIONS} == {
            "yao_jiu_jiang_dui": True,
            "jia_xin_wu": False,
            "men_qing_needs_zimo": False,
            "chajiao_value": "max",
            "min_fan_to_win": 1,
        }
