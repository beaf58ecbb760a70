"""The round page ``/round/``: events entered one by one, settled again on every post, undone, rejected."""

import html
import json
import re

import pytest
from django.test import Client

HTMX = {"HTTP_HX_REQUEST": "true"}


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def carried(response) -> dict[str, str]:
    """The round as the page hands it back: the hidden fields and the setup, ready to post again."""
    body = response.content.decode()
    fields = {}
    for name in ("events", "notes", "totals", "hand_number", "undone"):
        fields[name] = html.unescape(re.search(rf'name="{name}" value="([^"]*)"', body).group(1))
    fields["dealer"] = re.search(r'name="dealer" value="(\d)" checked', body).group(1)
    for seat in range(4):
        fields[f"name_{seat}"] = html.unescape(
            re.search(rf'name="name_{seat}" value="([^"]*)"', body).group(1)
        )
    return fields


def nets(response) -> list[str]:
    """Each seat's running total as shown, in seat order (signed with + or −)."""
    totals = re.findall(r'class="seat__total[^"]*">\s*([^<]*?)\s*</div>', response.content.decode())
    return [total.replace(" ", "") for total in totals]


class RoundAtTable:
    """A phone at the table: every post carries the round the last page returned."""

    def __init__(self, client: Client, **headers):
        self.client = client
        self.headers = headers
        self.response = client.get("/round/", **headers)
        self.round = carried(self.response)

    def post(self, **fields):
        self.response = self.client.post("/round/", {**self.round, **fields}, **self.headers)
        if self.response.status_code == 200:
            self.round = carried(self.response)
        return self.response

    def events(self) -> list[dict]:
        return json.loads(self.round["events"])


@pytest.fixture
def table() -> RoundAtTable:
    return RoundAtTable(Client(), **HTMX)


def test_the_page_shows_four_seats_in_chinese_with_the_dealer(client):
    response = client.get("/round/")
    assert response.status_code == 200
    text = text_of(response)
    for name in ("东", "南", "西", "北", "庄"):
        assert name in text
    assert nets(response) == ["0", "0", "0", "0"]


def test_a_concealed_kong_is_recorded_in_one_post(table):
    table.post(ev_type="kong", kong_player="1", kong_kind="concealed", action="add")
    assert table.events() == [{"type": "kong", "player": 1, "kind": "concealed"}]
    assert nets(table.response) == ["−2", "+6", "−2", "−2"]
    assert "东、西、北 各付 南 2" in text_of(table.response)


def test_a_full_round_kong_win_and_draw(table):
    table.post(ev_type="kong", kong_player="1", kong_kind="concealed", action="add")
    table.post(
        ev_type="win",
        winner_1="on",
        win_how="self_draw",
        after_kong="on",
        pattern_1="ping_hu",
        gen_1="1",
        action="add",
    )
    # RULES.md example 12: 平胡 + 1 gen + 杠上花 = 3 fan, x4, plus 1 each for the self-draw.
    assert nets(table.response) == ["−7", "+21", "−7", "−7"]
    text = text_of(table.response)
    assert "南 平胡 1 + 1根 + 杠上花 +1 = 3番 ×4" in text
    table.post(
        ev_type="draw", draw_0="huazhu", draw_2="ready", drawfan_2="3", draw_3="not_ready", action="add"
    )
    text = text_of(table.response)
    assert "本手结束" in text and "下一手" in text
    history = text.split("本手记录")[1].split("座位与规则")[0]
    assert "花猪" in history and "查大叫" in history
    assert "退税" not in history, "the kong maker has won: nobody refunds"
    assert len(table.events()) == 3


def test_the_next_hand_keeps_the_totals_and_passes_the_deal(table):
    table.post(ev_type="win", winner_2="on", win_how="discard:1", pattern_2="qing_yi_se", action="add")
    table.post(ev_type="win", winner_3="on", win_how="self_draw", action="add")
    table.post(ev_type="win", winner_0="on", win_how="discard:1", action="add")
    before = nets(table.response)
    table.post(action="next")
    assert table.events() == []
    assert nets(table.response) == before
    assert table.round["dealer"] == "2", "the first winner deals next"
    assert "第 2 手" in text_of(table.response)


