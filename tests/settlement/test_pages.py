"""The round page ``/round/``: a table's evening kept in the Django session, entered through web.entry."""

import re

import pytest
from django.test import Client

from web.entry.evening import EveningStore

pytestmark = pytest.mark.django_db  # the evening lives in the Django session

HTMX = {"HTTP_HX_REQUEST": "true"}


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def nets(response) -> list[str]:
    """Each seat's running total as shown, in seat order (signed with + or −)."""
    body = response.content.decode()
    totals = re.findall(r'class="seat__total"><span class="signed[^"]*">([^<]*)</span>', body)
    return [total.replace(" ", "") for total in totals]


class RoundAtTable:
    """A phone at the table: the evening lives in its session; every post carries the hand's revision."""

    def __init__(self, client: Client, **headers):
        self.client = client
        self.headers = headers
        self.response = client.get("/round/", **headers)

    def store(self) -> EveningStore:
        return EveningStore(self.client.session)

    def post(self, **fields):
        body = {"revision": str(self.store().load().revision), **fields}
        self.response = self.client.post("/round/", body, **self.headers)
        return self.response

    def page(self, **headers):
        return self.client.get("/round/", **headers)

    def events(self) -> list[dict]:
        return list(self.store().load().events)


@pytest.fixture
def table() -> RoundAtTable:
    return RoundAtTable(Client(), **HTMX)


def record(table, *events):
    for event in events:
        table.post(action="record", **event)


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
    "drawpattern_1": "qing_yi_se",
    "draw_2": "not_ready",
    "draw_3": "not_ready",
}


def test_the_page_shows_four_seats_in_chinese_with_the_dealer(client):
    response = client.get("/round/")
    assert response.status_code == 200
    text = text_of(response)
    for name in ("东", "南", "西", "北", "庄"):
        assert name in text
    assert nets(response) == ["0", "0", "0", "0"]


def test_a_concealed_kong_is_recorded_in_one_post(table):
    response = table.post(action="record", **SOUTH_KONG)
    assert table.events() == [{"type": "kong", "player": 1, "kind": "concealed"}]
    assert nets(response) == ["−2", "+6", "−2", "−2"]
    assert "东、西、北 各付 南 2" in text_of(response)


def test_a_tap_answers_with_the_part_that_changed_not_the_board(table):
    """Issue 8: at most 15 KB for a tap; the form (chips, picker) is never sent again."""
    full = table.client.get("/round/").content
    preview = table.post(action="preview", ev_type="win", winner_1="on", win_how="self_draw").content
    recorded = table.post(action="record", **SOUTH_KONG).content
    for answer in (preview, recorded):
        assert len(answer) <= 15_000, len(answer)
        assert b'name="pattern_1"' not in answer and b'class="pick"' not in answer
    assert len(full) > 4 * len(recorded)
    assert b'hx-swap-oob="true"' in recorded and b'id="entry-seats"' in recorded


def test_the_evening_survives_a_reload_and_the_language_switch(table):
    record(table, SOUTH_KONG)
    page = table.client.get("/round/")
    assert nets(page) == ["−2", "+6", "−2", "−2"]
    english = table.client.get("/round/", HTTP_ACCEPT_LANGUAGE="en")
    assert "East, West, North each pay South 2" in text_of(english)


def test_a_full_round_kong_win_and_draw(table):
    record(table, SOUTH_KONG)
    response = table.post(
        action="record",
        ev_type="win",
        winner_1="on",
        win_how="self_draw",
        after_kong="on",
        pattern_1="ping_hu",
        gen_1="1",
    )
    # RULES.md example 12: 平胡 + 1 gen + 杠上花 = 3 fan, x4, plus 1 each for the self-draw.
    assert nets(response) == ["−7", "+21", "−7", "−7"]
    assert "南 平胡 1 + 1根 + 杠上花 +1 = 3番 ×4" in text_of(response)
    response = table.post(
        action="record",
        ev_type="draw",
        draw_0="huazhu",
        draw_2="ready",
        drawpattern_2="qing_yi_se",
        draw_3="not_ready",
    )
    text = text_of(response)
    assert "第 1 手结束" in text and "下一手" in text
    assert "花猪" in text and "查大叫" in text
    assert "西 有叫 清一色 3 = 3番" in text
    assert '<span class="reason">退税</span>' not in response.content.decode(), "the kong maker has won"
    assert len(table.events()) == 3


