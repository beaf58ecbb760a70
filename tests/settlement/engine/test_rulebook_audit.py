"""An independent audit of round settlement against RULES.md sections 4-12 and API.md's settle example.

Every expected number below was derived by hand from the rule book, not from the engine or its own
tests; the comment on each case shows the arithmetic. Seats A B C D = 0 1 2 3, A deals unless stated,
preset chengdu (b = 1) unless stated. Findings are recorded in docs/audit.md.
"""

from typing import Any

import pytest

from settlement.engine import EngineError, settle_round, settle_up


def _settle(
    events: list[dict[str, Any]], rules: dict[str, Any] | None = None, **kwargs: Any
) -> dict[str, Any]:
    kwargs.setdefault("dealer", 0)
    return settle_round(events=events, rules=rules or {"preset": "chengdu"}, **kwargs).to_dict()


def win(frm: int | None, *winners: tuple[int, int], **flags: Any) -> dict[str, Any]:
    """A win event whose winners' final fan is entered by hand: (player, fan) pairs."""
    return {"type": "win", "from": frm, "winners": [{"player": p, "fan": f} for p, f in winners], **flags}


def kong(player: int, kind: str, tile: str, frm: int | None = None) -> dict[str, Any]:
    event = {"type": "kong", "player": player, "kind": kind, "tile": tile}
    return event if frm is None else {**event, "from": frm}


def ready(player: int, fan: int) -> dict[str, Any]:
    return {"player": player, "status": "ready", "fan": fan}


def not_ready(player: int) -> dict[str, Any]:
    return {"player": player, "status": "not_ready"}


def pig(player: int) -> dict[str, Any]:
    return {"player": player, "status": "huazhu"}


def draw(*players: dict[str, Any]) -> dict[str, Any]:
    return {"type": "draw", "players": list(players)}


def escape(player: int, tiles_left: int, *players: dict[str, Any]) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "escape", "player": player, "tiles_left": tiles_left}
    return {**event, "players": list(players)} if players else event


def hand(
    concealed: str, win_tile: str | None = None, melds: list[dict[str, str]] | None = None
) -> dict[str, Any]:
    tiles: dict[str, Any] = {"concealed": concealed, "melds": melds or []}
    return tiles if win_tile is None else {**tiles, "win_tile": win_tile}


