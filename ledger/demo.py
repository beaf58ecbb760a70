"""The demo table that ``manage.py load_demo`` records: a Friday-night session of a dozen varied hands,
after two earlier Fridays (closed), so the group's statistics have standings to draw.

Tonight's seats: 0 小王, 1 小李, 2 阿美, 3 老张. Some wins are given as tiles (the engine scores them),
others by their fan, as a scorekeeper would enter them.
"""

from typing import Any, TypedDict

USERNAME = "demo"
PASSWORD = "demo-sczmj"  # noqa: S105 - the demo accounts' documented password
GROUP = "周五麻将"
PLAYERS = ("小王", "小李", "阿美", "老张")
SESSION = "第一场"
RULES = {"preset": "chengdu"}


class Coins(TypedDict):
    room_coefficient: int
    starting_balances: list[int]


COINS: Coins = {"room_coefficient": 100, "starting_balances": [20000, 20000, 20000, 20000]}


def _win(discarder: int | None, *winners: tuple[int, Any], **flags: Any) -> dict[str, Any]:
    """A win event on ``discarder``'s tile (None: a self-draw); each winner is (seat, fan) or (seat, hand)."""
    listed = [
        {"player": seat, "fan": how} if isinstance(how, int) else {"player": seat, "hand": how}
        for seat, how in winners
    ]
    return {"type": "win", "from": discarder, "winners": listed, **flags}


ROUNDS: tuple[dict[str, Any], ...] = (
    {  # 小李 self-draws a 清一色; 阿美 wins on 老张's discard; 小王 self-draws: three winners
        "dealer": 0,
        "void_suits": ["m", "m", "p", "s"],
        "events": [
            _win(None, (1, {"concealed": "11s333s222s456s99s", "win_tile": "9s"})),
            _win(3, (2, 2)),
            _win(None, (0, 1)),
        ],
    },
    {  # 老张 暗杠 then 杠上花 (平胡 + 1 gen + 杠上花 = 3 fan)
        "dealer": 1,
        "events": [
            {"type": "kong", "player": 3, "kind": "concealed", "tile": "5s"},
            _win(None, (3, 3), after_kong=True),
            _win(0, (1, 1)),
            _win(2, (0, 2)),
        ],
    },
    {  # 阿美 直杠 off 小王, 小李 弯杠, then 杠上炮: 老张 wins on 小李's next discard, the kong money follows
        "dealer": 3,
        "events": [
            {"type": "kong", "player": 2, "kind": "direct", "tile": "7m", "from": 0},
            {"type": "kong", "player": 1, "kind": "added", "tile": "8p"},
            _win(1, (3, 2), after_kong=True),
            _win(None, (2, 2)),
            _win(0, (1, 1)),
        ],
    },
    {  # 一炮多响: 小王's discard wins for 小李 and 阿美 (corrected below: 阿美 had 4 fan, not 3)
        "dealer": 3,
        "events": [_win(0, (1, 2), (2, 3)), _win(None, (3, 1))],
    },
    {  # 流局: 小王 is a flower pig, 小李 ready for 1 fan, 阿美 for 清一色, 老张 not ready
        "dealer": 1,
        "events": [
            {
                "type": "draw",
                "players": [
                    {"player": 0, "status": "huazhu"},
                    {"player": 1, "status": "ready", "fan": 1},
                    {"player": 2, "status": "ready", "fan": 3},
                    {"player": 3, "status": "not_ready"},
                ],
            }
        ],
    },
    {  # 小王 self-draws a 青龙七对 (seven pairs in one suit with a quad) from tiles
        "dealer": 1,
        "events": [
            _win(None, (0, {"concealed": "1122224455779m", "win_tile": "9m"})),
            _win(1, (2, 2)),
            _win(None, (3, 2)),
        ],
    },
    {  # 小李 and 阿美 win, then 流局 with 小王 ready and 老张 not: 老张 pays 查大叫
        "dealer": 0,
        "events": [
            _win(3, (1, 3)),
            _win(None, (2, 1)),
            {
                "type": "draw",
                "players": [{"player": 0, "status": "ready", "fan": 2}, {"player": 3, "status": "not_ready"}],
            },
        ],
    },
    {  # 抢杠胡: 老张 robs 阿美's added kong
        "dealer": 1,
        "events": [_win(2, (3, 2), robbing_kong=True), _win(None, (0, 2)), _win(1, (2, 1))],
    },
    {  # a quiet hand: three small wins
        "dealer": 3,
        "events": [_win(2, (0, 1)), _win(3, (1, 1)), _win(None, (2, 2))],
    },
    {  # 小李 暗杠 and 老张 直杠 off 阿美, then three wins
        "dealer": 0,
        "events": [
            {"type": "kong", "player": 1, "kind": "concealed", "tile": "3p"},
            {"type": "kong", "player": 3, "kind": "direct", "tile": "6s", "from": 2},
            _win(None, (1, 4)),
            _win(0, (3, 3)),
            _win(2, (0, 1)),
        ],
    },
    {  # 一炮多响 off 老张, then a self-draw ends it
        "dealer": 1,
        "events": [_win(3, (0, 2), (2, 2)), _win(None, (1, 3))],
    },
    {  # 老张 self-draws a big one (5 fan)
        "dealer": 3,
        "events": [_win(None, (3, 5)), _win(0, (1, 2)), _win(None, (2, 1))],
    },
)

