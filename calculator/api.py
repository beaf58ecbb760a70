"""The stateless calculator API: score a hand, find a position's waits, list the rules (API.md).

Each view is one line of work: the parsed body goes to the engine's request parser, whose result is the
response. No login, no CSRF, no throttling and no serializer validation on the way: the engine validates,
and an ``EngineError`` becomes the 400 body of ``api.errors``.
"""

from django.http import HttpResponse
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request

from api.stateless import EngineView, StatelessView, engine_schema, example, json_bytes
from calculator.engine import describe_rules, score_from_payload, waits_from_payload

from .serializers import (
    RulesDescriptionSerializer,
    ScoreRequestSerializer,
    ScoreResultSerializer,
    WaitsRequestSerializer,
    WaitsResultSerializer,
)

SCORE_EXAMPLES = [
    example(
        "full_flush",
        "清一色 on a discard, chengdu rules capped at x16",
        {
            "concealed": "11s333s222s456s99s",
            "win_tile": "9s",
            "win_by": "discard",
            "after_kong": False,
            "last_tile": False,
            "tian_hu": False,
            "di_hu": False,
            "void_suit": None,
            "rules": {"preset": "chengdu", "cap_multiplier": 16},
        },
    ),
    example(
        "full_flush",
        "清一色: 3 fan, x4",
        {
            "win": True,
            "fan": 3,
            "multiplier": 4,
            "points": 4,
            "capped": False,
            "pattern": {"key": "qing_yi_se", "name": "清一色", "name_en": "Full flush", "fan": 3},
            "gen": 0,
            "extras": [],
            "sets": ["11s", "222s", "333s", "456s", "999s"],
        },
        response=True,
    ),
    example(
        "seven_pairs",
        "七对 by self-draw, compact Chinese notation",
        {"concealed": "11224466万55773筒", "win_tile": "3p", "win_by": "self_draw"},
    ),
    example(
        "seven_pairs",
        "七对: 3 fan, x4 (自摸加底 is paid at settlement, not counted in fan)",
        {
            "win": True,
            "fan": 3,
            "multiplier": 4,
            "points": 4,
            "capped": False,
            "pattern": {"key": "qi_dui", "name": "七对", "name_en": "Seven pairs", "fan": 3},
            "gen": 0,
            "extras": [],
            "sets": ["11m", "22m", "44m", "66m", "33p", "55p", "77p"],
        },
        response=True,
    ),
    example(
        "not_a_win",
        "Valid tiles in three suits: 200 with win false",
        {"concealed": "123m456p789s11s23m", "win_tile": "4m"},
    ),
    example(
        "not_a_win",
        "win false, with the reason in English and Chinese and a stable code",
        {
            "win": False,
            "fan": 0,
            "multiplier": 0,
            "points": 0,
            "capped": False,
            "pattern": None,
            "gen": 0,
            "extras": [],
            "sets": [],
            "reason": "The hand holds all three suits: a winning hand has at most two (缺一门).",
            "reason_zh": "这手牌三门都有：胡牌最多只能有两门（缺一门）。",
            "reason_code": "three_suits",
        },
        response=True,
    ),
    example(
        "kong_replacement",
        "杠上花 with a declared concealed kong",
        {
            "concealed": ["1s", "2s", "3s", "6s", "7s", "8s", "2m", "3m", "4m", "2m"],
            "melds": [{"kind": "kong_concealed", "tile": "5s"}],
            "win_tile": "2m",
            "win_by": "self_draw",
            "after_kong": True,
        },
    ),
    example(
        "bad_tile",
        "A 400: the field at fault, in English and Chinese",
        {
            "field": "concealed",
            "detail": "'x' at position 4 is not a tile.",
            "detail_zh": "第 4 个字符“x”不是牌。",
            "errors": {"concealed": ["'x' at position 4 is not a tile."]},
            "code": "not_a_tile",
        },
        response=True,
        status=400,
    ),
]