# (rules overrides on chengdu, events, expected net [A, B, C, D], expected house)
ROUNDS = [
    # --- section 12, rounds ------------------------------------------------------------------------------
    # 11: 清一色 3 fan x4 + 1 加底 from each of three.
    pytest.param(
        {},
        [{"type": "win", "from": None, "winners": [{"player": 1, "hand": hand("11s222s333s456s99s", "9s")}]}],
        [-5, 15, -5, -5],
        0,
        id="ex11-self-draw-jia-di",
    ),
    # 12: 暗杠 2 each, then 平胡 + gen + 杠上花 = 3 fan: 4 + 1 each -> A, C, D -7, B +21.
    pytest.param(
        {},
        [
            kong(1, "concealed", "5s"),
            {
                "type": "win",
                "from": None,
                "after_kong": True,
                "winners": [
                    {
                        "player": 1,
                        "hand": hand("123s678s234m2m", "2m", [{"kind": "kong_concealed", "tile": "5s"}]),
                    }
                ],
            },
        ],
        [-7, 21, -7, -7],
        0,
        id="ex12-gang-shang-hua",
    ),
    # 13: 弯杠 1 each; C wins 2 fan on B's next discard: B pays 2 + hands over 3.
    pytest.param(
        {},
        [kong(1, "added", "8m"), win(1, (2, 2), after_kong=True)],
        [-1, -2, 4, -1],
        0,
        id="ex13-gang-shang-pao-transfer",
    ),
    # 14: C robs B's added 5p: 平胡 + 抢杠 = 2, no kong money.
    pytest.param(
        {},
        [
            {
                "type": "win",
                "from": 1,
                "robbing_kong": True,
                "winners": [{"player": 2, "hand": hand("34p678p234m789m11m", "5p")}],
            }
        ],
        [0, -2, 2, 0],
        0,
        id="ex14-robbing",
    ),
    pytest.param({}, [kong(2, "direct", "7m", 1)], [0, -2, 2, 0], 0, id="ex15-direct-kong-chengbao"),
    pytest.param(
        {"direct_kong": "jia_jia_you"},
        [kong(2, "direct", "7m", 1)],
        [-1, -2, 4, -1],
        0,
        id="ex15-direct-kong-jia-jia-you",
    ),
    # 16: A pig pays 16 x 3; D pays B 1 and C 4.
    pytest.param(
        {}, [draw(pig(0), ready(1, 1), ready(2, 3), not_ready(3))], [-48, 17, 20, 11], 0, id="ex16-statuses"
    ),
    pytest.param(
        {},
        [
            draw(
                {"player": 0, "hand": hand("123m456p789s1234m")},
                {"player": 1, "hand": hand("234p456p77p345s78s")},
                {"player": 2, "hand": hand("11s333s222s456s99s")},
                {"player": 3, "hand": hand("1357m2468p13579m")},
            )
        ],
        [-48, 17, 20, 11],
        0,
        id="ex16-hands",
    ),
    # --- 4.1-4.3 wins ------------------------------------------------------------------------------------
    pytest.param({}, [win(0, (2, 3))], [-4, 0, 4, 0], 0, id="discard-win"),
    # D wins 1 from A; B self-draws 2 fan: only A and C pay, 2 + 1 each.
    pytest.param({}, [win(0, (3, 1)), win(None, (1, 2))], [-4, 6, -3, 1], 0, id="won-players-do-not-pay"),
    # fan entered by hand already holds 自摸加番: jia_fan adds nothing -> 2 each.
    pytest.param(
        {"zimo_bonus": "jia_fan"},
        [win(None, (1, 2))],
        [-2, 6, -2, -2],
        0,
        id="jia-fan-not-added-to-entered-fan",
    ),
    # scored hand under jia_fan: 清一色 3 + 1 = 4 fan -> 8 each, no 加底.
    pytest.param(
        {"zimo_bonus": "jia_fan"},
        [{"type": "win", "from": None, "winners": [{"player": 1, "hand": hand("11s222s333s456s99s", "9s")}]}],
        [-8, 24, -8, -8],
        0,
        id="jia-fan-on-scored-hand",
    ),
    pytest.param({"zimo_bonus": "none"}, [win(None, (1, 2))], [-2, 6, -2, -2], 0, id="zimo-bonus-none"),
    # qq: b = 6, no bonus: 6 each.
    pytest.param({"preset": "qq"}, [win(None, (1, 1))], [-6, 18, -6, -6], 0, id="qq-self-draw"),
    # cap 8, 6 fan (x32): 8 + 1 加底 after the cap = 9 each.
    pytest.param({"cap_multiplier": 8}, [win(None, (1, 6))], [-9, 27, -9, -9], 0, id="jia-di-after-cap"),
    # 一炮多响: A pays B 1 and C 4.
    pytest.param({}, [win(0, (1, 1), (2, 3))], [-5, 1, 4, 0], 0, id="yi-pao-duo-xiang"),
    # 截胡: C discards to B and D; first after C is D (3 fan): C pays 4. B plays on and self-draws 1 fan:
    # A and C pay 1 + 1.
    pytest.param(
        {"multi_win": "first"},
        [win(2, (1, 1), (3, 3)), win(None, (1, 1))],
        [-2, 4, -6, 4],
        0,
        id="jie-hu-first-after-discarder",
    ),
    # a kong in a winning hand never recorded as an event moves no money: 平胡 + gen = 2, 2 + 1 each.
    pytest.param(
        {},
        [
            {
                "type": "win",
                "from": None,
                "winners": [
                    {
                        "player": 1,
                        "hand": hand("123s678s234m2m", "2m", [{"kind": "kong_concealed", "tile": "5s"}]),
                    }
                ],
            }
        ],
        [-3, 9, -3, -3],
        0,
        id="unrecorded-kong-no-money",
    ),
    # one discard won by two players is one tile: B holds 55p and D holds one 5p, plus the shared 5p = 4.
    pytest.param(
        {},
        [
            {
                "type": "win",
                "from": 0,
                "winners": [
                    {"player": 1, "hand": hand("234m678m789m34p55p", "5p")},
                    {"player": 3, "hand": hand("111m222m333m789m5p", "5p")},
                ],
            }
        ],
        [-2, 1, 0, 1],
        0,
        id="shared-discard-is-one-tile",
    ),
    # --- 4.4 kongs ---------------------------------------------------------------------------------------
    pytest.param({"preset": "qq"}, [kong(2, "direct", "7m", 1)], [0, -6, 6, 0], 0, id="direct-kong-feeder-1"),
    # D won (A pays 1); jia_jia_you direct kong by C fed by B: B 2, A 1, D nothing.
    pytest.param(
        {"direct_kong": "jia_jia_you"},
        [win(0, (3, 1)), kong(2, "direct", "7m", 1)],
        [-2, -2, 3, 1],
        0,
        id="jia-jia-you-skips-winners",
    ),
    pytest.param(
        {}, [win(0, (3, 1)), kong(1, "added", "8m")], [-2, 2, -1, 1], 0, id="added-kong-active-only"
    ),
    pytest.param({}, [kong(0, "concealed", "2m")], [6, -2, -2, -2], 0, id="concealed-kong"),
    pytest.param(
        {"concealed_kong_points": 3, "added_kong_points": 2},
        [kong(0, "concealed", "2m"), kong(1, "added", "8m")],
        [7, 3, -5, -5],
        0,
        id="kong-point-options",
    ),
    # --- 4.5 robbing -------------------------------------------------------------------------------------
    # discard mode, two robbers: B pays A 2 and C 4.
    pytest.param({}, [win(1, (0, 2), (2, 3), robbing_kong=True)], [2, -6, 4, 0], 0, id="robbing-two-robbers"),
    # bao, one robber C 2 fan: shares for A, B, D: 3 x (2 + 1) = 9, all from B.
    pytest.param(
        {"qiang_gang_payment": "bao"}, [win(1, (2, 2), robbing_kong=True)], [0, -9, 9, 0], 0, id="robbing-bao"
    ),
    # bao, co-robbers A 2 fan and C 3 fan: A's shares for B, C, D 3 x 3 = 9; C's for A, B, D 3 x 5 = 15.
    pytest.param(
        {"qiang_gang_payment": "bao"},
        [win(1, (0, 2), (2, 3), robbing_kong=True)],
        [9, -24, 15, 0],
        0,
        id="robbing-bao-co-robbers",
    ),
    # D won first (A pays 1). bao, cap 8: A 5 fan (x16 -> 8) + 1: shares for B, C = 18; C 2 fan: (2 + 1) for
    # A, B = 6. B pays 24.
    pytest.param(
        {"qiang_gang_payment": "bao", "cap_multiplier": 8},
        [win(0, (3, 1)), win(1, (0, 5), (2, 2), robbing_kong=True)],
        [17, -24, 6, 1],
        0,
        id="robbing-bao-cap-jia-di-after-winner",
    ),
    # bao under jia_fan with a scored hand: 平胡 + 抢杠 = 2 (no 自摸加番), no 加底: 3 x 2 = 6.
    pytest.param(
        {"qiang_gang_payment": "bao", "zimo_bonus": "jia_fan"},
        [
            {
                "type": "win",
                "from": 1,
                "robbing_kong": True,
                "winners": [{"player": 2, "hand": hand("34p678p234m789m11m", "5p")}],
            }
        ],
        [0, -6, 6, 0],
        0,
        id="robbing-bao-never-jia-fan",
    ),
    # 截胡 for robbers: A and C rob B; first after B is C alone.
    pytest.param(
        {"multi_win": "first"},
        [win(1, (0, 2), (2, 3), robbing_kong=True)],
        [0, -4, 4, 0],
        0,
        id="robbing-first",
    ),
    # --- 4.6 点杠花 --------------------------------------------------------------------------------------
    # zimo: C 直杠 fed by B (B 2), 杠上花 3 fan: 4 + 1 from A, B, D.
    pytest.param(
        {},
        [kong(2, "direct", "5p", 1), win(None, (2, 3), after_kong=True)],
        [-5, -7, 17, -5],
        0,
        id="dian-gang-hua-zimo",
    ),
    pytest.param(
        {"dian_gang_hua": "dianpao"},
        [kong(2, "direct", "5p", 1), win(None, (2, 3), after_kong=True)],
        [0, -6, 6, 0],
        0,
        id="dian-gang-hua-dianpao",
    ),
    # bao: B pays three self-draw shares (4 + 1) = 15.
    pytest.param(
        {"dian_gang_hua": "bao"},
        [kong(2, "direct", "5p", 1), win(None, (2, 3), after_kong=True)],
        [0, -17, 17, 0],
        0,
        id="dian-gang-hua-bao",
    ),
    # dianpao with a scored hand under jia_fan: 平胡 + gen + 杠上花 = 3 (no 自摸加番): B pays 2 + 4.
    pytest.param(
        {"dian_gang_hua": "dianpao", "zimo_bonus": "jia_fan"},
        [
            kong(2, "direct", "5p", 1),
            {
                "type": "win",
                "from": None,
                "after_kong": True,
                "winners": [
                    {
                        "player": 2,
                        "hand": hand("123m456m789m1p", "1p", [{"kind": "kong_direct", "tile": "5p"}]),
                    }
                ],
            },
        ],
        [0, -6, 6, 0],
        0,
        id="dian-gang-hua-dianpao-no-jia-fan",
    ),
    # 杠上花 after an added kong is an ordinary self-draw whatever dian_gang_hua says: 1 each + 4 + 1.
    pytest.param(
        {"dian_gang_hua": "dianpao"},
        [kong(2, "added", "5p"), win(None, (2, 3), after_kong=True)],
        [-6, -6, 18, -6],
        0,
        id="dian-gang-hua-only-after-direct",
    ),
    # --- 4.7 杠上炮 transfers ----------------------------------------------------------------------------
    # B 暗杠 (2 x 3), then 弯杠 (1 x 3), C wins 2 fan on B's discard.
    # last_kong: 3 -> B 9 - 2 - 3 = 4, C -3 + 2 + 3 = 2.
    pytest.param(
        {},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (2, 2), after_kong=True)],
        [-3, 4, 2, -3],
        0,
        id="transfer-last-kong",
    ),
    pytest.param(
        {"gang_shang_pao_transfer": "all_kongs"},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (2, 2), after_kong=True)],
        [-3, -2, 8, -3],
        0,
        id="transfer-all-kongs",
    ),
    pytest.param(
        {"gang_shang_pao_transfer": "none"},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (2, 2), after_kong=True)],
        [-3, 7, -1, -3],
        0,
        id="transfer-none",
    ),
    # what he actually received: D won (A pays 1), B's 弯杠 earns 2 (A, C); C wins 2 fan: B pays 2 + 2.
    pytest.param(
        {},
        [win(0, (3, 1)), kong(1, "added", "8m"), win(1, (2, 2), after_kong=True)],
        [-2, -2, 3, 1],
        0,
        id="transfer-what-was-received",
    ),
    # B 弯杠 (3), A and C win 2 fan each on B's discard.
    # each: both get 3, B pays the extra copy: B 3 - 4 - 6 = -7.
    pytest.param(
        {},
        [kong(1, "added", "8m"), win(1, (0, 2), (2, 2), after_kong=True)],
        [4, -7, 4, -1],
        0,
        id="transfer-each",
    ),
    # first: only C (first after B) gets 3.
    pytest.param(
        {"multi_winner_transfer": "first"},
        [kong(1, "added", "8m"), win(1, (0, 2), (2, 2), after_kong=True)],
        [1, -4, 4, -1],
        0,
        id="transfer-first",
    ),
    # split 3 in two: 1 each, the remainder 1 to C (first after B): C 2, A 1.
    pytest.param(
        {"multi_winner_transfer": "split"},
        [kong(1, "added", "8m"), win(1, (0, 2), (2, 2), after_kong=True)],
        [2, -4, 3, -1],
        0,
        id="transfer-split-odd",
    ),
    # all_kongs 9 split between C and D: 4 each + 1 to C: B 9 - 4 - 9 = -4, C -3 + 2 + 5, D -3 + 2 + 4.
    pytest.param(
        {"multi_winner_transfer": "split", "gang_shang_pao_transfer": "all_kongs"},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (2, 2), (3, 2), after_kong=True)],
        [-3, -4, 4, 3],
        0,
        id="transfer-split-all-kongs",
    ),
    # each + all_kongs: both get 9: B 9 - 4 - 18 = -13.
    pytest.param(
        {"gang_shang_pao_transfer": "all_kongs"},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (2, 2), (3, 2), after_kong=True)],
        [-3, -13, 8, 8],
        0,
        id="transfer-each-all-kongs",
    ),
    # all_kongs x first: the 9 goes to C alone. B 9 - 4 - 9, C -3 + 2 + 9, D -3 + 2.
    pytest.param(
        {"multi_winner_transfer": "first", "gang_shang_pao_transfer": "all_kongs"},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (2, 2), (3, 2), after_kong=True)],
        [-3, -4, 8, -1],
        0,
        id="transfer-first-all-kongs",
    ),
    # none x each: nothing handed over. B 9 - 4, C and D -3 + 2.
    pytest.param(
        {"gang_shang_pao_transfer": "none"},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (2, 2), (3, 2), after_kong=True)],
        [-3, 5, -1, -1],
        0,
        id="transfer-none-each",
    ),
    # --- 5 流局 --------------------------------------------------------------------------------------------
    # 退税 after 呼叫转移: B's 3 went to C; at the draw B (not ready) has nothing to refund and pays
    # A and D 1 each: A -1 + 1, B 3 - 2 - 3 - 2, C -1 + 2 + 3, D -1 + 1.
    pytest.param(
        {},
        [
            kong(1, "added", "8m"),
            win(1, (2, 2), after_kong=True),
            draw(ready(0, 1), not_ready(1), ready(3, 1)),
        ],
        [0, -4, 4, 0],
        0,
        id="tui-shui-after-transfer",
    ),
    # no transfer: B keeps 3, refunds 1 to A, C (a winner) and D: B 3 - 2 - 2 - 3 = -4.
    pytest.param(
        {"gang_shang_pao_transfer": "none"},
        [
            kong(1, "added", "8m"),
            win(1, (2, 2), after_kong=True),
            draw(ready(0, 1), not_ready(1), ready(3, 1)),
        ],
        [1, -4, 2, 1],
        0,
        id="tui-shui-to-winner",
    ),
    pytest.param(
        {"gang_shang_pao_transfer": "none", "refund_to_won_payers": False},
        [
            kong(1, "added", "8m"),
            win(1, (2, 2), after_kong=True),
            draw(ready(0, 1), not_ready(1), ready(3, 1)),
        ],
        [1, -3, 1, 1],
        0,
        id="tui-shui-not-to-winner",
    ),
    # A won 1 from D. B pig; C ready 2; D not ready. non_huazhu: A, C, D get 16; D pays C 2.
    pytest.param(
        {},
        [win(3, (0, 1)), draw(pig(1), ready(2, 2), not_ready(3))],
        [17, -48, 18, 13],
        0,
        id="huazhu-non-huazhu-includes-winner",
    ),
    pytest.param(
        {"huazhu_recipients": "active"},
        [win(3, (0, 1)), draw(pig(1), ready(2, 2), not_ready(3))],
        [1, -32, 18, 13],
        0,
        id="huazhu-active",
    ),
    pytest.param(
        {"huazhu_recipients": "active_ready"},
        [win(3, (0, 1)), draw(pig(1), ready(2, 2), not_ready(3))],
        [1, -16, 18, -3],
        0,
        id="huazhu-active-ready",
    ),
    pytest.param(
        {"huazhu_pays_chajiao": True},
        [win(3, (0, 1)), draw(pig(1), ready(2, 2), not_ready(3))],
        [17, -50, 20, 13],
        0,
        id="huazhu-pays-chajiao",
    ),
    # two pigs do not pay each other: each pays C and D 16; D pays C 1.
    pytest.param(
        {},
        [draw(pig(0), pig(1), ready(2, 1), not_ready(3))],
        [-32, -32, 33, 31],
        0,
        id="pigs-do-not-pay-each-other",
    ),
    pytest.param(
        {"cap_multiplier": 8, "huazhu_points": "cap"},
        [draw(pig(0), not_ready(1), not_ready(2), not_ready(3))],
        [-24, 8, 8, 8],
        0,
        id="huazhu-points-cap",
    ),
    pytest.param(
        {"huazhu_points": "cap"},
        [draw(pig(0), not_ready(1), not_ready(2), not_ready(3))],
        [-48, 16, 16, 16],
        0,
        id="huazhu-points-cap-without-cap-is-16",
    ),
    pytest.param(
        {"cap_multiplier": 8, "huazhu_points": 20},
        [draw(pig(0), not_ready(1), not_ready(2), not_ready(3))],
        [-60, 20, 20, 20],
        0,
        id="huazhu-points-not-capped",
    ),
    # 查大叫 with cap: C ready 6 fan (x32) capped at 8: D pays 8; A the pig pays 16 x 3 (B, C, D).
    pytest.param(
        {"cap_multiplier": 8},
        [draw(pig(0), not_ready(1), ready(2, 6), not_ready(3))],
        [-48, 8, 32, 8],
        0,
        id="chajiao-capped",
    ),
    # qq b = 6: B ready 3 fan -> 24 from each of C, D.
    pytest.param(
        {"preset": "qq"},
        [draw(not_ready(0), ready(1, 3), not_ready(2), not_ready(3))],
        [-24, 72, -24, -24],
        0,
        id="chajiao-base-6",
    ),
    # A 暗杠 (B, C, D paid 2); A a pig at the draw: refunds 2 each and pays 16 each.
    pytest.param(
        {},
        [kong(0, "concealed", "2m"), draw(pig(0), not_ready(1), not_ready(2), not_ready(3))],
        [-48, 16, 16, 16],
        0,
        id="pig-refunds-kongs",
    ),
    pytest.param(
        {"huazhu_refunds_kongs": False},
        [kong(0, "concealed", "2m"), draw(pig(0), not_ready(1), not_ready(2), not_ready(3))],
        [-42, 14, 14, 14],
        0,
        id="pig-keeps-kongs",
    ),
    pytest.param(
        {},
        [kong(1, "added", "8m"), draw(not_ready(0), not_ready(1), not_ready(2), not_ready(3))],
        [0, 0, 0, 0],
        0,
        id="refund-when-nobody-ready",
    ),
    pytest.param(
        {"refund_when_nobody_ready": False},
        [kong(1, "added", "8m"), draw(not_ready(0), not_ready(1), not_ready(2), not_ready(3))],
        [-1, 3, -1, -1],
        0,
        id="no-refund-when-nobody-ready",
    ),
    # a ready kong maker keeps his kong money and collects 查大叫 1 from each.
    pytest.param(
        {},
        [kong(1, "added", "8m"), draw(not_ready(0), ready(1, 1), not_ready(2), not_ready(3))],
        [-2, 6, -2, -2],
        0,
        id="ready-keeps-kongs",
    ),
    # 14 tiles at the draw: best discard leaves a 清七对 wait (x16); B, C, D not ready pay 16 each.
    pytest.param(
        {},
        [draw({"player": 0, "hand": hand("11223344556677m")}, not_ready(1), not_ready(2), not_ready(3))],
        [48, -16, -16, -16],
        0,
        id="fourteen-tiles-at-draw",
    ),
    pytest.param(
        {},
        [draw({"player": 0, "hand": hand("112233445566m9p1s")}, not_ready(1), not_ready(2), not_ready(3))],
        [-48, 16, 16, 16],
        0,
        id="fourteen-tiles-three-suits-pig",
    ),
    # --- 6 escape -----------------------------------------------------------------------------------------
    pytest.param({}, [escape(0, 10)], [-48, 16, 16, 16], 0, id="escape-distribute"),
    pytest.param({"escape_penalty_to": "burn"}, [escape(0, 10)], [-48, 0, 0, 0], 48, id="escape-burn"),
    # A 暗杠 then escapes: refunds 2 each, pays 16 each.
    pytest.param(
        {}, [kong(0, "concealed", "2m"), escape(0, 10)], [-48, 16, 16, 16], 0, id="escape-returns-kong-income"
    ),
    # 3 tiles left: B ready 6 fan (32 > 16), C not ready 16, D ready 1 fan (16).
    pytest.param(
        {},
        [escape(0, 3, ready(1, 6), not_ready(2), ready(3, 1))],
        [-64, 32, 16, 16],
        0,
        id="escape-three-tiles-left",
    ),
    pytest.param(
        {},
        [escape(0, 4, ready(1, 6), not_ready(2), ready(3, 1))],
        [-64, 32, 16, 16],
        0,
        id="escape-four-tiles-left",
    ),
    pytest.param({}, [escape(0, 5)], [-48, 16, 16, 16], 0, id="escape-five-tiles-left"),
    # cap 8: B's 查大叫 value is 8 < 16.
    pytest.param(
        {"cap_multiplier": 8},
        [escape(0, 3, ready(1, 6), not_ready(2), ready(3, 1))],
        [-48, 16, 16, 16],
        0,
        id="escape-chajiao-part-capped",
    ),
    pytest.param(
        {"escape_points": 4},
        [escape(0, 2, ready(1, 4), ready(2, 2), not_ready(3))],
        [-16, 8, 4, 4],
        0,
        id="escape-larger-of-points-and-chajiao",
    ),
    pytest.param(
        {"escape_penalty_to": "burn"},
        [escape(0, 3, ready(1, 6), not_ready(2), ready(3, 1))],
        [-64, 0, 0, 0],
        64,
        id="escape-burn-late",
    ),
    pytest.param(
        {"cap_multiplier": 32, "escape_points": "cap"},
        [escape(0, 10)],
        [-96, 32, 32, 32],
        0,
        id="escape-points-cap",
    ),
    # D won 1 from A; C escapes: penalty to A and B only.
    pytest.param({}, [win(0, (3, 1)), escape(2, 10)], [15, 16, -32, 1], 0, id="escape-pays-active-only"),
    # B 暗杠 (A, C, D pay 2); A wins 1 from C; A leaves (no penalty); at the draw B is not ready and refunds C
    # and D but never A: A -2 + 1, B 6 - 4, C -2 - 1 + 2, D 0.
    pytest.param(
        {},
        [
            kong(1, "concealed", "2m"),
            win(2, (0, 1)),
            escape(0, 30),
            draw(not_ready(1), not_ready(2), not_ready(3)),
        ],
        [-1, 2, -1, 0],
        0,
        id="no-refund-to-escaped-payer",
    ),
    # B 弯杠 (3); A wins 2 on B's discard + transfer 3; A leaves; at the draw C is a pig paying B and D
    # (A has escaped) 16 each. keep: A 4, B 3 - 5 + 16, C -1 - 32, D -1 + 16.
    pytest.param(
        {},
        [
            kong(1, "added", "8m"),
            win(1, (0, 2), after_kong=True),
            escape(0, 30),
            draw(not_ready(1), pig(2), not_ready(3)),
        ],
        [4, 14, -33, 15],
        0,
        id="escaped-winner-keeps",
    ),
    # forfeit returns the win (2) to B but not the transfer: A 2, B 16.
    pytest.param(
        {"escaped_winner": "forfeit"},
        [
            kong(1, "added", "8m"),
            win(1, (0, 2), after_kong=True),
            escape(0, 30),
            draw(not_ready(1), pig(2), not_ready(3)),
        ],
        [2, 16, -33, 15],
        0,
        id="escaped-winner-forfeits",
    ),
    # forfeit a self-draw: A's 2 + 1 from each of B, C, D all go back.
    pytest.param(
        {"escaped_winner": "forfeit"},
        [win(None, (0, 2)), escape(0, 30)],
        [0, 0, 0, 0],
        0,
        id="forfeit-returns-jia-di",
    ),
    # --- more 流局 / escape edges, with hands -------------------------------------------------------------
    # 查大叫 from a hand under a cap: C holds 1122334455667m (best 7m 清七对 x16), cap 8: B and D pay 8 each.
    pytest.param(
        {"cap_multiplier": 8},
        [draw(not_ready(0), not_ready(1), {"player": 2, "hand": hand("1122334455667m")}, not_ready(3))],
        [-8, -8, 24, -8],
        0,
        id="chajiao-hand-capped",
    ),
    # A's only wait (1m) is his own 5th copy: not ready, so not paid; nobody else ready either.
    pytest.param(
        {},
        [draw({"player": 0, "hand": hand("1111m234p789p567p")}, not_ready(1), not_ready(2), not_ready(3))],
        [0, 0, 0, 0],
        0,
        id="dead-wait-not-ready-at-draw",
    ),
    # live waits not required: 平胡 + the quad as a gen = 2 fan from each of B, C, D.
    pytest.param(
        {"ting_requires_live_wait": False},
        [draw({"player": 0, "hand": hand("1111m234p789p567p")}, not_ready(1), not_ready(2), not_ready(3))],
        [6, -2, -2, -2],
        0,
        id="dead-wait-valued-at-draw",
    ),
    # all_kongs: B's 9 goes to C with the first 杠上炮; the next kong (A, D pay 1) is all B still holds when D
    # wins on his next discard: A -4, B 9 - 11 + 2 - 4, C -3 + 11, D -3 - 1 + 4.
    pytest.param(
        {"gang_shang_pao_transfer": "all_kongs"},
        [
            kong(1, "concealed", "2m"),
            kong(1, "added", "8m"),
            win(1, (2, 2), after_kong=True),
            kong(1, "added", "9m"),
            win(1, (3, 2), after_kong=True),
        ],
        [-4, -4, 8, 0],
        0,
        id="all-kongs-not-transferred-twice",
    ),
    # D won (A pays 1); 点杠花 bao: B pays the shares of the active opponents A and B: 2 x (4 + 1) = 10.
    pytest.param(
        {"dian_gang_hua": "bao"},
        [win(0, (3, 1)), kong(2, "direct", "5p", 1), win(None, (2, 3), after_kong=True)],
        [-1, -12, 12, 1],
        0,
        id="dian-gang-hua-bao-active-only",
    ),
    # jia_jia_you refund at the draw: C not ready returns B 2 and A, D 1 each.
    pytest.param(
        {"direct_kong": "jia_jia_you"},
        [kong(2, "direct", "7m", 1), draw(not_ready(0), not_ready(1), not_ready(2), not_ready(3))],
        [0, 0, 0, 0],
        0,
        id="jia-jia-you-refund",
    ),
    # escape returns kong income by the 退税 options: B won from A (1); A's 暗杠 was paid by B, C, D before;
    # refund_to_won_payers false: A keeps B's 2. A: 6 - 1 - 4 - 32, B: -2 + 1, C, D: -2 + 2 + 16.
    pytest.param(
        {"refund_to_won_payers": False},
        [kong(0, "concealed", "2m"), win(0, (1, 1)), escape(0, 10)],
        [-31, -1, 16, 16],
        0,
        id="escape-refund-follows-tui-shui-options",
    ),
    # 天胡 in a round: dealer A self-draws 平胡 with tian_hu: 6 fan x32 + 1 from each.
    pytest.param(
        {},
        [
            {
                "type": "win",
                "from": None,
                "winners": [{"player": 0, "tian_hu": True, "hand": hand("234p456p77p345s78s", "9s")}],
            }
        ],
        [99, -33, -33, -33],
        0,
        id="tian-hu-in-a-round",
    ),
    # casual 海底炮 from a hand: 平胡 + 1 = 2 fan, A pays 2.
    pytest.param(
        {"preset": "casual"},
        [
            {
                "type": "win",
                "from": 0,
                "last_tile": True,
                "winners": [{"player": 1, "hand": hand("234p456p77p345s78s", "9s")}],
            }
        ],
        [-2, 2, 0, 0],
        0,
        id="casual-hai-di-pao",
    ),
    # split: B's 直杠 fed by A earns 2; A, C and D win 2 fan each on B's next discard: 2 // 3 = 0 each and the
    # remainder 2 to C (first after B). A -2 + 2, B 2 - 6 - 2, C 2 + 2, D 2.
    pytest.param(
        {"multi_winner_transfer": "split"},
        [kong(1, "direct", "5p", 0), win(1, (0, 2), (2, 2), (3, 2), after_kong=True)],
        [0, -6, 4, 2],
        0,
        id="transfer-split-remainder-to-first",
    ),
    # huazhu_refunds_kongs false does not stop an escaper: he returns kong income whatever his hand.
    pytest.param(
        {"huazhu_refunds_kongs": False},
        [kong(0, "concealed", "2m"), escape(0, 10)],
        [-48, 16, 16, 16],
        0,
        id="escape-refunds-whatever-the-hand",
    ),
    # qq b = 6, escape with 2 tiles left: escape_points 16b = 96; B ready 6 fan = 32 x 6 = 192.
    pytest.param(
        {"preset": "qq"},
        [escape(0, 2, ready(1, 6), not_ready(2), pig(3))],
        [-384, 192, 96, 96],
        0,
        id="escape-late-base-6",
    ),
    # A self-draws 2 fan (B, C, D pay 3); B wins 1 from C and leaves (forfeit: 1 back to C); A leaves:
    # his self-draw money goes back to C and D, never to B who has escaped. A 9 - 6, B -3, C -3 + 3, D 0.
    pytest.param(
        {"escaped_winner": "forfeit"},
        [win(None, (0, 2)), win(2, (1, 1)), escape(1, 30), escape(0, 30)],
        [3, -3, 0, 0],
        0,
        id="forfeit-never-to-escaped-payer",
    ),
    # normal mode: a kong, then 流局 among all four: C (kong maker, not ready) refunds; B ready 2 fan.
    pytest.param(
        {"mode": "normal"},
        [kong(2, "concealed", "2m"), draw(not_ready(0), ready(1, 2), not_ready(2), not_ready(3))],
        [-2, 6, -2, -2],
        0,
        id="normal-draw-refunds",
    ),
    # refund_to_won_payers true (default): B won 1 from A, still gets his 2 back from the escaper.
    # A 6 - 1 - 6 - 32, B -2 + 1 + 2, C and D -2 + 2 + 16.
    pytest.param(
        {},
        [kong(0, "concealed", "2m"), win(0, (1, 1)), escape(0, 10)],
        [-33, 1, 16, 16],
        0,
        id="escape-refunds-won-payer",
    ),
    # refund_when_nobody_ready false does not stop an escaper's refund ("whatever his hand").
    pytest.param(
        {"refund_when_nobody_ready": False},
        [kong(0, "concealed", "2m"), escape(0, 10)],
        [-48, 16, 16, 16],
        0,
        id="escape-refunds-even-when-nobody-ready-is-off",
    ),
    # 杠上杠: C's 直杠 fed by B, then C's 暗杠, then 杠上花: the last kong is concealed, so under dianpao
    # it is an ordinary self-draw. C 2 + 6 + 3 x 5 = 23; A -2 - 5; B -2 - 2 - 5; D -2 - 5.
    pytest.param(
        {"dian_gang_hua": "dianpao"},
        [kong(2, "direct", "5p", 1), kong(2, "concealed", "7m"), win(None, (2, 3), after_kong=True)],
        [-7, -9, 23, -7],
        0,
        id="dian-gang-hua-needs-the-last-kong-direct",
    ),
    # bao + 截胡: A and C claim B's kong, only C (first after B) wins; A, B, D each get a share: 3 x (4 + 1).
    pytest.param(
        {"qiang_gang_payment": "bao", "multi_win": "first"},
        [win(1, (0, 2), (2, 3), robbing_kong=True)],
        [0, -15, 15, 0],
        0,
        id="robbing-bao-first",
    ),
    # last_kong under jia_jia_you: C's 直杠 fed by B earns 2 + 1 + 1 = 4; A wins 2 on C's discard:
    # C pays 2 + 4.
    pytest.param(
        {"direct_kong": "jia_jia_you"},
        [kong(2, "direct", "5p", 1), win(2, (0, 2), after_kong=True)],
        [5, -2, -2, -1],
        0,
        id="transfer-jia-jia-you-income",
    ),
    # B 暗杠 (6) + 弯杠 (3); A wins 2 on B's discard + the last kong's 3; B escapes: returns the 6 he
    # still holds (A's 2 too: A has won but not left), pays C and D 16.
    # A -3 + 5 + 2, B 9 - 5 - 6 - 32, C, D -3 + 2 + 16.
    pytest.param(
        {},
        [kong(1, "concealed", "2m"), kong(1, "added", "8m"), win(1, (0, 2), after_kong=True), escape(1, 10)],
        [4, -34, 15, 15],
        0,
        id="escape-returns-only-income-still-held",
    ),
    pytest.param(
        {"base_points": 6, "cap_multiplier": 8, "huazhu_points": "cap"},
        [draw(pig(0), not_ready(1), not_ready(2), not_ready(3))],
        [-144, 48, 48, 48],
        0,
        id="huazhu-cap-amount-in-b",
    ),
    # an escaped winner stays a winner: A (won from B) leaves, C wins on B's discard, D self-draws 1 fan: only
    # B pays (C won, A gone): A 1, B -1 - 1 - 2, C 1, D 2; three winners end the round.
    pytest.param(
        {},
        [win(1, (0, 1)), escape(0, 30), win(1, (2, 1)), win(None, (3, 1))],
        [1, -4, 1, 2],
        0,
        id="escaped-winner-counts-toward-three",
    ),
    # 2 tiles left, readiness from a hand: B holds 1111 4444 55 77 9m, wait 9m = 青龙七对 6 + gen 1 = 7 fan
    # (x64 > 16); C a pig and D not ready get 16. A pays 96.
    pytest.param(
        {},
        [escape(0, 2, {"player": 1, "hand": hand("1111444455779m")}, pig(2), not_ready(3))],
        [-96, 64, 16, 16],
        0,
        id="escape-late-with-a-hand",
    ),
    # --- 7 normal mode -----------------------------------------------------------------------------------
    pytest.param(
        {"mode": "normal"},
        [draw(pig(0), ready(1, 1), ready(2, 3), not_ready(3))],
        [-48, 17, 20, 11],
        0,
        id="normal-draw-among-four",
    ),
    pytest.param(
        {"mode": "normal"}, [win(0, (1, 1), (2, 3))], [-5, 1, 4, 0], 0, id="normal-yi-pao-duo-xiang"
    ),
]


