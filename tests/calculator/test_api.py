"""The stateless calculator API: API.md's examples, every kind of bad input as a 400 naming its field."""

import json

import pytest
from django.test import Client

from calculator.api import SCORE_EXAMPLES, WAITS_EXAMPLES
from calculator.engine import OPTIONS, Preset
from calculator.engine.requests import _cached_rules, rules_from

SCORE = "/api/v1/score/"
WAITS = "/api/v1/waits/"
RULES = "/api/v1/rules/"

API_MD_SCORE_RESPONSE = {
    "win": True,
    "fan": 3,
    "multiplier": 4,
    "points": 4,
    "capped": False,
    "pattern": {"key": "qing_yi_se", "name": "清一色", "fan": 3},
    "gen": 0,
    "extras": [],
    "sets": ["11s", "222s", "333s", "456s", "999s"],
}
FULL_FLUSH = {"concealed": "11s333s222s456s99s", "win_tile": "9s"}


@pytest.fixture
def client() -> Client:
    # CSRF enforced as a browser would see it: the calculators must work without a token.
    return Client(enforce_csrf_checks=True)


def assert_subset(actual: object, expected: object, path: str = "") -> None:
    """Everything ``expected`` names is in ``actual``: API.md lets fields be added, never dropped."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} is missing"
            assert_subset(actual[key], value, f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: {actual!r}"
        assert len(actual) == len(expected), f"{path}: {actual!r}"
        for index, (mine, theirs) in enumerate(zip(actual, expected, strict=True)):
            assert_subset(mine, theirs, f"{path}[{index}]")
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def post(client: Client, url: str, body: object) -> tuple[int, dict]:
    response = client.post(url, data=json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def test_it_scores_the_api_md_example_hand(client):
    body = {
        **FULL_FLUSH,
        "win_by": "discard",
        "after_kong": False,
        "last_tile": False,
        "tian_hu": False,
        "di_hu": False,
        "void_suit": None,
        "rules": {"preset": "chengdu", "cap_multiplier": 16},
    }
    status, result = post(client, SCORE, body)
    assert status == 200
    assert_subset(result, API_MD_SCORE_RESPONSE)


def test_the_api_md_example_taken_literally_has_a_meld_too_many(client):
    """API.md's request also lists a 5p pung: 13 + 3 + 1 = 17 tiles, so the hand is rejected, not scored."""
    status, body = post(client, SCORE, {**FULL_FLUSH, "melds": [{"kind": "pung", "tile": "5p"}]})
    assert status == 400
    assert body["field"] == "concealed"


def test_the_minimal_body_takes_every_default(client):
    status, result = post(client, SCORE, FULL_FLUSH)
    assert status == 200
    assert_subset(result, API_MD_SCORE_RESPONSE)


@pytest.mark.parametrize(
    ("body", "key", "fan", "multiplier"),
    [
        pytest.param({"concealed": "11224466万55773筒", "win_tile": "3p"}, "qi_dui", 3, 4, id="seven-pairs"),
        pytest.param(
            {"concealed": "11222244p55779m", "win_tile": "9m"}, "long_qi_dui", 5, 16, id="dragon-pairs"
        ),
        pytest.param(
            {"concealed": "111222333m789p9p", "win_tile": "9p"}, "dai_yao_jiu", 3, 4, id="runs-not-pungs"
        ),
        pytest.param(
            {
                "concealed": ["1m", "1m", "1m", "3m", "3m", "3m", "9m"],
                "win_tile": "9m",
                "melds": [{"kind": "kong_direct", "tile": "5p"}, {"kind": "pung", "tile": "7p"}],
            },
            "dui_dui_hu",
            3,
            4,
            id="tiles-as-a-list-with-melds",
        ),
    ],
)
def test_it_scores_hands_of_rules_md(client, body, key, fan, multiplier):
    status, result = post(client, SCORE, body)
    assert status == 200
    assert (result["win"], result["pattern"]["key"], result["fan"], result["multiplier"]) == (
        True,
        key,
        fan,
        multiplier,
    )


