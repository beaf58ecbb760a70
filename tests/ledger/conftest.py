"""Fixtures of the ledger tests: accounts, a group with four players, a session, API clients, round bodies."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger import services
from ledger.models import Role

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


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
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