@pytest.mark.parametrize(("rules", "events", "net", "house"), ROUNDS)
def test_round_nets_follow_the_rule_book(
    rules: dict[str, Any], events: list[dict[str, Any]], net: list[int], house: int
) -> None:
    result = _settle(events, {"preset": "chengdu", **rules})
    assert (result["net"], result["house"]) == (net, house)


@pytest.mark.parametrize(
    ("rules", "net"),
    [
        # 定缺 on, A's void suit is m and he holds 123m: a pig, pays 16 each.
        pytest.param({}, [-48, 16, 16, 16], id="void-suit-pig"),
        # 定缺 off: void suits play no part; 123m 456p 789p 11p 55p waits 1p (平胡 1) and 5p (555p beside 456p
        # holds all four 5p: 平胡 + gen = 2): 2 from each.
        pytest.param({"dingque": False}, [6, -2, -2, -2], id="dingque-off-no-void"),
    ],
)
def test_void_suit_makes_a_pig_only_with_dingque(rules: dict[str, Any], net: list[int]) -> None:
    events = [
        draw({"player": 0, "hand": hand("123m456p789p11p55p")}, not_ready(1), not_ready(2), not_ready(3))
    ]
    result = _settle(events, {"preset": "chengdu", **rules}, void_suits=["m", None, None, None])
    assert result["net"] == net