# Two earlier evenings, recorded and closed before tonight's: (name, how many weeks before tonight it was
# played, who sat where as indices into PLAYERS, the rounds), seats in each round numbered as in that
# evening. They carry their own dates, so the statistics' standings read as the weeks they were.
EARLIER: tuple[tuple[str, int, tuple[int, ...], tuple[dict[str, Any], ...]], ...] = (
    (
        "上上周五",
        2,
        (2, 0, 3, 1),  # 阿美 小王 老张 小李
        (
            {  # seat 2 self-draws a 清对 from tiles; seat 0 wins on seat 3's discard; seat 1 self-draws
                "dealer": 0,
                "events": [
                    _win(None, (2, {"concealed": "111p333p555p777p9p", "win_tile": "9p"})),
                    _win(3, (0, 1)),
                    _win(None, (1, 2)),
                ],
            },
            {  # 流局: seat 3 a flower pig, seat 1 not ready
                "dealer": 2,
                "events": [
                    {
                        "type": "draw",
                        "players": [
                            {"player": 0, "status": "ready", "fan": 2},
                            {"player": 1, "status": "not_ready"},
                            {"player": 2, "status": "ready", "fan": 1},
                            {"player": 3, "status": "huazhu"},
                        ],
                    }
                ],
            },
            {  # seat 1 暗杠 then 杠上花; seats 3 and 2 win on seat 0's discards
                "dealer": 2,
                "events": [
                    {"type": "kong", "player": 1, "kind": "concealed", "tile": "6s"},
                    _win(None, (1, 3), after_kong=True),
                    _win(0, (3, 2)),
                    _win(0, (2, 1)),
                ],
            },
            {  # 一炮多响 off seat 3: seat 1's 对对胡 from tiles and seat 2's 1 fan; seat 0 self-draws
                "dealer": 3,
                "events": [
                    _win(3, (1, {"concealed": "111m222m444m333p9p", "win_tile": "9p"}), (2, 1)),
                    _win(None, (0, 2)),
                ],
            },
            {  # seat 0 直杠 off seat 2, then self-draws a 龙七对 from tiles; two small wins follow
                "dealer": 1,
                "events": [
                    {"type": "kong", "player": 0, "kind": "direct", "tile": "4s", "from": 2},
                    _win(None, (0, {"concealed": "11222244p55779m", "win_tile": "9m"})),
                    _win(3, (1, 1)),
                    _win(None, (3, 1)),
                ],
            },
        ),
    ),
    (
        "上周五",
        1,
        (1, 3, 0, 2),  # 小李 老张 小王 阿美
        (
            {  # seat 3 self-draws a 带幺九 from tiles; seats 2 and 0 win on seat 1's discards
                "dealer": 0,
                "events": [
                    _win(None, (3, {"concealed": "111222333m789p9p", "win_tile": "9p"})),
                    _win(1, (2, 2)),
                    _win(1, (0, 1)),
                ],
            },
            {  # seat 2 弯杠, then 杠上炮: seat 0 wins on his next discard and takes the kong money
                "dealer": 3,
                "events": [
                    {"type": "kong", "player": 2, "kind": "added", "tile": "5m"},
                    _win(2, (0, 2), after_kong=True),
                    _win(None, (1, 2)),
                    _win(2, (3, 1)),
                ],
            },
            {  # 流局: seat 1 a flower pig, seat 0 not ready
                "dealer": 0,
                "events": [
                    {
                        "type": "draw",
                        "players": [
                            {"player": 0, "status": "not_ready"},
                            {"player": 1, "status": "huazhu"},
                            {"player": 2, "status": "ready", "fan": 3},
                            {"player": 3, "status": "ready", "fan": 1},
                        ],
                    }
                ],
            },
            {  # seat 0 self-draws a 清一色 from tiles; seats 3 and 1 win on seat 2's discards
                "dealer": 0,
                "events": [
                    _win(None, (0, {"concealed": "11s333s222s456s99s", "win_tile": "9s"})),
                    _win(2, (3, 1)),
                    _win(2, (1, 2)),
                ],
            },
            {  # 一炮多响 off seat 1 for seats 0 and 3; seat 2 self-draws
                "dealer": 0,
                "events": [_win(1, (0, 2), (3, 3)), _win(None, (2, 1))],
            },
        ),
    ),
)

# An earlier evening's hands are dated this many minutes apart, from its start; it closes after the last.
MINUTES_PER_HAND = 12

# (round position, corrected body): the scorekeeper fixes 阿美's fan in the 一炮多响 round.
CORRECTION = (4, {"dealer": 3, "events": [_win(0, (1, 2), (2, 4)), _win(None, (3, 1))]})

# The hand being played when the demo opens (the 13th): 小王 has declared a concealed kong and 阿美 has
# self-drawn, so the session page shows a living hand (a kong paid at once, a winner marked 胡), not a
# blank one. Entered through the hand-in-progress services, as the session page enters events.
HAND_IN_PROGRESS: tuple[dict[str, Any], ...] = (
    {"type": "kong", "player": 0, "kind": "concealed", "tile": "9p"},
    _win(None, (2, 2)),
)
