"""``POST /api/v1/settle/``: settle one round from its events (API.md), stateless like the calculators."""

from django.urls import path

from api.stateless import EngineView, engine_schema, example
from settlement.engine import settle_from_payload

from .serializers import RoundResultSerializer, SettleRequestSerializer

COINS_ROUND = {
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

# A whole 血战到底 round: 刮风下雨 (three kongs), 一炮多响 on the discard after a kong (杠上炮, 呼叫转移 to
# both winners), then 流局: seat 0 is ready, seat 1 a flower pig who also returns his remaining kong money.
BLOOD_BATTLE_ROUND = {
    "dealer": 0,
    "void_suits": ["m", "p", "s", "s"],
    "events": [
        {"type": "kong", "player": 0, "kind": "concealed", "tile": "9s"},
        {"type": "kong", "player": 1, "kind": "direct", "tile": "3m", "from": 2},
        {"type": "kong", "player": 1, "kind": "added", "tile": "7m"},
        {
            "type": "win",
            "from": 1,
            "after_kong": True,
            "winners": [
                {"player": 2, "hand": {"concealed": "123p456p789p11m22m", "win_tile": "2m"}},
                {"player": 3, "fan": 3},
            ],
        },
        {
            "type": "draw",
            "players": [
                {
                    "player": 0,
                    "hand": {
                        "concealed": "234s678s11s55p",
                        "melds": [{"kind": "kong_concealed", "tile": "9s"}],
                    },
                },
                {
                    "player": 1,
                    "hand": {
                        "concealed": "1p5s45689m",
                        "melds": [
                            {"kind": "kong_direct", "tile": "3m"},
                            {"kind": "kong_added", "tile": "7m"},
                        ],
                    },
                },
            ],
        },
    ],
}

SETTLE_EXAMPLES = [
    example("coins", "API.md's round with coins: b = 6, N = 100, tax 10%", COINS_ROUND),
    example(
        "coins",
        "The round settled (abridged: transfer details, the per-event report and the state left out)",
        {
            "transfers": [
                {"event": 0, "from": 0, "to": 1, "points": 12, "reason": "concealed_kong"},
                {"event": 0, "from": 2, "to": 1, "points": 12, "reason": "concealed_kong"},
                {"event": 0, "from": 3, "to": 1, "points": 12, "reason": "concealed_kong"},
                {"event": 1, "from": 2, "to": 0, "points": 12, "reason": "direct_kong"},
                {"event": 2, "from": 0, "to": 3, "points": 24, "reason": "win"},
                {"event": 2, "from": 0, "to": 3, "points": 12, "reason": "kong_transfer"},
                {"event": 3, "from": 0, "to": 1, "points": 48, "reason": "win"},
                {"event": 3, "from": 0, "to": 1, "points": 6, "reason": "self_draw_bonus"},
                {"event": 3, "from": 2, "to": 1, "points": 48, "reason": "win"},
                {"event": 3, "from": 2, "to": 1, "points": 6, "reason": "self_draw_bonus"},
                {"event": 4, "from": 2, "to": 0, "points": 12, "reason": "chajiao"},
            ],
            "net": [-78, 144, -90, 24],
            "house": 0,
            "winners": [3, 1],
            "finished": True,
            "next_dealer": 3,
            "coins": {
                "change": [-7800, 9488, -4500, 1581],
                "house": 1231,
                "balances": [92200, 109488, 0, 101581],
            },
        },
        response=True,
    ),
    example(
        "blood_battle",
        "刮风下雨, 一炮多响 with 杠上炮 and 呼叫转移, 流局 with a 花猪 and 退税",
        BLOOD_BATTLE_ROUND,
    ),
    example(
        "impossible_sequence",
        "A 400 names the event: here seat 3 self-draws, then makes a kong",
        {
            "field": "events[1].player",
            "detail": "Player 3 has already won and is out of play (血战到底).",
            "detail_zh": "玩家 3 已经胡牌离场，不能再行动。",
            "errors": {"events[1].player": ["Player 3 has already won and is out of play (血战到底)."]},
            "event": 1,
            "code": "player_has_won",
        },
        response=True,
        status=400,
    ),
]


@engine_schema(
    operation_id="settle_round",
    summary="Settle one round from its events",
    description="Replays kong, win, draw and escape events in order (RULES.md sections 4 to 9) and "
    "returns every transfer with its event and reason. An impossible sequence gives 400 naming the "
    "event.",
    request=SettleRequestSerializer,
    result=RoundResultSerializer,
    examples=SETTLE_EXAMPLES,
)
class SettleView(EngineView):
    answer = staticmethod(settle_from_payload)


api_patterns = [path("api/v1/settle/", SettleView.as_view(), name="api-settle")]