def test_draw_checks_run_in_order() -> None:
    # A pig, B ready, C kong maker not ready: 查花猪, then 查大叫, then 退税.
    events = [kong(2, "added", "8m"), draw(pig(0), ready(1, 1), not_ready(2), not_ready(3))]
    reasons = [t["reason"] for t in _settle(events)["transfers"] if t["event"] == 1]
    assert reasons == sorted(reasons, key=["huazhu", "chajiao", "kong_refund"].index)
    assert set(reasons) == {"huazhu", "chajiao", "kong_refund"}


API_EXAMPLE = {
    "rules": {"preset": "chengdu", "base_points": 6, "tax_rate": 0.1},
    "dealer": 0,
    "void_suits": ["s", "p", None, "s"],
    "events": [
        {"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"},
        {"type": "kong", "player": 0, "kind": "direct", "tile": "5p", "from": 2},
        {
            "type": "win",
            "from": 0,
            "after_kong": True,
            "winners": [
                {"player": 3, "hand": {"concealed": "111m333m777p999p8m", "melds": [], "win_tile": "8m"}}
            ],
        },
        {"type": "win", "from": None, "winners": [{"player": 1, "fan": 4}]},
        {
            "type": "draw",
            "players": [
                {
                    "player": 0,
                    "hand": {"concealed": "123p789p456m7m", "melds": [{"kind": "kong_direct", "tile": "5p"}]},
                },
                {"player": 2, "status": "not_ready"},
            ],
        },
    ],
    "coins": {"balances": [100000, 100000, 4500, 100000], "room_coefficient": 100},
}


