"""The stored-data REST API end to end: accounts, groups, sessions, rounds, totals, settle-up, history."""

import json
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.ledger.conftest import (
    DIRECT_KONG,
    DIRECT_KONG_NET,
    DRAW_WITH_PIG,
    DRAW_WITH_PIG_NET,
    SELF_DRAW_B,
    SELF_DRAW_B_NET,
)


def url(name: str, **kwargs: Any) -> str:
    return reverse(f"ledger:{name}", kwargs=kwargs)


def test_a_newcomer_signs_up_gets_a_token_and_builds_a_table(db):
    anonymous = APIClient()
    signed_up = anonymous.post(
        url("account-create"), {"username": "阿美", "password": "mahjong-every-friday"}, format="json"
    )
    assert signed_up.status_code == 201
    token = anonymous.post(
        url("auth-token"), {"username": "阿美", "password": "mahjong-every-friday"}, format="json"
    ).json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token['token']}")
    group = client.post(url("group-list"), {"name": "周五麻将"}, format="json").json()
    assert group["role"] == "owner"
    ids = [
        client.post(url("player-list", group_id=group["id"]), {"name": name}, format="json").json()["id"]
        for name in ("小王", "小李", "阿美", "老张")
    ]
    session = client.post(
        url("session-list", group_id=group["id"]), {"name": "第一场", "players": ids}, format="json"
    ).json()
    assert [seat["name"] for seat in session["players"]] == ["小王", "小李", "阿美", "老张"]
    recorded = client.post(url("round-list", session_id=session["id"]), SELF_DRAW_B, format="json")
    assert recorded.status_code == 201
    assert recorded.json()["result"]["net"] == SELF_DRAW_B_NET
    totals = client.get(url("session-totals", session_id=session["id"])).json()
    assert [seat["points"] for seat in totals["seats"]] == SELF_DRAW_B_NET