def test_two_winners_on_one_discard_each_get_their_own_explanation(table):
    """Issue 8: 西 discards to 南 清一色 + 1根 and 北 平胡; play order from 西 is 北 then 南."""
    response = table.post(
        action="record",
        ev_type="win",
        winner_1="on",
        winner_3="on",
        win_how="discard:2",
        pattern_1="qing_yi_se",
        gen_1="1",
        pattern_3="ping_hu",
    )
    text = text_of(response)
    assert "南 清一色 3 + 1根 = 4番 ×8" in text
    assert "北 平胡 1 = 1番 ×1" in text


def test_the_next_hand_keeps_the_totals_and_passes_the_deal(table):
    record(
        table,
        {"ev_type": "win", "winner_2": "on", "win_how": "discard:1", "pattern_2": "qing_yi_se"},
        {"ev_type": "win", "winner_3": "on", "win_how": "self_draw"},
        {"ev_type": "win", "winner_0": "on", "win_how": "discard:1"},
    )
    before = nets(table.response)
    response = table.post(action="next")
    assert table.events() == []
    assert nets(response) == before
    assert table.store().load().dealer == 2, "the first winner deals next"
    assert "第 2 手" in text_of(response)
    assert len(table.store().finished_hands()) == 1


def test_undo_removes_the_last_event_only(table):
    record(table, SOUTH_KONG, {"ev_type": "kong", "kong_player": "2", "kong_kind": "added"})
    response = table.post(action="undo")
    assert table.events() == [{"type": "kong", "player": 1, "kind": "concealed"}]
    assert nets(response) == ["−2", "+6", "−2", "−2"]


def test_an_invalid_event_shows_the_engine_message_and_keeps_the_list(table):
    record(table, {"ev_type": "win", "winner_1": "on", "win_how": "self_draw"})
    before = table.events()
    response = table.post(action="record", **SOUTH_KONG)
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "没有记录" in text_of(response)
    assert table.events() == before


def test_record_with_nothing_chosen_says_what_is_missing(table):
    response = table.post(action="record")
    assert "请选发生了什么：杠、胡、流局、逃跑或罚分。" in text_of(response)
    response = table.post(action="record", ev_type="kong", kong_player="1")
    assert "请选哪种杠" in text_of(response)
    assert table.events() == []


def test_a_preview_shows_the_payments_without_recording(table):
    response = table.post(
        action="preview", ev_type="win", winner_1="on", win_how="self_draw", pattern_1="qing_yi_se", gen_1="1"
    )
    text = text_of(response)
    assert "4番 ×8" in text and "南 +27" in text
    assert table.events() == []


def test_a_win_entered_as_tiles_is_scored_by_the_engine(table):
    response = table.post(
        action="record", ev_type="win", winner_3="on", win_how="discard:0", tiles_3="111m333m777p999p8m8m"
    )
    text = text_of(response)
    assert "对对胡 2" in text and "东 付 北 2" in text


def test_seats_can_be_renamed_and_keep_their_names(table):
    table.post(action="setup", name_0="老张", name_1="阿美", dealer="0")
    response = table.post(action="record", ev_type="kong", kong_player="0", kong_kind="direct", kong_from="1")
    assert "阿美 付 老张 2" in text_of(response)
    assert table.store().load().names[:2] == ("老张", "阿美")


def test_a_plain_post_without_javascript_redirects_and_a_refusal_is_a_400(client):
    table = RoundAtTable(client)
    response = table.post(action="record", **SOUTH_KONG)
    assert response.status_code == 303
    page = client.get(response["Location"])
    assert "<html" in page.content.decode()
    assert nets(page) == ["−2", "+6", "−2", "−2"]
    response = table.post(action="record", ev_type="win", winner_1="on", winner_2="on", win_how="self_draw")
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert 'name="winner_2" value="on" data-seat="2" checked' in response.content.decode(), "choices kept"