def test_undo_removes_the_last_event_only(table):
    table.post(ev_type="kong", kong_player="1", kong_kind="concealed", action="add")
    table.post(ev_type="kong", kong_player="2", kong_kind="added", action="add")
    table.post(action="undo")
    assert table.events() == [{"type": "kong", "player": 1, "kind": "concealed"}]
    assert nets(table.response) == ["−2", "+6", "−2", "−2"]


def test_an_invalid_event_shows_the_engine_message_and_keeps_the_list(table):
    table.post(ev_type="win", winner_1="on", win_how="self_draw", action="add")
    before = table.round["events"]
    table.post(ev_type="kong", kong_player="1", kong_kind="concealed", action="add")
    assert table.response.status_code == 200
    assert 'role="alert"' in table.response.content.decode()
    assert "没有记录" in text_of(table.response)
    assert table.round["events"] == before


def test_a_forgotten_choice_is_named(table):
    table.post(ev_type="kong", kong_player="1", action="add")
    assert "请选哪种杠" in text_of(table.response)
    assert table.events() == []


def test_a_preview_shows_the_payments_without_recording(table):
    table.post(ev_type="win", winner_1="on", win_how="self_draw", pattern_1="qing_yi_se", gen_1="1")
    text = text_of(table.response)
    assert "4番 ×8" in text and "东、西、北 各付 南 8" in text
    assert table.events() == []


def test_a_win_entered_as_tiles_is_scored_by_the_engine(table):
    table.post(
        ev_type="win", winner_3="on", win_how="discard:0", tiles_3="111m333m777p999p8m8m", action="add"
    )
    text = text_of(table.response)
    assert "对对胡 2" in text and "东 付 北 2" in text


def test_seats_can_be_renamed_and_keep_their_names(table):
    table.round.update(name_0="老张", name_1="阿美")
    table.post(ev_type="kong", kong_player="0", kong_kind="direct", kong_from="1", action="add")
    assert "阿美 付 老张 2" in text_of(table.response)
    assert table.round["name_0"] == "老张"


def test_a_plain_post_without_javascript_gets_the_whole_page_and_a_400_on_error(client):
    table = RoundAtTable(client)
    table.post(ev_type="kong", kong_player="1", kong_kind="concealed", action="add")
    assert "<html" in table.response.content.decode()
    assert nets(table.response) == ["−2", "+6", "−2", "−2"]
    response = table.post(ev_type="win", winner_1="on", winner_2="on", win_how="self_draw", action="add")
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()


def test_the_round_page_speaks_english(client):
    table = RoundAtTable(client, HTTP_ACCEPT_LANGUAGE="en")
    table.post(ev_type="kong", kong_player="1", kong_kind="concealed", action="add")
    text = text_of(table.response)
    assert "East, West, North each pay South 2" in text
    assert "Undo" in text


@pytest.mark.parametrize(
    "events",
    [
        pytest.param("not json", id="not_json"),
        pytest.param('{"type": "kong"}', id="not_a_list"),
        pytest.param('[{"type": "kong", "player": 9, "kind": "concealed"}]', id="bad_seat"),
        pytest.param("[" * 100_000 + "]" * 100_000, id="deeply_nested"),
    ],
)
def test_a_tampered_round_never_crashes(client, events):
    response = client.post("/round/", {"events": events, "dealer": "0"}, **HTMX)
    assert response.status_code == 200


def record(table, *events):
    for event in events:
        table.post(action="add", **event)


