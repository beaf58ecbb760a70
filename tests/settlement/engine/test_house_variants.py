"""Issue 11's house variants in settlement (RULES.md 4.4, 4.7, 5): 退杠 (``gang_shang_pao_transfer`` =
refund), ``direct_kong`` = every_1 and ``tui_shui`` = false, each on and off, each meeting its neighbours.
Every expected net is worked out by hand in the comment above it, seats A B C D, base 1, chengdu."""

import pytest

from .rounds import by_fan, draw, escape, kong, net, reasons, settle, status, win

A, B, C, D = 0, 1, 2, 3
ALL_NOT_READY = (status(A, "not_ready"), status(B, "not_ready"), status(D, "not_ready"))


# ------------------------------------------------------------------------------------------- 退杠 refund


@pytest.mark.parametrize(
    ("transfer", "expected"),
    [
        # B's 弯杠: A, C, D pay 1 (B +3). C wins 平胡 + 杠上炮 (2 fan) on B's next discard: B pays 2, and
        # hands over the 3 (last_kong) / gives the 1s back to A, C and D (refund).
        pytest.param("last_kong", [-1, -2, 4, -1], id="last-kong-hands-it-to-the-winner"),
        pytest.param("refund", [0, -2, 2, 0], id="refund-gives-it-back-to-its-payers"),
    ],
)
def test_refund_returns_the_last_kongs_income_to_its_payers(transfer, expected):
    events = (kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True))
    assert net(*events, gang_shang_pao_transfer=transfer) == expected


def test_refund_is_a_kong_refund_of_each_payment_and_the_summary_says_so():
    result = settle(
        kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True), gang_shang_pao_transfer="refund"
    )
    assert reasons(result)[-3:] == [
        (B, A, 1, "kong_refund"),
        (B, C, 1, "kong_refund"),
        (B, D, 1, "kong_refund"),
    ]
    assert result.events[1].kong_refund == 3 and result.events[1].kong_transfer == 0
    assert {payment.state.value for payment in result.state.kong_payments} == {"refunded"}


@pytest.mark.parametrize("multi_winner_transfer", ["each", "first", "split"])
def test_refund_happens_once_however_many_win_on_the_discard(multi_winner_transfer):
    # B's 弯杠: A, C, D pay 1. C and D both win 2 fan on B's discard: B pays 2 + 2. The 3 go back once
    # (a peer refunded once per winner, 6 in all): A -1+1 = 0, B +3-4-3 = -4, C -1+2+1 = 2, D 2.
    events = (kong(B, "added", "8m"), win(B, by_fan(C, 2), by_fan(D, 2), after_kong=True))
    rules = {"gang_shang_pao_transfer": "refund", "multi_winner_transfer": multi_winner_transfer}
    assert net(*events, **rules) == [0, -4, 2, 2]


def test_refund_after_kong_on_kong_returns_only_the_last_one():
    # 杠上杠: B's 暗杠 (A, C, D pay 2), then his 弯杠 (A, C, D pay 1), then C wins 2 fan on B's discard.
    # Only the 弯杠's 1s go back: A -2-1+1 = -2, B +6+3-2-3 = 4, C -2-1+2+1 = 0, D -2.
    events = (kong(B, "concealed", "5s"), kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True))
    assert net(*events, gang_shang_pao_transfer="refund") == [-2, 4, 0, -2]


def test_refund_skips_a_winner_who_left_and_was_no_payer():
    # A self-draws 1 fan: B, C, D pay 1 + 1 加底 (A +6); A leaves (a winner: the round goes on). B's 暗杠:
    # C and D pay 2 (A is out). C wins 2 fan on B's discard: B pays 2 and gives C and D their 2 back.
    # A +6, B -2+4-2-4 = -4, C -2-2+2+2 = 0, D -2-2+2 = -2.
    events = (
        win(None, by_fan(A, 1)),
        escape(A),
        kong(B, "concealed", "5s"),
        win(B, by_fan(C, 2), after_kong=True),
    )
    assert net(*events, gang_shang_pao_transfer="refund") == [6, -4, 0, -2]
    assert net(*events) == [6, -4, 2, -4]  # last_kong: C takes the 4 instead


def test_refund_on_a_capped_table_returns_the_kong_money_uncapped():
    # cap 8: C's 5 fan (x16) pays 8. B's 弯杠 1s go back: A 0, B +3-8-3 = -8, C -1+8+1 = 8, D 0.
    events = (kong(B, "added", "8m"), win(B, by_fan(C, 5), after_kong=True))
    assert net(*events, gang_shang_pao_transfer="refund", cap_multiplier=8) == [0, -8, 8, 0]


def test_refunded_money_is_not_refunded_again_at_the_draw():
    # After the refund B holds no kong money: at the 流局 (nobody ready) his 退税 returns nothing more.
    events = (kong(B, "added", "8m"), win(B, by_fan(C, 2), after_kong=True), draw(*ALL_NOT_READY))
    assert net(*events, gang_shang_pao_transfer="refund") == [0, -2, 2, 0]


def test_refund_needs_a_gang_shang_pao_a_self_drawn_flower_keeps_the_kong():
    # 杠上花 is no discard: B's 暗杠 (A, C, D pay 2), B self-draws 3 fan on the replacement: 4 + 1 each.
    # A -2-5 = -7, B +6+15 = 21: the same as RULES.md 12 example 12, refund or not.
    events = (kong(B, "concealed", "5s"), win(None, by_fan(B, 3), after_kong=True))
    assert net(*events, gang_shang_pao_transfer="refund") == [-7, 21, -7, -7]