def test_api_settle_example() -> None:
    # b = 6. B 暗杠: A, C, D pay 12. A 直杠 fed by C: C pays 12. D wins on A's discard after the kong:
    # 对对胡 2 + 杠上炮 1 = 3 fan x4 = 24, plus A's 12 from that kong.
    # B self-draws 4 fan: 48 + 6 from A and C.
    # Draw: A (void s, holds none) 123p 789p 5555p 456m 7m waits 4m/7m: 平胡 + gen = 2 fan -> C pays 12.
    # A: -12 + 12 - 24 - 12 - 54 + 12 = -78; B: 36 + 108 = 144; C: -12 - 12 - 54 - 12 = -90; D: -12 + 24 + 12.
    # Coins: A pays 7800, C 4500 of 9000; pool 12300 in 14400 : 2400 -> 10542.86 / 1757.14, the leftover coin
    # to B; tax: floor(10543 x 0.9) = 9488, floor(1757 x 0.9) = 1581, house 12300 - 11069 = 1231.
    result = _settle(
        API_EXAMPLE["events"],
        API_EXAMPLE["rules"],
        dealer=0,
        void_suits=API_EXAMPLE["void_suits"],
        coins=API_EXAMPLE["coins"],
    )
    assert result["net"] == [-78, 144, -90, 24]
    assert result["house"] == 0
    assert result["winners"] == [3, 1]
    assert (result["finished"], result["next_dealer"]) == (True, 3)
    assert result["events"][2]["scores"][0]["fan"] == 3
    assert result["coins"]["change"] == [-7800, 9488, -4500, 1581]
    assert result["coins"]["house"] == 1231
    assert result["coins"]["balances"] == [92200, 109488, 0, 101581]


