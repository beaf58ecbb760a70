"""Another group's objects answer 404 to every method of every ledger endpoint, and lists never show them.

The table below is checked against the URL resolver: a new ledger route fails the test until it is
listed here.
"""

from typing import Any

import pytest
from django.urls import URLPattern, reverse

from ledger import debts, services
from ledger.urls import urlpatterns
from tests.ledger.conftest import SELF_DRAW_B, client_for, make_table, make_user

# Routes that concern no group's object.
UNSCOPED = {
    "account-create",
    "auth-token",
    "auth-tokens",  # the account's own devices (tests/ops/test_api_edges.py: another's is 404)
    "auth-token-detail",
    "group-list",
    "group-import",
    "invitation-list",
}

# For each scoped route: which of the victim's objects fills its path.
SCOPED: dict[str, dict[str, str]] = {
    "group-detail": {"group_id": "group"},
    "group-export": {"group_id": "group"},
    "member-list": {"group_id": "group"},
    "member-detail": {"group_id": "group", "member_id": "membership"},
    "member-reset-link": {"group_id": "group", "member_id": "membership"},
    "player-list": {"group_id": "group"},
    "session-list": {"group_id": "group"},
    "group-standings": {"group_id": "group"},
    "group-statistics": {"group_id": "group"},
    "group-debts": {"group_id": "group"},
    "session-detail": {"session_id": "session"},
    "session-close": {"session_id": "session"},
    "session-fee": {"session_id": "session"},
    "round-list": {"session_id": "session"},
    "session-ledger": {"session_id": "session"},
    "session-totals": {"session_id": "session"},
    "session-settle-up": {"session_id": "session"},
    "session-debts": {"session_id": "session"},
    "session-payments": {"session_id": "session"},
    "payment-undo": {"mark_id": "mark"},
    "session-export": {"session_id": "session"},
    "session-hand": {"session_id": "session"},
    "session-hand-events": {"session_id": "session"},
    "session-hand-undo": {"session_id": "session"},
    "session-hand-redo": {"session_id": "session"},
    "session-seats": {"session_id": "session"},
    "session-hand-event": {"session_id": "session", "index": "first event"},
    "round-detail": {"round_id": "round"},
    "round-correct": {"round_id": "round"},
    "round-void": {"round_id": "round"},
    "invite-list": {"session_id": "session"},
    "invite-detail": {"invite_id": "invite"},
    "invitation-accept": {"invitation_id": "invitation"},
    "invitation-decline": {"invitation_id": "invitation"},
}
# Path arguments that name a place rather than an object.
PLACES = {"first event": 0}
BODIES: dict[str, Any] = {
    "post": SELF_DRAW_B,
    "patch": {"role": "viewer"},
}


def routes() -> list[URLPattern]:
    return [pattern for pattern in urlpatterns if isinstance(pattern, URLPattern)]


def methods_of(pattern: URLPattern) -> list[str]:
    view_class = pattern.callback.view_class
    methods = [m for m in ("get", "post", "put", "patch", "delete") if hasattr(view_class, m)]
    return methods + (["head"] if "get" in methods else [])


def test_every_ledger_route_is_covered():
    assert {pattern.name for pattern in routes()} == UNSCOPED | set(SCOPED)


def path_of(victim: dict[str, Any], name: str) -> dict[str, int]:
    return {arg: PLACES[what] if what in PLACES else victim[what].pk for arg, what in SCOPED[name].items()}


def first_payment(owner: Any, session: Any) -> Any:
    """The first transfer of ``session``'s settle-up marked paid in full."""
    first = debts.session_debts(session)[0]
    return services.payment_mark(
        actor=owner,
        session=session,
        payer_id=first.payer.player_id,
        payee_id=first.payee.player_id,
        amount=first.left,
    )


@pytest.fixture
def victim(owner: Any) -> dict[str, Any]:
    group, session = make_table(owner)
    round_, _ = services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    make_user("friend")
    return {
        "mark": first_payment(owner, session),
        "group": group,
        "session": session,
        "round": round_,
        "membership": group.memberships.get(),
        "invite": services.invite_create(actor=owner, session=session, role="viewer"),
        "invitation": services.member_invite(actor=owner, group=group, username="friend", role="viewer"),
    }


@pytest.fixture
def intruder(db: Any) -> Any:
    user = make_user("intruder")
    make_table(user, group_name="隔壁桌")
    return client_for(user)


CASES = [
    pytest.param(pattern.name, method, id=f"{method}-{pattern.name}")
    for pattern in routes()
    if pattern.name in SCOPED
    for method in methods_of(pattern)
]


@pytest.mark.parametrize(("name", "method"), CASES)
def test_another_groups_object_is_not_found(victim, intruder, name, method):
    kwargs = path_of(victim, name)
    url = reverse(f"ledger:{name}", kwargs=kwargs)
    response = getattr(intruder, method)(url, BODIES.get(method), format="json")
    assert response.status_code == 404, response.content


@pytest.mark.parametrize("name", sorted(SCOPED))
def test_options_says_the_same_for_another_groups_object_and_for_none(victim, intruder, name):
    """OPTIONS describes the endpoint, not the object: it cannot tell an existing id from a missing one."""
    kwargs = path_of(victim, name)
    missing = {arg: 10**9 for arg in kwargs}
    theirs = intruder.options(reverse(f"ledger:{name}", kwargs=kwargs))
    nobodys = intruder.options(reverse(f"ledger:{name}", kwargs=missing))
    assert (theirs.status_code, theirs.content) == (nobodys.status_code, nobodys.content)


def test_the_victims_data_is_untouched_after_every_attempt(victim, intruder, owner):
    for param in CASES:
        name, method = param.values
        kwargs = path_of(victim, name)
        getattr(intruder, method)(reverse(f"ledger:{name}", kwargs=kwargs), BODIES.get(method), format="json")
    victim["session"].refresh_from_db()
    assert victim["session"].is_open
    assert victim["session"].rounds.count() == 1
    assert victim["session"].payment_marks.count() == 1
    assert victim["group"].memberships.count() == 1
    victim["invite"].refresh_from_db()
    victim["invitation"].refresh_from_db()
    assert victim["invite"].revoked_at is None
    assert victim["invitation"].status == "pending"


def test_lists_show_only_the_requesters_groups(victim, intruder):
    names = [group["name"] for group in intruder.get(reverse("ledger:group-list")).json()["results"]]
    assert names == ["隔壁桌"]