SOUTH_KONG = {"ev_type": "kong", "kong_player": "1", "kong_kind": "concealed"}
EAST_FEEDS_SOUTH_AND_WEST = {"ev_type": "win", "winner_1": "on", "winner_2": "on", "win_how": "discard:0"}
NORTH_SELF_DRAWS_A_FLUSH = {
    "ev_type": "win",
    "winner_3": "on",
    "win_how": "self_draw",
    "pattern_3": "qing_yi_se",
}
DRAW_EAST_PIG_SOUTH_READY = {
    "ev_type": "draw",
    "draw_0": "huazhu",
    "draw_1": "ready",
    "drawfan_1": "3",
    "draw_2": "not_ready",
    "draw_3": "not_ready",
}


@pytest.mark.parametrize(
    ("events", "reason"),
    [
        pytest.param(
            (SOUTH_KONG, EAST_FEEDS_SOUTH_AND_WEST, NORTH_SELF_DRAWS_A_FLUSH),
            "三家已胡，本手结束：最后一家不查花猪、不查叫。",
            id="three_winners",
        ),
        pytest.param((DRAW_EAST_PIG_SOUTH_READY,), "牌摸完了：已查花猪、查大叫并退税。", id="draw"),
        pytest.param(({"ev_type": "escape", "escape_player": "2"},), "西 逃跑，本手结束。", id="escape"),
    ],
)
def test_the_end_card_says_why_the_hand_is_over(table, events, reason):
    record(table, *events)
    assert "本手结束" in text_of(table.response)
    assert reason in text_of(table.response)


def test_an_unfinished_hand_has_no_end_reason(table):
    record(table, SOUTH_KONG)
    assert "endcard__why" not in table.response.content.decode()


@pytest.mark.parametrize(
    ("tiles_left", "title"),
    [
        pytest.param("", "西 逃跑 ", id="not_counted_says_no_number"),
        pytest.param("12", "西 逃跑（剩 12 张）", id="counted"),
    ],
)
def test_an_escape_names_the_tiles_left_only_when_counted(table, tiles_left, title):
    record(table, {"ev_type": "escape", "escape_player": "2", "tiles_left": tiles_left})
    text = text_of(table.response)
    assert title in text
    assert "99" not in text


def test_redo_puts_back_what_undo_took_in_order(table):
    record(table, SOUTH_KONG, EAST_FEEDS_SOUTH_AND_WEST, NORTH_SELF_DRAWS_A_FLUSH)
    finished = table.events()
    assert nets(table.response) == ["−9", "+7", "−1", "+3"]
    table.post(action="undo")
    table.post(action="undo")
    assert len(table.events()) == 1
    assert "重做" in text_of(table.response)
    table.post(action="redo")
    assert table.events() == finished[:2]
    table.post(action="redo")
    assert table.events() == finished
    assert nets(table.response) == ["−9", "+7", "−1", "+3"]
    assert "三家已胡" in text_of(table.response)
    assert 'value="redo"' not in table.response.content.decode()


def test_a_new_event_forgets_what_was_undone(table):
    record(table, SOUTH_KONG)
    table.post(action="undo")
    record(table, {"ev_type": "kong", "kong_player": "2", "kong_kind": "concealed"})
    assert 'value="redo"' not in table.response.content.decode()
    table.post(action="redo")
    assert table.events() == [{"type": "kong", "player": 2, "kind": "concealed"}]


def test_a_redo_the_engine_refuses_shows_its_message_and_keeps_the_list(table):
    record(table, SOUTH_KONG, {"ev_type": "escape", "escape_player": "2"})
    table.post(action="undo")
    table.post(action="undo")
    table.post(dealer="1")  # another setup: the undone events wait, still valid
    assert 'value="redo"' in table.response.content.decode()
    tampered = json.dumps([[{"type": "kong", "player": 7, "kind": "concealed"}, ""]])
    response = table.client.post("/round/", {**table.round, "undone": tampered, "action": "redo"}, **HTMX)
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert json.loads(carried(response)["events"]) == []


@pytest.mark.parametrize("how", ["discard", "robbing"])
def test_a_seat_ticked_as_winner_is_not_offered_as_the_discarder(table, how):
    body = table.post(ev_type="win", winner_1="on", winner_2="on").content.decode()
    for seat, disabled in (("0", False), ("1", True), ("2", True), ("3", False)):
        tag = re.search(rf'<input type="radio" name="win_how" value="{how}:{seat}"[^>]*>', body).group(0)
        assert ("disabled" in tag) is disabled, tag


