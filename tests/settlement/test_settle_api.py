"""POST /api/v1/settle/: API.md's round worked out by hand, a blood-battle round, 400s naming the event."""

import copy
import json

import pytest
from django.test import Client

from settlement.api import BLOOD_BATTLE_ROUND, COINS_ROUND, SETTLE_EXAMPLES
from tests.calculator.test_api import assert_subset

SETTLE = "/api/v1/settle/"


@pytest.fixture
def client() -> Client:
    return Client(enforce_csrf_checks=True)


def post(client: Client, body: object) -> tuple[int, dict]:
    response = client.post(SETTLE, data=json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def transfers_by_event(result: dict) -> list[tuple]:
    return sorted((t["event"], t["from"], t["to"], t["points"], t["reason"]) for t in result["transfers"])


def test_the_api_md_round_settles_as_worked_out_by_hand(client):
    """b = 6. Every payment derived from RULES.md section 4 and 5, event by event."""
    status, result = post(client, COINS_ROUND)
    assert status == 200, result
    assert transfers_by_event(result) == sorted(
        [
            # 0: seat 1's 暗杠 2m: each active opponent pays 2b.
            (0, 0, 1, 12, "concealed_kong"),
            (0, 2, 1, 12, "concealed_kong"),
            (0, 3, 1, 12, "concealed_kong"),
            # 1: seat 0's 直杠 5p fed by seat 2: chengbao, the feeder pays 2b.
            (1, 2, 0, 12, "direct_kong"),
            # 2: 杠上炮: seat 3's 对对胡 2 fan + 1 = 3 fan, x4 = 24; 呼叫转移 of the last kong's 12.
            (2, 0, 3, 24, "win"),
            (2, 0, 3, 12, "kong_transfer"),
            # 3: seat 1 self-draws 4 fan: x8 = 48 from each active opponent (0 and 2) plus 自摸加底 6.
            (3, 0, 1, 48, "win"),
            (3, 0, 1, 6, "self_draw_bonus"),
            (3, 2, 1, 48, "win"),
            (3, 2, 1, 6, "self_draw_bonus"),
            # 4: 流局: seat 0 waits on 7m, 平胡 + the 5p kong as gen = 2 fan; seat 2 is not ready and pays 12.
            (4, 2, 0, 12, "chajiao"),
        ]
    )
    assert_subset(
        result,
        {
            "net": [-78, 144, -90, 24],
            "house": 0,
            "winners": [3, 1],
            "finished": True,
            "next_dealer": 3,
            # C holds 4500: pool 7800 + 4500; shares 10542.86 / 1757.14 -> 10543 / 1757; 10% tax, floored.
            "coins": {
                "change": [-7800, 9488, -4500, 1581],
                "house": 1231,
                "balances": [92200, 109488, 0, 101581],
            },
        },
    )


def test_the_api_md_round_reports_how_the_hand_given_as_tiles_scored(client):
    _, result = post(client, COINS_ROUND)
    scored = next(event for event in result["events"] if event["index"] == 2)
    assert_subset(scored["scores"], [{"player": 3, "fan": 3, "multiplier": 4, "pattern": "dui_dui_hu"}])


def test_a_blood_battle_round_with_multi_win_after_a_kong_and_a_flower_pig(client):
    status, result = post(client, BLOOD_BATTLE_ROUND)
    assert status == 200, result
    assert transfers_by_event(result) == sorted(
        [
            (0, 1, 0, 2, "concealed_kong"),
            (0, 2, 0, 2, "concealed_kong"),
            (0, 3, 0, 2, "concealed_kong"),
            (1, 2, 1, 2, "direct_kong"),
            (2, 0, 1, 1, "added_kong"),
            (2, 2, 1, 1, "added_kong"),
            (2, 3, 1, 1, "added_kong"),
            # 一炮多响 on seat 1's discard after his 弯杠: seat 2 平胡 + 杠上炮 = 2 fan, seat 3 entered 3 fan;
            # each winner gets a full copy of the last kong's 3 points (multi_winner_transfer = each).
            (3, 1, 2, 2, "win"),
            (3, 1, 3, 4, "win"),
            (3, 1, 2, 3, "kong_transfer"),
            (3, 1, 3, 3, "kong_transfer"),
            # 流局: seat 1 holds three suits and pays 16 to every non-pig, winners included, then returns the
            # direct kong's 2 he still holds; seat 0 is ready and keeps his.
            (4, 1, 0, 16, "huazhu"),
            (4, 1, 2, 16, "huazhu"),
            (4, 1, 3, 16, "huazhu"),
            (4, 1, 2, 2, "kong_refund"),
        ]
    )
    assert_subset(
        result, {"net": [21, -59, 18, 20], "house": 0, "winners": [2, 3], "finished": True, "next_dealer": 2}
    )
    assert "coins" not in result


def test_the_documented_response_example_is_what_the_api_says(client):
    documented = next(ex.value for ex in SETTLE_EXAMPLES if ex.response_only and ex.status_codes == ["200"])
    status, result = post(client, COINS_ROUND)
    assert status == 200
    assert_subset(result, {key: value for key, value in documented.items() if key != "transfers"})
    assert transfers_by_event(result) == transfers_by_event(documented)


def test_the_documented_error_example_is_what_the_api_says(client):
    documented = next(ex.value for ex in SETTLE_EXAMPLES if ex.status_codes == ["400"])
    self_draw_then_kong = {
        "dealer": 0,
        "events": [
            {"type": "win", "from": None, "winners": [{"player": 3, "fan": 1}]},
            {"type": "kong", "player": 3, "kind": "concealed"},
        ],
    }
    assert post(client, self_draw_then_kong) == (400, documented)


def with_events(*events: dict, **fields: object) -> dict:
    return {"dealer": 0, "events": list(events), **fields}


SELF_DRAW_3 = {"type": "win", "from": None, "winners": [{"player": 3, "fan": 1}]}
DRAW = {
    "type": "draw",
    "players": [
        {"player": 0, "status": "not_ready"},
        {"player": 1, "status": "not_ready"},
        {"player": 2, "status": "not_ready"},
        {"player": 3, "status": "not_ready"},
    ],
}


@pytest.mark.parametrize(
    ("body", "event"),
    [
        pytest.param(
            with_events(SELF_DRAW_3, {"type": "kong", "player": 3, "kind": "concealed"}),
            1,
            id="a-winner-who-acts-again",
        ),
        pytest.param(
            with_events(SELF_DRAW_3, {"type": "win", "from": 3, "winners": [{"player": 0, "fan": 1}]}),
            1,
            id="a-from-that-has-already-won",
        ),
        pytest.param(
            with_events(DRAW, {"type": "kong", "player": 0, "kind": "concealed"}),
            1,
            id="an-event-after-the-round-ended",
        ),
        pytest.param(
            with_events(
                {"type": "kong", "player": 0, "kind": "concealed", "tile": "2m"},
                {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"},
            ),
            1,
            id="a-fifth-copy-across-kongs",
        ),
        pytest.param(
            with_events(
                {"type": "win", "from": 0, "winners": [{"player": p, "fan": 1} for p in (1, 2, 3)]},
                {"type": "win", "from": None, "winners": [{"player": 0, "fan": 1}]},
            ),
            1,
            id="a-fourth-winner",
        ),
        pytest.param(with_events({"type": "pass"}), 0, id="an-unknown-event-type"),
        pytest.param(with_events({"type": "kong", "player": 4, "kind": "concealed"}), 0, id="a-fifth-seat"),
        pytest.param(
            with_events(
                {
                    "type": "win",
                    "from": 0,
                    "winners": [{"player": 1, "hand": {"concealed": "123m456m789m11p2p", "win_tile": "x"}}],
                }
            ),
            0,
            id="a-bad-tile-in-a-winning-hand",
        ),
        pytest.param(
            with_events(
                {"type": "win", "from": None, "after_kong": "yes", "winners": [{"player": 1, "fan": 1}]}
            ),
            0,
            id="after-kong-a-string",
        ),
        pytest.param(
            with_events(
                {"type": "win", "from": None, "junk": "x", "winners": [{"player": 1, "fan": 4, "zzz": 1}]}
            ),
            0,
            id="unknown-keys-in-an-event",
        ),
        pytest.param(
            with_events({"type": "win", "from": None, "winners": [{"player": 1, "fan": 4, "zzz": 1}]}),
            0,
            id="an-unknown-key-in-a-winner",
        ),
        pytest.param(
            with_events(*[{"type": "kong", "player": 0, "kind": "concealed"}] * 9),
            4,
            id="nine-concealed-kongs-by-one-player",
        ),
        pytest.param(
            with_events(
                {"type": "kong", "player": 1, "kind": "added", "tile": "5m"},
                {"type": "win", "from": 1, "robbing_kong": True, "winners": [{"player": 2, "fan": 1}]},
            ),
            1,
            id="a-robbed-kong-recorded-as-a-kong",
        ),
    ],
)
def test_an_impossible_event_is_a_400_naming_its_index(client, body, event):
    status, error = post(client, body)
    assert status == 400, error
    assert error["event"] == event
    assert error["field"].startswith(f"events[{event}]")
    assert error["detail"] and error["detail_zh"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"events": []}, "dealer", id="a-missing-dealer"),
        pytest.param({"dealer": 0}, "events", id="missing-events"),
        pytest.param({"dealer": 0, "events": {"type": "draw"}}, "events", id="events-an-object"),
        pytest.param({"dealer": 7, "events": []}, "dealer", id="a-dealer-out-of-range"),
        pytest.param({"dealer": 0, "events": [], "round": 1}, "round", id="an-unknown-field"),
        pytest.param({**COINS_ROUND, "rules": {"tax_rate": 1.5}}, "rules.tax_rate", id="a-bad-tax-rate"),
        pytest.param([COINS_ROUND], "body", id="an-array-body"),
    ],
)
def test_a_bad_round_body_is_a_400_naming_the_field(client, body, field):
    status, error = post(client, body)
    assert status == 400, error
    assert error["field"] == field
    assert "event" not in error


def test_a_hand_that_does_not_win_is_a_400_on_its_event(client):
    round_ = copy.deepcopy(COINS_ROUND)
    round_["events"][2]["winners"][0]["hand"]["win_tile"] = "4m"
    status, error = post(client, round_)
    assert status == 400
    assert error["event"] == 2
    assert error["field"].startswith("events[2].winners[0].hand")


def test_malformed_json_is_a_400_on_the_body(client):
    response = client.post(SETTLE, data=b'{"dealer": 0, "events": [', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "body"