# (rules overrides, events, dealer, balances, coefficient, expected change, expected coin house)
COINS = [
    # QQ: base 20, N = 100, A self-draws 1 fan: each loses 2000, A gets floor(6000 x 0.9) = 5400.
    pytest.param(
        {"preset": "qq", "base_points": 20},
        [win(None, (0, 1))],
        0,
        [10**6] * 4,
        100,
        [5400, -2000, -2000, -2000],
        600,
        id="qq-coin-example",
    ),
    # 0.3 of 90 must leave 63: b = 45, 2 fan discard win = 90 points, N = 1.
    pytest.param(
        {"base_points": 45, "tax_rate": 0.3},
        [win(0, (1, 2))],
        0,
        [1000] * 4,
        1,
        [-90, 63, 0, 0],
        27,
        id="tax-exact",
    ),
    # A pays B and D 1 each but holds 1 coin: 0.5 / 0.5, the coin to the dealer first.
    pytest.param(
        {}, [win(0, (1, 1), (3, 1))], 3, [1, 100, 100, 100], 1, [-1, 0, 0, 1], 0, id="tie-to-dealer"
    ),
    pytest.param(
        {}, [win(0, (1, 1), (3, 1))], 1, [1, 100, 100, 100], 1, [-1, 1, 0, 0], 0, id="tie-to-dealer-b"
    ),
    # dealer C holds no claim: play order after the dealer is D, A, B -> D.
    pytest.param(
        {},
        [win(0, (1, 1), (3, 1))],
        2,
        [1, 100, 100, 100],
        1,
        [-1, 0, 0, 1],
        0,
        id="tie-play-order-from-dealer",
    ),
    # A discards to B 5 fan (16); C escapes with escape_points 8, burned: 8 x 2 (A, D) = 16 for the house.
    # A holds 2, C holds 1: pool 3 for B 16 : house 16 -> 1.5 each; the leftover coin to B, house last.
    pytest.param(
        {"escape_penalty_to": "burn", "escape_points": 8},
        [win(0, (1, 5)), escape(2, 10)],
        0,
        [2, 100, 1, 100],
        1,
        [-2, 2, -1, 0],
        1,
        id="tie-house-last",
    ),
    # A owes B, C, D 1 each, holds 2: 2/3 each, floors 0, two leftover coins by tie: dealer C first, then D.
    pytest.param(
        {},
        [win(0, (1, 1), (2, 1), (3, 1))],
        2,
        [2, 100, 100, 100],
        1,
        [-2, 0, 1, 1],
        0,
        id="two-leftovers-dealer-then-play-order",
    ),
    pytest.param(
        {},
        [win(0, (1, 1), (2, 1), (3, 1))],
        0,
        [2, 100, 100, 100],
        1,
        [-2, 1, 1, 0],
        0,
        id="two-leftovers-play-order-after-losing-dealer",
    ),
    # burned claim and tax: A pays B 4; C escapes, 16 x 2 burned. N = 10: B floor(40 x 0.9) = 36, the
    # house its own 320 untaxed plus B's 4 of tax.
    pytest.param(
        {"escape_penalty_to": "burn", "tax_rate": 0.1},
        [win(0, (1, 3)), escape(2, 10)],
        0,
        [10**4] * 4,
        10,
        [-40, 36, -320, 0],
        324,
        id="house-claim-and-tax",
    ),
    # nobody short: exactly C_j each.
    pytest.param({}, [win(0, (1, 3))], 0, [100] * 4, 10, [-40, 40, 0, 0], 0, id="coins-no-shortfall"),
]


