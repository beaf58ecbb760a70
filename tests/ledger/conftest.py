"""Fixtures of the ledger tests: accounts, a group with four players, a session, API clients, round bodies,
and the two hand-worked evenings the statistics are checked against."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from ledger import services, tokens
from ledger.models import Player, Role

SELF_DRAW_B = {"dealer": 0, "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 3}]}]}
SELF_DRAW_B_NET = [-5, 15, -5, -5]  # RULES.md example 11
KONG_THEN_GANG_SHANG_PAO = {  # RULES.md example 13 (the fan of C's win includes 杠上炮)
    "dealer": 0,
    "events": [
        {"type": "kong", "player": 1, "kind": "added", "tile": "8m"},
        {"type": "win", "from": 1, "after_kong": True, "winners": [{"player": 2, "fan": 2}]},
    ],
}
KONG_THEN_GANG_SHANG_PAO_NET = [-1, -2, 4, -1]
DIRECT_KONG = {
    "dealer": 0,
    "events": [{"type": "kong", "player": 2, "kind": "direct", "tile": "7m", "from": 1}],
}
DIRECT_KONG_NET = [0, -2, 2, 0]  # RULES.md example 15
DRAW_WITH_PIG = {  # RULES.md example 16
    "dealer": 0,
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
}
DRAW_WITH_PIG_NET = [-48, 17, 20, 11]
NAMES = ("小王", "小李", "阿美", "老张")
ONE_DISCARD_TWO_WINNERS = {  # 一炮多响: 小王 (seat 0) feeds 小李 2 fan and 阿美 4 fan
    "dealer": 0,
    "events": [{"type": "win", "from": 0, "winners": [{"player": 1, "fan": 2}, {"player": 2, "fan": 4}]}],
}


# --- the hand-worked group of the statistics' tests (RULES.md 12 for the figures of its rounds) ----------

# 第一场, seats 小王 小李 阿美 老张.
EVENING_ONE = (
    SELF_DRAW_B,  # 1. 小李 self-draws 3 fan (x4 + 1 from each): [-5, +15, -5, -5]
    KONG_THEN_GANG_SHANG_PAO,  # 2. 小李 弯杠 (1 from each), 阿美 wins on his next discard, 2 fan, and takes
    #                            the 3 kong points over (呼叫转移): [-1, -2, +4, -1]
    ONE_DISCARD_TWO_WINNERS,  # 3. recorded 一炮多响 [-10, +2, +8, 0], corrected below
    {  # 4. 老张 暗杠 5s (2 from each) and self-draws 5 fan; at the draw 小王 is a 花猪 and 小李 not ready:
        #    voided below, so none of it counts
        "dealer": 0,
        "events": [
            {"type": "kong", "player": 3, "kind": "concealed", "tile": "5s"},
            {"type": "win", "from": None, "winners": [{"player": 3, "fan": 5}]},
            {
                "type": "draw",
                "players": [
                    {"player": 0, "status": "huazhu"},
                    {"player": 1, "status": "not_ready"},
                    {"player": 2, "status": "ready", "fan": 1},
                ],
            },
        ],
    },
)
# Hand 3 corrected: 阿美 had 3 fan, not 4 -> 小王 pays 2 and 4: [-6, +2, +4, 0]
EVENING_ONE_CORRECTION = {
    "dealer": 0,
    "events": [{"type": "win", "from": 0, "winners": [{"player": 1, "fan": 2}, {"player": 2, "fan": 3}]}],
}
# 第二场, seats 小王 老张 阿美 小李 (老张 and 小李 change places).
EVENING_TWO = (
    DRAW_WITH_PIG,  # 1. 流局: 小王 花猪 pays 16 to each; 小李 not ready pays 老张 1 and 阿美 4 (查大叫):
    #                 [-48, +17, +20, +11]
    {  # 2. 老张 直杠 off 阿美 (2), then 小李 feeds 小王 (1 fan) and 老张 (2 fan): [+1, +4, -2, -3]
        "dealer": 0,
        "events": [
            {"type": "kong", "player": 1, "kind": "direct", "tile": "7m", "from": 2},
            {"type": "win", "from": 3, "winners": [{"player": 0, "fan": 1}, {"player": 1, "fan": 2}]},
        ],
    },
    {  # 3. 老张 self-draws 清一色 from its tiles, 3 fan: [-5, +15, -5, -5]
        "dealer": 1,
        "events": [
            {
                "type": "win",
                "from": None,
                "winners": [{"player": 1, "hand": {"concealed": "11s333s222s456s99s", "win_tile": "9s"}}],
            }
        ],
    },
)
# Each evening's nets by name: 第一场 the sums of hands 1-3 as corrected, 第二场 hands 1-3 re-seated.
NETS_ONE = {"小王": -5 - 1 - 6, "小李": 15 - 2 + 2, "阿美": -5 + 4 + 4, "老张": -5 - 1 + 0}
NETS_TWO = {"小王": -48 + 1 - 5, "小李": 11 - 3 - 5, "阿美": 20 - 2 - 5, "老张": 17 + 4 + 15}


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password="a-long-pass-phrase")


def member_join(*, actor: Any, group: Any, username: str, role: str) -> Any:
    """``username`` in ``group`` the only way there is: ``actor`` (an owner) invites, the account accepts."""
    user = get_user_model().objects.get(username=username)
    invitation = services.member_invite(actor=actor, group=group, username=username, role=role)
    return services.invitation_accept(actor=user, invitation=invitation)


def make_table(owner: Any, group_name: str = "周五麻将", **session: Any) -> tuple[Any, Any]:
    """A group owned by ``owner`` with four players, and an open session of them."""
    group = services.group_create(actor=owner, name=group_name)
    players = [services.player_add(actor=owner, group=group, name=name) for name in NAMES]
    started = services.session_start(
        actor=owner, group=group, name="第一场", player_ids=[p.pk for p in players], **session
    )
    return group, started


def queries_as_the_group_grows(owner: Any, group: Any, sessions: int, read: Any) -> list[int]:
    """The queries ``read()`` makes once ``group`` has ``sessions`` sessions, each with a hand: a first read,
    the same read again, and one after a round is written (issue 16: a read asserted at two sizes)."""
    by_name = {player.name: player.pk for player in Player.objects.filter(group=group)}
    later = group.sessions.order_by("-pk").first()
    while group.sessions.count() < sessions:
        later = services.session_start(
            actor=owner, group=group, name="", player_ids=[by_name[name] for name in NAMES]
        )
        services.round_record(actor=owner, session=later, body=SELF_DRAW_B)
    found = []
    for write in (False, False, True):
        if write:
            services.round_record(actor=owner, session=later, body=SELF_DRAW_B)
        with CaptureQueriesContext(connection) as queries:
            read()
        found.append(len(queries))
    return found


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tokens.token_issue(user=user)[1]}")
    return client


@pytest.fixture
def owner(db: Any) -> Any:
    return make_user("owner")


@pytest.fixture
def table(owner: Any) -> tuple[Any, Any]:
    return make_table(owner)


@pytest.fixture
def group(table: tuple[Any, Any]) -> Any:
    return table[0]


@pytest.fixture
def session(table: tuple[Any, Any]) -> Any:
    return table[1]


@pytest.fixture
def api(owner: Any) -> APIClient:
    return client_for(owner)


@pytest.fixture
def member_factory(group: Any, owner: Any) -> Any:
    def add(username: str, role: str = Role.VIEWER) -> Any:
        user = make_user(username)
        member_join(actor=owner, group=group, username=username, role=role)
        return user

    return add


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """PBKDF2's deliberate slowness is for real passwords, not for hundreds of test accounts."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_throttles(db: Any) -> None:
    """Sign-up and tokens are throttled per address in the cache (a database table, so every test may
    use the database); every test starts with nothing counted."""
    cache.clear()


@pytest.fixture
def two_evenings(owner: Any) -> Any:
    """The group of ``make_table`` after 第一场 (hand 3 corrected, hand 4 voided, then closed) and 第二场
    (老张 and 小李 change seats)."""
    group, first = make_table(owner)
    rounds = [services.round_record(actor=owner, session=first, body=body)[0] for body in EVENING_ONE]
    services.round_correct(actor=owner, round_=rounds[2], body=EVENING_ONE_CORRECTION)
    services.round_void(actor=owner, round_=rounds[3])
    services.session_close(actor=owner, session=first)
    ids = {player.name: player.pk for player in group.players.all()}
    second = services.session_start(
        actor=owner,
        group=group,
        name="第二场",
        player_ids=[ids[name] for name in ("小王", "老张", "阿美", "小李")],
    )
    for body in EVENING_TWO:
        services.round_record(actor=owner, session=second, body=body)
    return group