def test_a_self_draw_after_a_kong_adds_gang_shang_hua(client):
    body = {
        "concealed": "123s678s234m2m",
        "melds": [{"kind": "kong_concealed", "tile": "5s"}],
        "win_tile": "2m",
        "win_by": "self_draw",
        "after_kong": True,
    }
    status, result = post(client, SCORE, body)
    assert status == 200
    assert (result["fan"], result["gen"], [extra["key"] for extra in result["extras"]]) == (
        3,
        1,
        ["gang_shang_hua"],
    )


def test_gang_shang_hua_without_a_kong_in_the_melds_is_a_400_on_after_kong(client):
    body = {**FULL_FLUSH, "win_by": "self_draw", "after_kong": True}
    status, result = post(client, SCORE, body)
    assert (status, result["field"]) == (400, "after_kong")


def test_the_cap_lowers_points_but_not_fan(client):
    body = {"concealed": "1122444455779m", "win_tile": "9m", "rules": {"cap_multiplier": 8}}
    status, result = post(client, SCORE, body)
    assert status == 200
    assert (result["fan"], result["multiplier"], result["points"], result["capped"]) == (6, 32, 8, True)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"concealed": "123m456p789s11s23m", "win_tile": "4m"}, id="three-suits"),
        pytest.param(
            {"concealed": "123m456m789m11p23p", "win_tile": "4p", "void_suit": "p"}, id="holds-void-suit"
        ),
        pytest.param(
            {
                "concealed": "123m456m789m2m",
                "win_tile": "2m",
                "melds": [{"kind": "kong_direct", "tile": "5p"}],
                "void_suit": "p",
            },
            id="a-kong-in-the-void-suit",
        ),
        pytest.param({"concealed": "1357m2468p1357m9p", "win_tile": "9m"}, id="no-shape"),
    ],
)
def test_valid_tiles_that_do_not_win_are_a_200_with_a_reason(client, body):
    status, result = post(client, SCORE, body)
    assert status == 200
    assert result["win"] is False
    assert isinstance(result["reason"], str)
    assert result["reason"]


def invalid(body: object, field: str, id: str) -> pytest.param:
    return pytest.param(body, field, id=id)


INVALID_SCORE_BODIES = [
    invalid({"concealed": "123x456m789m11p2p", "win_tile": "2p"}, "concealed", "unknown-character"),
    invalid({"concealed": "023m456m789m11p2p", "win_tile": "2p"}, "concealed", "a-rank-zero"),
    invalid({"concealed": "123m456m789m11p2", "win_tile": "2p"}, "concealed", "digits-without-a-suit-at-end"),
    invalid({"concealed": "123m456m789m11p234p", "win_tile": "2p"}, "concealed", "a-fifteenth-tile"),
    invalid({"concealed": "123m456m789m11p", "win_tile": "2p"}, "concealed", "too-few-tiles"),
    invalid({"concealed": "11111m456m789m12p", "win_tile": "1p"}, "concealed", "a-fifth-copy"),
    invalid({"concealed": "123m456m789m11p2p"}, "win_tile", "a-missing-winning-tile"),
    invalid({"concealed": "123m456m789m11p2p", "win_tile": None}, "win_tile", "a-null-winning-tile"),
    invalid({"concealed": "123m456m789m11p2p", "win_tile": "2p3p"}, "win_tile", "two-winning-tiles"),
    invalid({"win_tile": "2p"}, "concealed", "a-missing-concealed"),
    invalid(
        {"concealed": "123m456m789m2p", "win_tile": "2p", "melds": [{"kind": "chow", "tile": "1m"}]},
        "melds[0].kind",
        "an-unknown-meld-kind",
    ),
    invalid(
        {"concealed": "123m456m789m2p", "win_tile": "2p", "melds": [{"kind": "pung", "tile": "0m"}]},
        "melds[0].tile",
        "a-meld-tile-that-is-no-tile",
    ),
    invalid(
        {"concealed": "123m456m789m2p", "win_tile": "2p", "melds": [{"kind": "pung"}]},
        "melds[0].tile",
        "a-meld-without-a-tile",
    ),
    invalid(
        {"concealed": "123m456m789m2p", "win_tile": "2p", "melds": {"kind": "pung", "tile": "1s"}},
        "melds",
        "melds-an-object",
    ),
    invalid({"concealed": 123456, "win_tile": "2p"}, "concealed", "concealed-a-number"),
    invalid({**FULL_FLUSH, "after_kong": "false"}, "after_kong", "after-kong-a-string"),
    invalid({**FULL_FLUSH, "last_tile": 1}, "last_tile", "last-tile-a-number"),
    invalid({**FULL_FLUSH, "rules": ["chengdu"]}, "rules", "rules-a-list"),
    invalid({**FULL_FLUSH, "rules": {"preset": "tokyo"}}, "rules.preset", "an-unknown-preset"),
    invalid({**FULL_FLUSH, "rules": {"fan_cap": 3}}, "rules.fan_cap", "an-unknown-option"),
    invalid(
        {**FULL_FLUSH, "rules": {"cap_multiplier": 10}}, "rules.cap_multiplier", "a-cap-not-a-power-of-two"
    ),
    invalid({**FULL_FLUSH, "rules": {"zimo_bonus": "double"}}, "rules.zimo_bonus", "a-bad-choice"),
    invalid(
        {**FULL_FLUSH, "rules": {"pattern_fan": {"bogus": 2}}}, "rules.pattern_fan.bogus", "unknown-pattern"
    ),
    invalid({**FULL_FLUSH, "void_suit": "z"}, "void_suit", "a-bad-void-suit"),
    invalid({**FULL_FLUSH, "win_by": "ron"}, "win_by", "a-bad-win-by"),
    invalid({**FULL_FLUSH, "winning_tile": "9s"}, "winning_tile", "an-unknown-top-level-field"),
    invalid([FULL_FLUSH], "body", "a-json-array-body"),
    invalid("11s333s222s456s99s", "body", "a-json-string-body"),
    invalid(42, "body", "a-json-number-body"),
    invalid(None, "body", "a-json-null-body"),
]