@pytest.mark.parametrize(("rules", "events", "dealer", "balances", "coefficient", "change", "house"), COINS)
def test_coins_prorate_round_and_tax(
    rules: dict[str, Any],
    events: list[dict[str, Any]],
    dealer: int,
    balances: list[int],
    coefficient: int,
    change: list[int],
    house: int,
) -> None:
    result = _settle(
        events,
        {"preset": "chengdu", **rules},
        dealer=dealer,
        coins={"balances": balances, "room_coefficient": coefficient},
    )
    assert result["coins"]["change"] == change
    assert result["coins"]["house"] == house
    assert result["coins"]["balances"] == [b + c for b, c in zip(balances, change, strict=True)]


END_OF_ROUND = [not_ready(0), not_ready(2)]

# (rules overrides, dealer, events, expected next dealer)
DEALERS = [
    # C discards to B and D: first winner after C is D.
    pytest.param({}, 0, [win(2, (1, 1), (3, 1)), draw(*END_OF_ROUND)], 3, id="first-winner-after-discarder"),
    pytest.param(
        {"dealer_rule": "discarder"}, 0, [win(2, (1, 1), (3, 1)), draw(*END_OF_ROUND)], 2, id="discarder"
    ),
    pytest.param(
        {"dealer_rule": "first_winner_multi_discarder"},
        0,
        [win(2, (1, 1), (3, 1)), draw(*END_OF_ROUND)],
        2,
        id="multi-discarder",
    ),
    pytest.param(
        {"dealer_rule": "first_winner_multi_discarder"},
        0,
        [win(2, (1, 1)), win(2, (3, 1)), draw(*END_OF_ROUND)],
        1,
        id="multi-discarder-single-win",
    ),
    pytest.param({"dealer_rule": "dice"}, 0, [win(2, (1, 1), (3, 1)), draw(*END_OF_ROUND)], None, id="dice"),
    # D discards to A and C: first after D is A.
    pytest.param(
        {}, 1, [win(3, (0, 1), (2, 1)), draw(not_ready(1), not_ready(3))], 0, id="first-winner-wraps"
    ),
    pytest.param(
        {"dealer_rule": "discarder"},
        0,
        [win(None, (1, 1)), win(2, (3, 1)), draw(*END_OF_ROUND)],
        1,
        id="discarder-after-self-draw-is-winner",
    ),
    # a robbed player deals next under discarder.
    pytest.param(
        {"dealer_rule": "discarder"},
        0,
        [win(1, (2, 2), robbing_kong=True), draw(not_ready(0), not_ready(1), not_ready(3))],
        1,
        id="discarder-robbed",
    ),
    pytest.param(
        {}, 2, [draw(not_ready(0), not_ready(1), not_ready(2), not_ready(3))], 2, id="nobody-won-stays"
    ),
    pytest.param(
        {"dealer_rule": "discarder"},
        2,
        [draw(not_ready(0), not_ready(1), not_ready(2), not_ready(3))],
        2,
        id="nobody-won-stays-discarder",
    ),
    pytest.param({}, 0, [win(2, (1, 1))], None, id="unfinished-has-no-dealer"),
    # three wins end the round.
    pytest.param({}, 0, [win(0, (1, 1)), win(0, (2, 1)), win(None, (3, 1))], 1, id="third-win-ends"),
    pytest.param({"mode": "normal"}, 0, [win(3, (2, 1))], 2, id="normal-first-win-ends"),
]


