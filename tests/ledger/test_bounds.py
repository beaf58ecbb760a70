"""Bounds a real table never reaches: past them a write is a 400 naming the field, and nothing is stored;
below them no sum the app takes (totals, settle-up, standings, statistics) can overflow."""

from django.urls import reverse

from ledger import bounds, services
from ledger.models import LedgerEntry, Round
from tests.ledger.conftest import client_for, make_table

# No cap, 10,000 points a fan: a 20-fan self-draw makes three payers pay 5,242,890,000 points each, so one
# round moves 31,457,340,000 points (both sides of each payment): two fit in a session, a third does not.
BIG = {"preset": "chengdu", "base_points": 10_000, "cap_multiplier": None}
HUGE_SELF_DRAW = {
    "dealer": 0,
    "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 20}]}],
}
ROUND_MOVES = 31_457_340_000


def test_the_bounds_keep_every_sum_inside_a_javascript_number():
    assert bounds.MAX_GROUP_SESSIONS * bounds.MAX_SESSION_POINTS <= 2**53 - 1
    assert 4 * services.MAX_COINS + bounds.MAX_SESSION_COINS <= 2**53 - 1


def test_a_round_that_would_take_the_session_past_its_bound_is_a_400_on_events(owner):
    _, session = make_table(owner, rules=BIG)
    api = client_for(owner)
    url = reverse("ledger:round-list", kwargs={"session_id": session.pk})
    for _ in range(2):
        assert api.post(url, HUGE_SELF_DRAW, format="json").status_code == 201
    assert bounds.moved(session)[0] == 2 * ROUND_MOVES < bounds.MAX_SESSION_POINTS < 3 * ROUND_MOVES
    rows = LedgerEntry.objects.count()
    response = api.post(url, HUGE_SELF_DRAW, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "events"
    assert f"{3 * ROUND_MOVES:,}" in response.json()["detail"]
    assert "90,000,000,000" in response.json()["detail"]
    assert Round.objects.filter(session=session).count() == 2
    assert LedgerEntry.objects.count() == rows
    totals = api.get(reverse("ledger:session-totals", kwargs={"session_id": session.pk})).json()
    assert [seat["points"] for seat in totals["seats"]] == [-10_485_780_000, 31_457_340_000] + [
        -10_485_780_000
    ] * 2


def test_correcting_or_voiding_at_the_bound_is_refused_too(owner):
    """Their reversing rows move points as well; the session has no room left for them."""
    _, session = make_table(owner, rules=BIG)
    stored = [services.round_record(actor=owner, session=session, body=HUGE_SELF_DRAW)[0] for _ in range(2)]
    api = client_for(owner)
    correct = api.post(
        reverse("ledger:round-correct", kwargs={"round_id": stored[0].pk}), HUGE_SELF_DRAW, format="json"
    )
    void = api.post(reverse("ledger:round-void", kwargs={"round_id": stored[0].pk}), format="json")
    assert (correct.status_code, correct.json()["field"]) == (400, "events")
    assert (void.status_code, void.json()["field"]) == (400, "round")
    assert Round.objects.get(pk=stored[0].pk).version == 1


def test_a_group_takes_no_session_past_its_last(owner, monkeypatch):
    monkeypatch.setattr(bounds, "MAX_GROUP_SESSIONS", 1)
    group, session = make_table(owner)
    players = [seat.player_id for seat in session.seats.order_by("seat")]
    response = client_for(owner).post(
        reverse("ledger:session-list", kwargs={"group_id": group.pk}),
        {"name": "第二场", "players": players},
        format="json",
    )
    assert (response.status_code, response.json()["field"]) == (400, "name")
    assert group.sessions.count() == 1