@pytest.mark.parametrize(("body", "field"), INVALID_SCORE_BODIES)
def test_invalid_input_is_a_400_naming_the_field(client, body, field):
    status, error = post(client, SCORE, body)
    assert status == 400
    assert_error(error, field)


def assert_error(error: dict, field: str) -> None:
    assert error["field"] == field, error
    assert error["detail"]
    assert error["detail_zh"]
    assert error["errors"] == {field: [error["detail"]]}


@pytest.mark.parametrize(
    ("raw", "content_type", "field"),
    [
        pytest.param(
            b'{"concealed": "11s333s222s456s99s", "win_tile": ',
            "application/json",
            "body",
            id="malformed-json",
        ),
        pytest.param(b"", "application/json", "concealed", id="an-empty-body"),
        pytest.param(b"\xff\xfe", "application/json", "body", id="not-utf-8"),
        pytest.param(
            b'{"concealed": NaN, "win_tile": "9s"}', "application/json", "body", id="nan-is-not-json"
        ),
        pytest.param(b"", "application/json; charset=utf-8", "concealed", id="empty-with-a-charset"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_a_400(client, raw, content_type, field):
    response = client.post(SCORE, data=raw, content_type=content_type)
    assert response.status_code == 400
    assert_error(response.json(), field)


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        pytest.param("get", SCORE, 405, id="get-score"),
        pytest.param("put", WAITS, 405, id="put-waits"),
        pytest.param("post", RULES, 405, id="post-rules"),
    ],
)
def test_a_wrong_method_is_a_405_not_a_500(client, method, url, status):
    assert getattr(client, method)(url).status_code == status


def test_a_form_post_is_a_415(client):
    assert client.post(SCORE, data={"concealed": "1m"}).status_code == 415


def test_a_plain_text_body_is_a_415(client):
    assert client.post(SCORE, data=json.dumps(FULL_FLUSH), content_type="text/plain").status_code == 415


def test_a_json_body_with_a_charset_is_read(client):
    response = client.post(SCORE, data=json.dumps(FULL_FLUSH), content_type="application/json; charset=utf-8")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()["pattern"]["key"] == "qing_yi_se"


def test_the_response_is_utf_8_json_not_escaped(client):
    response = client.post(SCORE, data=json.dumps(FULL_FLUSH), content_type="application/json")
    assert "清一色".encode() in response.content


def test_waits_of_a_thirteen_tile_position(client):
    status, result = post(client, WAITS, {"concealed": "1122334455667m"})
    assert status == 200
    assert result["ready"] is True
    assert result["huazhu"] is False
    assert_subset(
        result["best"], {"tile": "7m", "fan": 5, "multiplier": 16, "points": 16, "pattern": "qing_qi_dui"}
    )
    waits = {wait["tile"]: wait for wait in result["waits"]}
    assert_subset(
        waits["1m"], {"tile": "1m", "fan": 3, "multiplier": 4, "points": 4, "pattern": "qing_yi_se"}
    )
    assert "discards" not in result


def test_waits_of_a_fourteen_tile_position_list_the_discards(client):
    status, result = post(client, WAITS, {"concealed": "11223344556678m"})
    assert status == 200
    assert result["ready"] is True
    discards = {entry["discard"]: entry["waits"] for entry in result["discards"]}
    assert "8m" in discards  # discarding 8m leaves 1122334455667m
    assert result["best"]["fan"] == max(wait["fan"] for waits in discards.values() for wait in waits)


def test_a_position_that_is_not_ready_has_no_best(client):
    status, result = post(client, WAITS, {"concealed": "1357m2468p1357m9p"})
    assert status == 200
    assert (result["ready"], result["waits"], result["best"]) == (False, [], None)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({}, "concealed", id="missing-concealed"),
        pytest.param(
            {"concealed": "1122334455667m", "win_tile": "7m"}, "win_tile", id="score-field-in-waits"
        ),
        pytest.param({"concealed": "1122334455667m", "void_suit": 3}, "void_suit", id="bad-void-suit"),
        pytest.param({"concealed": "112233445566m"}, "concealed", id="twelve-tiles"),
        pytest.param(
            {"concealed": "1122334455667m", "rules": {"dingque": "yes"}}, "rules.dingque", id="bad-bool"
        ),
        pytest.param(["1122334455667m"], "body", id="array-body"),
    ],
)
def test_invalid_waits_input_is_a_400_naming_the_field(client, body, field):
    status, error = post(client, WAITS, body)
    assert status == 400
    assert_error(error, field)