@pytest.mark.parametrize(
    ("dealer", "winner", "allowed", "refused"),
    [
        pytest.param("0", "0", "tian_hu", "di_hu", id="the_dealer_may_only_have_tian_hu"),
        pytest.param("0", "2", "di_hu", "tian_hu", id="a_non_dealer_may_only_have_di_hu"),
        pytest.param("2", "2", "tian_hu", "di_hu", id="follows_the_dealer_chosen"),
    ],
)
def test_heavenly_and_earthly_hands_are_offered_to_the_right_seat(table, dealer, winner, allowed, refused):
    """RULES.md 3: 天胡 is the dealer's first 14 tiles, 地胡 a non-dealer's first go-around."""
    body = table.post(ev_type="win", dealer=dealer, **{f"winner_{winner}": "on"}).content.decode()

    def tag(value):
        return re.search(rf'<input type="radio" name="tiandi_{winner}" value="{value}"[^>]*>', body).group(0)

    assert "disabled" not in tag(allowed)
    assert "disabled" in tag(refused)


def test_robbing_an_added_kong_just_recorded_voids_it_rules_example_14(table):
    """RULES.md 4.5 and example 14: B adds 5p, C robs it with 平胡: 2 fan, no kong money."""
    record(table, {"ev_type": "kong", "kong_player": "1", "kong_kind": "added"})
    assert nets(table.response) == ["−1", "+3", "−1", "−1"]
    record(table, {"ev_type": "win", "winner_2": "on", "win_how": "robbing:1"})
    assert nets(table.response) == ["0", "−2", "+2", "0"]
    assert [event["type"] for event in table.events()] == ["win"]


@pytest.mark.parametrize(
    "kong",
    [
        pytest.param({"ev_type": "kong", "kong_player": "3", "kong_kind": "added"}, id="another_seat_s_kong"),
        pytest.param({"ev_type": "kong", "kong_player": "1", "kong_kind": "concealed"}, id="concealed_kong"),
    ],
)
def test_robbing_keeps_kongs_that_are_not_the_robbed_one(table, kong):
    record(table, kong, {"ev_type": "win", "winner_2": "on", "win_how": "robbing:1"})
    assert [event["type"] for event in table.events()] == ["kong", "win"]


def test_one_payer_paying_several_the_same_is_one_sentence(table):
    record(
        table,
        SOUTH_KONG,
        {"ev_type": "win", "winner_0": "on", "win_how": "self_draw"},
        {"ev_type": "draw", "draw_1": "not_ready", "draw_2": "ready", "drawfan_2": "2", "draw_3": "huazhu"},
    )
    text = text_of(table.response)
    assert "花猪 北 付 东、南、西 各 16" in text
    assert "退税 南 付 东、西、北 各 2" in text
    assert "查大叫 南 付 西 2" in text
    assert "暗杠 东、西、北 各付 南 2" in text
    assert nets(table.response) == ["+22", "+12", "+16", "−50"]


def test_one_discard_two_winners_of_the_same_fan_is_one_sentence(table):
    record(table, EAST_FEEDS_SOUTH_AND_WEST)
    assert "胡 东 付 南、西 各 1" in text_of(table.response)


@pytest.mark.parametrize(
    "value", [pytest.param("²", id="superscript-digit"), pytest.param("9" * 5000, id="huge")]
)
@pytest.mark.parametrize("field", ["hand_number", "gen_1", "tiles_left", "drawfan_0"])
def test_a_hostile_number_in_any_box_never_crashes(table, field, value):
    assert table.post(action="add", ev_type="escape", escape_player="1", **{field: value}).status_code < 500
    assert (
        table.post(
            action="preview", ev_type="win", winner_1="on", win_how="self", **{field: value}
        ).status_code
        < 500
    )