# ----------------------------------------------------------------------------------- direct_kong every_1


@pytest.mark.parametrize(
    ("direct_kong", "expected"),
    [
        pytest.param("chengbao", [0, -2, 2, 0], id="chengbao"),
        pytest.param("jia_jia_you", [-1, -2, 4, -1], id="jia-jia-you"),
        pytest.param("feeder_1", [0, -1, 1, 0], id="feeder-1"),
        # C 直杠s B's 7m: A, B and D pay 1 each, the feeder B no more than the others.
        pytest.param("every_1", [-1, -1, 3, -1], id="every-1"),
    ],
)
def test_a_direct_kong_under_each_rule(direct_kong, expected):
    assert net(kong(C, "direct", "7m", feeder=B), direct_kong=direct_kong) == expected


def test_every_1_charges_only_players_still_in_play():
    # A self-draws 1 fan first (B, C, D pay 2: A +6); C's 直杠 of B's tile: B and D pay 1, A is out.
    events = (win(None, by_fan(A, 1)), kong(C, "direct", "7m", feeder=B))
    assert net(*events, direct_kong="every_1") == [6, -3, 0, -3]


def test_every_1_income_is_what_gang_shang_pao_hands_over_or_refunds():
    # C 直杠s B's 7m (A, B, D pay 1: C +3), then D wins 2 fan on C's discard: C pays 2 and hands over 3
    # (A -1, B -1, C -2, D +4), or gives the 1s back (A 0, B 0, C -2, D +2).
    events = (kong(C, "direct", "7m", feeder=B), win(C, by_fan(D, 2), after_kong=True))
    assert net(*events, direct_kong="every_1") == [-1, -1, -2, 4]
    assert net(*events, direct_kong="every_1", gang_shang_pao_transfer="refund") == [0, 0, -2, 2]


def test_every_1_is_returned_to_each_payer_at_the_draw():
    # C's 直杠 (A, B, D pay 1), then a 流局 with nobody ready: C refunds each his 1: all back to 0.
    events = (kong(C, "direct", "7m", feeder=B), draw(*ALL_NOT_READY, status(C, "not_ready")))
    assert net(*events, direct_kong="every_1") == [0, 0, 0, 0]


# ------------------------------------------------------------------------------------------ tui_shui off


@pytest.mark.parametrize(
    ("tui_shui", "expected"),
    [
        # B's 暗杠: A, C, D pay 2 (B +6). 流局: A ready on 1 fan; B, C, D not ready pay A 1 each (查大叫).
        # With 退税 B returns 2 to each: A -2+3+2 = 3, B 6-1-6 = -1, C -2-1+2 = -1, D -1.
        pytest.param(True, [3, -1, -1, -1], id="tui-shui"),
        # Without it B keeps the 6: A -2+3 = 1, B 6-1 = 5, C -3, D -3.
        pytest.param(False, [1, 5, -3, -3], id="no-tui-shui"),
    ],
)
def test_tui_shui_off_keeps_the_kong_money_at_the_draw(tui_shui, expected):
    events = (
        kong(B, "concealed", "5s"),
        draw(status(A, "ready", 1), status(B, "not_ready"), status(C, "not_ready"), status(D, "not_ready")),
    )
    assert net(*events, tui_shui=tui_shui) == expected


@pytest.mark.parametrize("tui_shui", [True, False])
def test_an_escaping_player_returns_his_kong_income_even_without_tui_shui(tui_shui):
    # B's 暗杠 (+6), then B leaves with 20 tiles left: he returns the 2s and pays each 16.
    # A, C, D: -2+2+16 = 16; B: 6-6-48 = -48.
    events = (kong(B, "concealed", "5s"), escape(B))
    assert net(*events, tui_shui=tui_shui) == [16, -48, 16, 16]


@pytest.mark.parametrize(
    ("tui_shui", "expected"),
    [
        # B's 暗杠 (+6); at the 流局 B is a pig and pays A, C, D 16 each, and returns his 6 (退税 on).
        pytest.param(True, [16, -48, 16, 16], id="tui-shui"),
        # Without 退税 the pig keeps it: A, C, D -2+16 = 14, B 6-48 = -42.
        pytest.param(False, [14, -42, 14, 14], id="no-tui-shui"),
    ],
)
def test_tui_shui_off_also_spares_a_flower_pig(tui_shui, expected):
    events = (
        kong(B, "concealed", "5s"),
        draw(status(A, "not_ready"), status(B, "huazhu"), status(C, "not_ready"), status(D, "not_ready")),
    )
    assert net(*events, tui_shui=tui_shui) == expected


def test_tui_shui_off_with_winners_changes_only_the_refund():
    # A self-draws 1 fan (B, C, D pay 2: A +6); B's 暗杠: C and D pay 2 (B +4); 流局 among B, C, D,
    # nobody ready. 退税 on: B returns 2 to C and D. Off: he keeps them.
    events = (
        win(None, by_fan(A, 1)),
        kong(B, "concealed", "5s"),
        draw(*ALL_NOT_READY[1:], status(C, "not_ready")),
    )
    assert net(*events) == [6, -2, -2, -2]
    assert net(*events, tui_shui=False) == [6, 2, -4, -4]