def test_rules_lists_every_option_and_every_preset(client):
    response = client.get(RULES)
    assert response.status_code == 200
    body = response.json()
    assert [option["key"] for option in body["options"]] == [option.key for option in OPTIONS]
    assert all(option["meaning"] and option["meaning_zh"] for option in body["options"])
    assert set(body["presets"]) == {preset.value for preset in Preset}
    for name, values in body["presets"].items():
        assert values["preset"] == name
        assert set(values) == {"preset", *(option.key for option in OPTIONS)}
    assert body["presets"]["qq"]["base_points"] == 6


def examples_of(examples, *, response: bool) -> dict:
    return {
        ex.name: ex.value
        for ex in examples
        if ex.response_only == response and ex.status_codes in (None, ["200"])
    }


@pytest.mark.parametrize(
    ("url", "examples"),
    [pytest.param(SCORE, SCORE_EXAMPLES, id="score"), pytest.param(WAITS, WAITS_EXAMPLES, id="waits")],
)
def test_every_documented_example_gives_its_documented_answer(client, url, examples):
    responses = examples_of(examples, response=True)
    for name, body in examples_of(examples, response=False).items():
        status, result = post(client, url, body)
        assert status == 200, (name, result)
        if name in responses:
            assert result == responses[name], name


def test_the_documented_error_example_is_what_the_api_says(client):
    documented = next(ex.value for ex in SCORE_EXAMPLES if ex.status_codes == ["400"])
    status, error = post(client, SCORE, {"concealed": "123x456m789m11p2p", "win_tile": "2p"})
    assert (status, error) == (400, documented)


def test_a_padded_rules_object_is_read_but_not_cached():
    padded = {"tax_rate": "0." + "0" * 5000 + "1"}
    before = _cached_rules.cache_info().currsize
    assert rules_from(padded).tax_rate > 0
    assert _cached_rules.cache_info().currsize == before
    assert rules_from({"preset": "qq"}) is rules_from({"preset": "qq"})
