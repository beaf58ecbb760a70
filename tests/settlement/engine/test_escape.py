"""逃跑: an active player who leaves, and a winner who leaves (RULES.md 6)."""

from __future__ import annotations

import pytest

from .rounds import by_fan, draw, escape, kong, net, reasons, settle, status, win

A, B, C, D = 0, 1, 2, 3


def test_an_escaping_player_pays_every_other_active_player_and_ends_the_round():
    result = settle(escape(D))
    assert list(result.net) == [16, 16, 16, -48]
    assert (result.finished, result.next_dealer) == (True, A)


def test_an_escaping_player_returns_his_kong_income_first():
    # D 暗杠 (+6) is returned whatever his hand; then 16 to each
    result = settle(kong(D, "concealed", "2p"), escape(D))
    assert list(result.net) == [16, 16, 16, -48]
    assert [reason for *_, reason in reasons(result)][3:6] == ["kong_refund"] * 3


def test_an_escaping_player_refunds_no_one_who_has_escaped():
    # D 暗杠: A, B, C pay 2. B self-draws 1 fan: A, C, D pay 2. B leaves. D escapes: returns 2 to A and C
    # only, pays A and C 16.
    events = (kong(D, "concealed", "2p"), win(None, by_fan(B, 1)), escape(B), escape(D))
    assert net(*events) == [14, 4, 14, -32]


@pytest.mark.parametrize(
    ("tiles_left", "expected"),
    [
        # A ready for 6 fan (x32 > 16), B ready for 1 fan (x1 < 16), C not ready
        pytest.param(3, [32, 16, 16, -64], id="near-the-end-a-ready-player-gets-his-chajiao-value"),
        pytest.param(4, [32, 16, 16, -64], id="four-tiles-left-still-counts"),
        pytest.param(5, [16, 16, 16, -48], id="five-tiles-left-only-the-penalty"),
    ],
)
def test_the_last_four_tiles_rule(tiles_left, expected):
    players = [status(A, "ready", 6), status(B, "ready", 1), status(C, "not_ready")]
    assert net(escape(D, tiles_left, players)) == expected


def test_near_the_end_the_chajiao_part_is_capped():
    # 6 fan is x32, capped at x8: 8 < 16, so the penalty stands
    players = [status(A, "ready", 6), status(B, "not_ready"), status(C, "not_ready")]
    assert net(escape(D, 2, players), cap_multiplier=8) == [16, 16, 16, -48]


@pytest.mark.parametrize(
    ("options", "each"),
    [
        pytest.param({"escape_points": 10}, 10, id="10b"),
        pytest.param({"escape_points": "cap", "cap_multiplier": 8}, 8, id="cap-under-x8"),
        pytest.param({"escape_points": "cap"}, 16, id="cap-with-no-cap-is-16b"),
        pytest.param({"escape_points": 4, "base_points": 6}, 24, id="in-b"),
    ],
)
def test_escape_points(options, each):
    assert net(escape(D), **options) == [each, each, each, -3 * each]


def test_a_burned_penalty_goes_to_the_house():
    result = settle(escape(D), escape_penalty_to="burn")
    assert (list(result.net), result.house) == ([0, 0, 0, -48], 48)
    assert {transfer["to"] for transfer in result.to_dict()["transfers"]} == {"house"}


def test_a_winner_who_leaves_keeps_his_win_and_the_round_goes_on():
    # B self-draws 2 fan: 3 from each. He leaves; C self-draws 1 fan: 2 from A and D only.
    result = settle(win(None, by_fan(B, 2)), escape(B, None), win(None, by_fan(C, 1)))
    assert list(result.net) == [-5, 9, 1, -5]
    assert (result.finished, result.winners) == (False, (B, C))


def test_a_forfeiting_winner_returns_his_win_and_bonus():
    # B self-draws 2 fan: 2 + 1 from each; he leaves and gives it all back
    result = settle(win(None, by_fan(B, 2)), escape(B), escaped_winner="forfeit")
    assert list(result.net) == [0, 0, 0, 0]
    assert {reason for *_, reason in reasons(result)[6:]} == {"win_forfeit"}


def test_a_forfeiting_winner_keeps_the_kong_money_handed_to_him():
    # C 弯杠 (+3); B wins 2 fan on C's next discard: C pays 2 and hands over 3; B leaves and returns the 2
    events = (kong(C, "added", "8m"), win(C, by_fan(B, 2), after_kong=True), escape(B))
    assert net(*events, escaped_winner="forfeit") == [-1, 2, 0, -1]
    assert net(*events) == [-1, 4, -2, -1]


def test_a_winner_who_left_gets_no_flower_pig_money():
    # B self-draws 1 fan (+6) and leaves; at the draw A is a pig and pays only C and D
    events = (
        win(None, by_fan(B, 1)),
        escape(B),
        draw(status(A, "huazhu"), status(C, "not_ready"), status(D, "not_ready")),
    )
    assert net(*events) == [-34, 6, 14, 14]


@pytest.mark.parametrize(
    ("refund", "expected"),
    [
        # D 暗杠: A, B, C pay 2. B self-draws 1 fan: A, C, D pay 2. D escapes: returns 2 to A and C, and to
        # winner B only under refund_to_won_payers; pays A and C 16 each.
        pytest.param(True, [14, 6, 14, -34], id="returned-to-the-winner-too"),
        pytest.param(False, [14, 4, 14, -32], id="not-returned-to-the-winner"),
    ],
)
def test_an_escape_refunds_by_the_tui_shui_options(refund, expected):
    events = (kong(D, "concealed", "2p"), win(None, by_fan(B, 1)), escape(D))
    assert net(*events, refund_to_won_payers=refund) == expected


def test_an_escape_refunds_whatever_the_other_options_say():
    # nobody ready and pigs keeping kongs do not matter: an escaping player always returns his kong income
    events = (kong(D, "concealed", "2p"), escape(D))
    assert net(*events, refund_when_nobody_ready=False, huazhu_refunds_kongs=False) == [16, 16, 16, -48]


def test_a_forfeited_win_is_not_returned_to_a_payer_who_has_left():
    # A pays B 2 (2 fan on A's discard); A self-draws 1 fan (C, D pay 2; B has won) and leaves, returning
    # his 4; B leaves: the 2 from A stays with B, as nothing is paid to an escaped player later
    events = (win(A, by_fan(B, 2)), win(None, by_fan(A, 1)), escape(A), escape(B))
    assert net(*events, escaped_winner="forfeit") == [-2, 2, 0, 0]