def test_the_round_page_speaks_english(client):
    table = RoundAtTable(client, HTTP_ACCEPT_LANGUAGE="en", **HTMX)
    response = table.post(action="record", **SOUTH_KONG)
    text = text_of(response)
    assert "East, West, North each pay South 2" in text
    assert "Undo" in text


def test_a_stale_revision_is_refused_with_the_current_hand(table):
    record(table, SOUTH_KONG)
    response = table.client.post("/round/", {"action": "record", "revision": "0", **SOUTH_KONG}, **HTMX)
    assert "Someone else changed" in text_of(response) or "别人" in text_of(response)
    assert len(table.events()) == 1


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
    assert reason in text_of(table.response)
    assert reason in text_of(table.client.get("/round/")), "and again after a reload"


def test_an_unfinished_hand_has_no_end_card(table):
    record(table, SOUTH_KONG)
    assert "endcard" not in table.client.get("/round/").content.decode()


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
    response = table.post(action="undo")
    assert len(table.events()) == 1
    assert "重做" in text_of(response)
    table.post(action="redo")
    assert table.events() == finished[:2]
    response = table.post(action="redo")
    assert table.events() == finished
    assert nets(response) == ["−9", "+7", "−1", "+3"]
    assert "三家已胡" in text_of(response)
    assert 'value="redo"' not in response.content.decode()


def test_a_new_event_forgets_what_was_undone(table):
    record(table, SOUTH_KONG)
    table.post(action="undo")
    record(table, {"ev_type": "kong", "kong_player": "2", "kong_kind": "concealed"})
    assert 'value="redo"' not in table.response.content.decode()
    table.post(action="redo")
    assert table.events() == [{"type": "kong", "player": 2, "kind": "concealed"}]


def test_a_setup_the_undone_events_no_longer_fit_keeps_them_for_redo(table):
    record(table, SOUTH_KONG, {"ev_type": "escape", "escape_player": "2"})
    table.post(action="undo")
    table.post(action="undo")
    table.post(action="setup", dealer="1")
    assert 'value="redo"' in table.client.get("/round/").content.decode()
    table.post(action="redo")
    assert table.events() == [SOUTH_KONG_EVENT]


SOUTH_KONG_EVENT = {"type": "kong", "player": 1, "kind": "concealed"}


def test_a_seat_ticked_as_winner_is_not_offered_as_the_discarder_without_javascript(client):
    table = RoundAtTable(client)
    body = table.post(action="preview", ev_type="win", winner_1="on", winner_2="on").content.decode()
    for how in ("discard", "robbing"):
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
    table.post(action="setup", dealer=dealer)
    body = table.client.get("/round/").content.decode()

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
        {
            "ev_type": "draw",
            "draw_1": "not_ready",
            "draw_2": "ready",
            "drawpattern_2": "dui_dui_hu",
            "draw_3": "huazhu",
        },
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
@pytest.mark.parametrize("field", ["revision", "gen_1", "tiles_left", "drawgen_0", "dealer"])
def test_a_hostile_number_in_any_box_never_crashes(table, field, value):
    assert (
        table.post(action="record", ev_type="escape", escape_player="1", **{field: value}).status_code < 500
    )
    assert (
        table.post(
            action="preview", ev_type="win", winner_1="on", win_how="self", **{field: value}
        ).status_code
        < 500
    )
    assert table.post(action="setup", **{field: value}).status_code < 500


@pytest.mark.parametrize(
    "session_value",
    [
        pytest.param("not a dict", id="not_a_dict"),
        pytest.param({"events": "x", "totals": [1], "dealer": 9, "names": 5}, id="wrong_shapes"),
        pytest.param({"events": [{"type": "kong", "player": 9, "kind": "concealed"}]}, id="bad_event"),
    ],
)
def test_a_damaged_evening_in_the_session_never_crashes(client, session_value):
    client.get("/round/")
    session = client.session
    session["sczmj.evening"] = session_value
    session.save()
    assert client.get("/round/").status_code == 200
    assert client.post("/round/", {"action": "undo"}, **HTMX).status_code == 200
