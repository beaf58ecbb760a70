"""Issue 7: the same bad hand or round gets the same message on the page and in the API (and, for the
calculator, the same field), because both hand it to the same engine parser."""

import html
import json
import re

import pytest

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def page_alert(response) -> str:
    """The message of the page's alert, without its heading."""
    body = response.content.decode()
    alert = re.search(r'role="alert">(.*?)</div>', body, re.S).group(1)
    alert = re.sub(r"<strong>.*?</strong>", "", alert, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", alert))).strip()


def invalid_field(response) -> str:
    found = re.search(r'name="(\w+)"[^>]*class="[^"]*invalid', response.content.decode())
    return found.group(1) if found else ""


def api(client, path: str, body: dict) -> dict:
    response = client.post(path, json.dumps(body), content_type="application/json", **ZH)
    assert response.status_code == 400, response.content
    return response.json()


HANDS = [
    pytest.param(
        {"concealed": "123m456p789s11sx", "win_tile": "1s"},
        {"concealed": "123m456p789s11sx", "win_tile": "1s"},
        id="not_a_tile",
    ),
    pytest.param(
        {"concealed": "123m456m789m11s222s", "win_tile": "2s"},
        {"concealed": "123m456m789m11s222s", "win_tile": "2s"},
        id="too_many_tiles",
    ),
    pytest.param(
        {"concealed": "1111m22223333m4m", "win_tile": "1m"},
        {"concealed": "1111m22223333m4m", "win_tile": "1m"},
        id="fifth_copy",
    ),
    pytest.param(
        {"concealed": "11s333s222s456s99s", "win_tile": "9s", "preset": "vegas"},
        {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rules": {"preset": "vegas"}},
        id="unknown_preset",
    ),
    pytest.param(
        {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rule_cap_multiplier": "3"},
        {
            "concealed": "11s333s222s456s99s",
            "win_tile": "9s",
            "rules": {"preset": "chengdu", "cap_multiplier": 3},
        },
        id="bad_option",
    ),
    pytest.param(
        {"concealed": "11s333s222s456s99s", "win_tile": "9s", "void_suit": "x"},
        {"concealed": "11s333s222s456s99s", "win_tile": "9s", "void_suit": "x"},
        id="bad_void_suit",
    ),
]


@pytest.mark.parametrize(("fields", "body"), HANDS)
def test_a_bad_hand_gets_the_same_field_and_message_on_the_calculator_and_in_the_api(client, fields, body):
    refusal = api(client, "/api/v1/score/", body)
    fragment = client.post("/", fields, **HTMX, **ZH)
    assert page_alert(fragment) == refusal["detail_zh"]
    page = client.post("/", fields, **ZH)
    assert page.status_code == 400
    top = refusal["field"].split(".")[0].split("[")[0]
    if top in ("concealed", "win_tile", "melds"):
        assert invalid_field(page) == top


ROUNDS = [
    pytest.param(
        [
            {"ev_type": "win", "winner_1": "on", "win_how": "self_draw"},
            {"ev_type": "kong", "kong_player": "1", "kong_kind": "concealed"},
        ],
        [
            {
                "type": "win",
                "from": None,
                "after_kong": False,
                "last_tile": False,
                "winners": [{"player": 1, "fan": 1}],
            },
            {"type": "kong", "player": 1, "kind": "concealed"},
        ],
        id="a_winner_acts_again",
    ),
    pytest.param(
        [
            {
                "ev_type": "win",
                "winner_1": "on",
                "win_how": "self_draw",
                "after_kong": "on",
                "tiles_1": "11s333s222s456s999s",
            }
        ],
        [
            {
                "type": "win",
                "from": None,
                "after_kong": True,
                "last_tile": False,
                "winners": [
                    {"player": 1, "hand": {"concealed": "11s333s222s456s99s", "melds": [], "win_tile": "9s"}}
                ],
            }
        ],
        id="after_a_kong_with_no_kong",
    ),
    pytest.param(
        [{"ev_type": "win", "winner_1": "on", "winner_2": "on", "win_how": "self_draw"}],
        [
            {
                "type": "win",
                "from": None,
                "after_kong": False,
                "last_tile": False,
                "winners": [{"player": 1, "fan": 1}, {"player": 2, "fan": 1}],
            }
        ],
        id="two_self_draws",
    ),
    pytest.param(
        [{"ev_type": "kong", "kong_player": "1", "kong_kind": "direct", "kong_from": "1"}],
        [{"type": "kong", "player": 1, "kind": "direct", "from": 1}],
        id="fed_by_oneself",
    ),
]


# The round page's seats when nobody is named: a page names a seat by its player where the API keeps the
# seat's number (EngineError.localized with the names; issue 18, point 5).
SEAT_NAMES = ("东", "南", "西", "北")


def named(detail_zh: str) -> str:
    return re.sub(r"玩家 (\d) ?", lambda seat: SEAT_NAMES[int(seat.group(1))], detail_zh)


@pytest.mark.parametrize(("taps", "events"), ROUNDS)
def test_a_bad_round_gets_the_same_message_on_the_round_page_and_in_the_api(client, taps, events):
    refusal = api(client, "/api/v1/settle/", {"dealer": 0, "rules": {"preset": "chengdu"}, "events": events})
    client.get("/round/")
    for number, tap in enumerate(taps):
        revision = str(number)
        response = client.post("/round/", {"action": "record", "revision": revision, **tap}, **HTMX, **ZH)
    assert page_alert(response) == named(refusal["detail_zh"])