@pytest.mark.parametrize(("rules", "dealer", "events", "next_dealer"), DEALERS)
def test_next_dealer(
    rules: dict[str, Any], dealer: int, events: list[dict[str, Any]], next_dealer: int | None
) -> None:
    result = _settle(events, {"preset": "chengdu", **rules}, dealer=dealer)
    assert result["next_dealer"] == next_dealer


def test_winners_listed_in_play_order_after_the_discarder() -> None:
    assert _settle([win(2, (1, 1), (3, 1))])["winners"] == [3, 1]


IMPOSSIBLE = [
    pytest.param(
        {}, [win(0, (1, 1)), win(0, (2, 1)), win(0, (3, 1)), win(None, (0, 1))], id="after-third-win"
    ),
    pytest.param({"mode": "normal"}, [win(0, (1, 1)), win(0, (2, 1))], id="normal-after-first-win"),
    pytest.param({}, [escape(0, 10), win(1, (2, 1))], id="after-escape"),
    pytest.param(
        {}, [win(0, (1, 1)), draw(not_ready(0), not_ready(2), not_ready(3)), win(0, (2, 1))], id="after-draw"
    ),
    pytest.param({}, [win(0, (1, 1), last_tile=True), win(0, (2, 1))], id="win-after-last-tile"),
    pytest.param({}, [win(0, (1, 1)), win(1, (2, 1))], id="winner-discards"),
    pytest.param({}, [win(0, (3, 1)), kong(2, "direct", "5p", 3)], id="winner-feeds-a-kong"),
    pytest.param({}, [win(0, (1, 1)), win(1, (2, 1), robbing_kong=True)], id="winner-robbed"),
    pytest.param({}, [win(0, (1, 1)), kong(1, "concealed", "5p")], id="winner-kongs"),
    pytest.param(
        {}, [kong(2, "concealed", "5p"), win(None, (1, 2), after_kong=True)], id="gang-shang-hua-wrong-player"
    ),
    pytest.param({}, [win(0, (0, 1))], id="discarder-wins-own-discard"),
    pytest.param(
        {}, [kong(2, "added", "8m"), win(1, (0, 1), after_kong=True)], id="gang-shang-pao-wrong-player"
    ),
    pytest.param(
        {},
        [kong(1, "added", "8m"), win(1, (0, 1), after_kong=True, robbing_kong=True)],
        id="after-kong-with-robbing",
    ),
]


@pytest.mark.parametrize(("rules", "events"), IMPOSSIBLE)
def test_impossible_sequences_are_rejected(rules: dict[str, Any], events: list[dict[str, Any]]) -> None:
    with pytest.raises(EngineError):
        _settle(events, {"preset": "chengdu", **rules})


@pytest.mark.parametrize(
    ("void_suits", "events"),
    [
        pytest.param(["m", None, None, None], [kong(0, "concealed", "2m")], id="kong-in-void-suit"),
        # a kong of 5p followed by a hand that holds another 5p: five copies.
        pytest.param(
            None,
            [
                kong(2, "concealed", "5p"),
                {
                    "type": "win",
                    "from": 0,
                    "winners": [{"player": 1, "hand": hand("234m678m789m34p55p", "5p")}],
                },
            ],
            id="five-copies-across-events",
        ),
        # valid tiles that do not win cannot be a win event.
        pytest.param(
            None,
            [
                {
                    "type": "win",
                    "from": 0,
                    "winners": [{"player": 1, "hand": hand("234m678m789m34p56p", "9p")}],
                }
            ],
            id="hand-that-does-not-win",
        ),
    ],
)
def test_impossible_tiles_are_rejected(
    void_suits: list[str | None] | None, events: list[dict[str, Any]]
) -> None:
    with pytest.raises(EngineError):
        _settle(events, void_suits=void_suits)


def test_transfers_name_their_reasons() -> None:
    # ex11: 4 x 3 as win, 1 x 3 as self_draw_bonus; a burned escape goes "to": "house"; no coins unless sent.
    result = _settle([win(None, (1, 3)), escape(0, 10)], {"preset": "chengdu", "escape_penalty_to": "burn"})
    by_reason: dict[str, int] = {}
    for transfer in result["transfers"]:
        by_reason[transfer["reason"]] = by_reason.get(transfer["reason"], 0) + transfer["points"]
    assert by_reason == {"win": 12, "self_draw_bonus": 3, "escape": 32}
    assert {t["to"] for t in result["transfers"] if t["reason"] == "escape"} == {"house"}
    assert sum(result["net"]) + result["house"] == 0
    assert "coins" not in result


def test_last_tile_win_may_be_followed_by_a_draw() -> None:
    # 海底 is off in chengdu: 1 fan, A pays 1; then 流局 with nobody else ready.
    result = _settle([win(0, (1, 1), last_tile=True), draw(not_ready(0), not_ready(2), not_ready(3))])
    assert (result["net"], result["finished"]) == ([-1, 1, 0, 0], True)


@pytest.mark.parametrize(
    ("balances", "most"),
    [
        pytest.param([5, -3, -2, 0], 2, id="three-nonzero"),
        # two independent pairs: 2 transfers, not 3.
        pytest.param([3, 4, -3, -4], 2, id="pairs-match"),
        pytest.param([6, -1, -5, 3, -3], 3, id="five-players-split-in-two-groups"),
        pytest.param([0, 0, 0, 0], 0, id="all-square"),
    ],
)
def test_settle_up_uses_the_fewest_transfers(balances: list[int], most: int) -> None:
    payments = settle_up(balances)
    assert len(payments) <= most
    left = list(balances)
    for payment in payments:
        assert isinstance(payment.amount, int) and payment.amount > 0
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    assert left == [0] * len(balances)