WAITS_EXAMPLES = [
    example("pure_flush_position", "A 13-tile 清一色 position", {"concealed": "1122334455667m"}),
    example(
        "pure_flush_position",
        "Three waits; 7m makes 清七对",
        {
            "ready": True,
            "huazhu": False,
            "waits": [
                {
                    "tile": "1m",
                    "fan": 3,
                    "multiplier": 4,
                    "points": 4,
                    "pattern": "qing_yi_se",
                    "gen": 0,
                    "capped": False,
                },
                {
                    "tile": "4m",
                    "fan": 3,
                    "multiplier": 4,
                    "points": 4,
                    "pattern": "qing_yi_se",
                    "gen": 0,
                    "capped": False,
                },
                {
                    "tile": "7m",
                    "fan": 5,
                    "multiplier": 16,
                    "points": 16,
                    "pattern": "qing_qi_dui",
                    "gen": 0,
                    "capped": False,
                },
            ],
            "best": {
                "tile": "7m",
                "fan": 5,
                "multiplier": 16,
                "points": 16,
                "pattern": "qing_qi_dui",
                "gen": 0,
                "capped": False,
            },
        },
        response=True,
    ),
    example(
        "holding_a_drawn_tile",
        "14 tiles: which discards leave a ready hand",
        {"concealed": "11223344556678m", "void_suit": "s"},
    ),
    example(
        "with_melds",
        "Two melds and a void suit",
        {
            "concealed": "1234566p",
            "melds": [{"kind": "pung", "tile": "9m"}, {"kind": "kong_direct", "tile": "5m"}],
            "void_suit": "s",
        },
    ),
    example(
        "with_melds",
        "Ready on 3p and 6p; the 5m kong is a gen",
        {
            "ready": True,
            "huazhu": False,
            "waits": [
                {
                    "tile": "3p",
                    "fan": 2,
                    "multiplier": 2,
                    "points": 2,
                    "pattern": "ping_hu",
                    "gen": 1,
                    "capped": False,
                },
                {
                    "tile": "6p",
                    "fan": 2,
                    "multiplier": 2,
                    "points": 2,
                    "pattern": "ping_hu",
                    "gen": 1,
                    "capped": False,
                },
            ],
            "best": {
                "tile": "3p",
                "fan": 2,
                "multiplier": 2,
                "points": 2,
                "pattern": "ping_hu",
                "gen": 1,
                "capped": False,
            },
        },
        response=True,
    ),
]


@engine_schema(
    operation_id="score_hand",
    summary="The fan of one winning hand",
    description="Scores a hand by RULES.md section 3. Valid tiles that do not win give 200 with win "
    "false and a reason; malformed input gives 400 naming the field.",
    request=ScoreRequestSerializer,
    result=ScoreResultSerializer,
    examples=SCORE_EXAMPLES,
)
class ScoreView(EngineView):
    answer = staticmethod(score_from_payload)


@engine_schema(
    operation_id="find_waits",
    summary="Is a position ready, on what, and for how much",
    description="Every live wait with its best-case fan for 查大叫 (RULES.md 3.4). With one tile too "
    "many, the discards that leave a ready hand are listed and best is the best over them.",
    request=WaitsRequestSerializer,
    result=WaitsResultSerializer,
    examples=WAITS_EXAMPLES,
)
class WaitsView(EngineView):
    answer = staticmethod(waits_from_payload)


class RulesView(StatelessView):
    @extend_schema(
        operation_id="describe_rules",
        summary="Every rule option and every preset",
        description="Each option with its type, allowed values and meaning; each preset with the full value "
        "of every option; the base patterns with their default fan.",
        responses={200: RulesDescriptionSerializer},
        tags=["calculators"],
    )
    def get(self, request: Request) -> HttpResponse:
        return HttpResponse(RULES_DESCRIPTION, content_type="application/json")


RULES_DESCRIPTION = json_bytes(describe_rules())  # the options table is fixed for the life of the process

api_patterns = [
    path("api/v1/score/", ScoreView.as_view(), name="api-score"),
    path("api/v1/waits/", WaitsView.as_view(), name="api-waits"),
    path("api/v1/rules/", RulesView.as_view(), name="api-rules"),
]