def test_a_wrong_password_gets_no_token(owner):
    response = APIClient().post(url("auth-token"), {"username": "owner", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "password"


def test_anonymous_requests_are_refused(session):
    response = APIClient().get(url("session-totals", session_id=session.pk))
    assert response.status_code in (401, 403)


def test_an_engine_error_is_a_400_naming_the_event_and_stores_nothing(api, session):
    bad = {"dealer": 0, "events": [{"type": "kong", "player": 1, "kind": "sideways"}]}
    response = api.post(url("round-list", session_id=session.pk), bad, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["field"].startswith("events[0]")
    assert body["detail_zh"]
    assert not session.rounds.exists()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param([], id="a-list"),
        pytest.param({"events": []}, id="no-dealer"),
        pytest.param({"dealer": 0, "events": [], "rules": {}}, id="rules-belong-to-the-session"),
        pytest.param({"dealer": 7, "events": []}, id="dealer-out-of-range"),
    ],
)
def test_a_malformed_round_is_a_400(api, session, body):
    response = api.post(url("round-list", session_id=session.pk), body, format="json")
    assert response.status_code == 400
    assert "field" in response.json()


def test_the_idempotency_key_replays_the_stored_round(api, session):
    first = api.post(
        url("round-list", session_id=session.pk), SELF_DRAW_B, format="json", HTTP_IDEMPOTENCY_KEY="a"
    )
    again = api.post(
        url("round-list", session_id=session.pk), SELF_DRAW_B, format="json", HTTP_IDEMPOTENCY_KEY="a"
    )
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    other = api.post(
        url("round-list", session_id=session.pk), DIRECT_KONG, format="json", HTTP_IDEMPOTENCY_KEY="a"
    )
    assert other.status_code == 422
    assert other.json()["field"] == "Idempotency-Key"
    assert session.rounds.count() == 1


def test_correct_and_void_through_the_api_keep_the_history(api, session):
    round_id = api.post(url("round-list", session_id=session.pk), SELF_DRAW_B, format="json").json()["id"]
    corrected = api.post(url("round-correct", round_id=round_id), DRAW_WITH_PIG, format="json")
    assert corrected.status_code == 200
    assert corrected.json()["version"] == 2
    totals = api.get(url("session-totals", session_id=session.pk)).json()
    assert [seat["points"] for seat in totals["seats"]] == DRAW_WITH_PIG_NET
    voided = api.post(url("round-void", round_id=round_id)).json()
    assert (voided["voided"], voided["result"]) == (True, None)
    history = api.get(url("round-detail", round_id=round_id)).json()["history"]
    assert [version["kind"] for version in history] == ["recorded", "corrected", "voided"]
    assert [sum(entry["points"] for entry in version["entries"]) for version in history] == [0, 0, 0]
    assert [len(version["entries"]) for version in history] == [12, 12 + 2 * 5, 2 * 5]
    totals = api.get(url("session-totals", session_id=session.pk)).json()
    assert [seat["points"] for seat in totals["seats"]] == [0, 0, 0, 0]


def test_the_ledger_is_paginated_and_lists_reversals(api, session):
    round_id = api.post(url("round-list", session_id=session.pk), SELF_DRAW_B, format="json").json()["id"]
    api.post(url("round-correct", round_id=round_id), DIRECT_KONG, format="json")
    page = api.get(url("session-ledger", session_id=session.pk), {"limit": 5}).json()
    assert page["count"] == 12 + 12 + 2
    assert len(page["results"]) == 5
    everything = api.get(url("session-ledger", session_id=session.pk), {"limit": 100}).json()["results"]
    assert sum(1 for entry in everything if entry["reverses"] is not None) == 12


def test_settle_up_proposes_payments_that_zero_every_balance(api, session):
    for body in (SELF_DRAW_B, DRAW_WITH_PIG, DIRECT_KONG):
        api.post(url("round-list", session_id=session.pk), body, format="json")
    proposal = api.get(url("session-settle-up", session_id=session.pk)).json()
    balances = list(proposal["balances"])
    assert balances == [
        a + b + c for a, b, c in zip(SELF_DRAW_B_NET, DRAW_WITH_PIG_NET, DIRECT_KONG_NET, strict=True)
    ]
    for payment in proposal["payments"]:
        balances[payment["from"]] += payment["amount"]
        balances[payment["to"]] -= payment["amount"]
    assert balances == [0, 0, 0, 0]
    assert len(proposal["payments"]) <= 3


def test_closing_a_session_through_the_api_refuses_later_rounds(api, session):
    closed = api.post(url("session-close", session_id=session.pk)).json()
    assert closed["status"] == "closed"
    response = api.post(url("round-list", session_id=session.pk), SELF_DRAW_B, format="json")
    assert response.status_code == 409
    assert response.json()["field"] == "session"


def test_sessions_take_rules_and_coins(api, group):
    ids = list(group.players.values_list("id", flat=True))
    body = {
        "name": "带币",
        "players": ids,
        "rules": {"preset": "qq"},
        "coins": {"room_coefficient": 100, "starting_balances": [100000, 100000, 4500, 100000]},
    }
    session = api.post(url("session-list", group_id=group.pk), body, format="json").json()
    assert (session["rules"]["preset"], session["rules"]["base_points"], session["rules"]["dingque"]) == (
        "qq",
        6,
        False,
    )
    assert session["coins"]["starting_balances"] == [100000, 100000, 4500, 100000]
    listed = api.get(url("session-list", group_id=group.pk)).json()
    assert listed["results"][0]["id"] == session["id"]


def test_burned_points_are_settled_as_a_payment_to_the_house(api, owner, group):
    ids = list(group.players.values_list("id", flat=True))
    body = {"name": "烧分", "players": ids, "rules": {"preset": "chengdu", "escape_penalty_to": "burn"}}
    session = api.post(url("session-list", group_id=group.pk), body, format="json").json()
    escape = {"dealer": 0, "events": [{"type": "escape", "player": 0, "tiles_left": 30}]}
    assert api.post(url("round-list", session_id=session["id"]), escape, format="json").status_code == 201
    totals = api.get(url("session-totals", session_id=session["id"])).json()
    assert totals["house"] == 48
    assert sum(seat["points"] for seat in totals["seats"]) + totals["house"] == 0
    proposal = api.get(url("session-settle-up", session_id=session["id"])).json()
    assert proposal["payments"] == [
        {
            "from": 0,
            "from_name": "小王",
            "from_player": ids[0],
            "to": "house",
            "to_name": "房间 house",
            "to_player": None,
            "amount": 48,
        }
    ]


def test_a_lone_surrogate_in_a_round_with_an_idempotency_key_is_a_400(api, session):
    body = {"dealer": 0, "events": [{**SELF_DRAW_B["events"][0], "note": "\ud800"}]}
    response = api.post(
        url("round-list", session_id=session.pk),
        json.dumps(body),  # escaped as \\ud800: the test client's own renderer cannot encode it
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert response.status_code == 400
    assert session.rounds.count() == 0
