"""The hand in progress over HTTP (API.md "The hand in progress"): shapes, ETag/304, 409 with the current
hand, 400 at the event, the finishing event's 201 recorded once, undo/redo, PATCH, roles, closed sessions."""

from typing import Any

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Group, Role, Round
from settlement.engine import settle_round
from tests.ledger.conftest import client_for, make_user
from tests.ledger.test_group_file import export, import_file, story
from tests.ledger.test_guards import verify
from tests.ledger.test_hand import EVENING, KONG, SELF_DRAW, TWO_ON_ONE_DISCARD

HAND_FIELDS = {"number", "dealer", "void_suits", "events", "notes", "revision", "can_redo", "preview"}


def hand_url(session: Any, action: str = "") -> str:
    name = f"ledger:session-hand-{action}" if action else "ledger:session-hand"
    return reverse(name, kwargs={"session_id": session.pk})


def post_event(api: Any, session: Any, event: Any, revision: int, **extra: Any) -> Any:
    headers = extra.pop("headers", {})
    return api.post(
        hand_url(session, "events"),
        {"event": event, "revision": revision, **extra},
        format="json",
        headers=headers,
    )


def test_get_answers_the_hand_of_api_md(api, session):
    response = api.get(hand_url(session))
    assert response.status_code == 200
    body = response.json()
    assert set(body) >= HAND_FIELDS
    assert (body["number"], body["dealer"], body["events"], body["revision"]) == (1, 0, [], 0)
    assert body["preview"]["finished"] is False


def test_an_unchanged_hand_answers_304_and_a_change_a_new_etag(api, session):
    first = api.get(hand_url(session))
    etag = first["ETag"]
    unchanged = api.get(hand_url(session), headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert post_event(api, session, KONG, 0).status_code == 200
    changed = api.get(hand_url(session), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["events"] == [KONG]


def test_the_weak_etag_of_a_gzipped_answer_still_answers_304(api, session):
    """GZipMiddleware weakens the ETag of what it compresses (RFC 9110); If-None-Match compares weakly."""
    gzipped = api.get(hand_url(session), headers={"Accept-Encoding": "gzip"})
    assert gzipped["Content-Encoding"] == "gzip" and gzipped["ETag"].startswith('W/"')
    unchanged = api.get(hand_url(session), headers={"If-None-Match": gzipped["ETag"]})
    assert unchanged.status_code == 304


def test_an_event_answers_200_with_the_hand_and_its_note(api, session):
    response = post_event(api, session, KONG, 0, note="小李 暗杠")
    assert response.status_code == 200
    body = response.json()
    assert (body["events"], body["notes"], body["revision"]) == ([KONG], ["小李 暗杠"], 1)
    assert body["preview"]["net"] == [-2, 6, -2, -2]
    assert response["ETag"] == api.get(hand_url(session))["ETag"]


def test_a_stale_revision_is_409_with_the_current_hand_and_nothing_is_lost(api, session, member_factory):
    second = client_for(member_factory("second", Role.SCOREKEEPER))
    assert post_event(api, session, KONG, 0).status_code == 200
    stale = post_event(second, session, TWO_ON_ONE_DISCARD, 0)
    assert stale.status_code == 409
    body = stale.json()
    assert body["field"] == "revision"
    assert body["hand"]["events"] == [KONG] and body["hand"]["revision"] == 1
    retried = post_event(second, session, TWO_ON_ONE_DISCARD, body["hand"]["revision"])
    assert retried.status_code == 200
    assert retried.json()["events"] == [KONG, TWO_ON_ONE_DISCARD]


def test_an_event_the_engine_refuses_is_400_at_its_index(api, session):
    post_event(api, session, KONG, 0)
    response = post_event(api, session, {"type": "win", "from": 1, "winners": [{"player": 1, "fan": 2}]}, 1)
    assert response.status_code == 400
    body = response.json()
    assert body["field"].startswith("events[1]") and body["event"] == 1
    assert api.get(hand_url(session)).json()["events"] == [KONG]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"event": KONG}, "revision", id="no-revision"),
        pytest.param({"revision": 0}, "event", id="no-event"),
        pytest.param({"event": KONG, "revision": 0, "colour": "red"}, "colour", id="unknown-field"),
        pytest.param({"event": KONG, "revision": "0"}, "revision", id="revision-as-text"),
        pytest.param({"event": KONG, "revision": 0, "note": 5}, "note", id="note-not-text"),
        pytest.param({"event": "kong", "revision": 0}, "events[0]", id="event-not-an-object"),
        pytest.param([KONG], "body", id="body-not-an-object"),
    ],
)
def test_a_malformed_body_is_400_naming_the_field(api, session, body, field):
    response = api.post(hand_url(session, "events"), body, format="json")
    assert response.status_code == 400
    assert response.json()["field"].startswith(field)
    assert api.get(hand_url(session)).json()["revision"] == 0


def test_the_finishing_event_answers_201_with_the_round_and_the_next_hand(api, session):
    for revision, event in enumerate(EVENING[:2]):
        post_event(api, session, event, revision)
    response = post_event(api, session, SELF_DRAW, 2)
    assert response.status_code == 201
    body = response.json()
    expected = settle_round(dealer=0, events=list(EVENING), rules=session.rules)
    assert body["round"]["position"] == 1
    assert body["round"]["result"]["net"] == list(expected.net)
    assert (
        body["round"]
        == api.get(reverse("ledger:round-list", kwargs={"session_id": session.pk})).json()["results"][0]
    )
    assert (body["hand"]["number"], body["hand"]["dealer"], body["hand"]["events"]) == (2, 2, [])


@pytest.mark.parametrize("key", [None, "phone-a-tap-17"])
def test_the_finishing_event_retried_records_one_round(api, session, key):
    for revision, event in enumerate(EVENING[:2]):
        post_event(api, session, event, revision)
    headers = {} if key is None else {"Idempotency-Key": key}
    first = post_event(api, session, SELF_DRAW, 2, headers=headers)
    again = post_event(api, session, SELF_DRAW, 2, headers=headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Round.objects.filter(session=session).count() == 1


def test_undo_and_redo_across_a_reload(api, session):
    post_event(api, session, KONG, 0, note="暗杠")
    undone = api.post(hand_url(session, "undo"), {"revision": 1}, format="json")
    assert undone.status_code == 200 and undone.json()["events"] == [] and undone.json()["can_redo"]
    reloaded = api.get(hand_url(session)).json()
    assert reloaded["can_redo"] and reloaded["revision"] == 2
    redone = api.post(hand_url(session, "redo"), {"revision": reloaded["revision"]}, format="json")
    assert redone.status_code == 200
    assert (redone.json()["events"], redone.json()["notes"], redone.json()["can_redo"]) == (
        [KONG],
        ["暗杠"],
        False,
    )


def test_undo_with_nothing_to_undo_is_409_with_the_hand(api, session):
    response = api.post(hand_url(session, "undo"), {"revision": 0}, format="json")
    assert response.status_code == 409
    assert response.json()["field"] == "events" and response.json()["hand"]["revision"] == 0


def test_patch_sets_the_dealer_and_void_suits_before_the_first_event(api, session):
    response = api.patch(
        hand_url(session), {"dealer": 2, "void_suits": ["m", "p", "s", "m"], "revision": 0}, format="json"
    )
    assert response.status_code == 200
    assert (response.json()["dealer"], response.json()["void_suits"]) == (2, ["m", "p", "s", "m"])
    bad = api.patch(hand_url(session), {"dealer": 9, "revision": 1}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "dealer"
    post_event(api, session, KONG, 1)
    refused = api.patch(hand_url(session), {"dealer": 1, "revision": 2}, format="json")
    assert refused.status_code == 409 and refused.json()["hand"]["dealer"] == 2


def test_a_closed_session_refuses_hand_writes_but_shows_the_hand(api, session, owner):
    post_event(api, session, KONG, 0)
    services.session_close(actor=owner, session=session)
    revision = api.get(hand_url(session)).json()["revision"]
    assert post_event(api, session, SELF_DRAW, revision).status_code == 409
    assert api.post(hand_url(session, "undo"), {"revision": revision}, format="json").status_code == 409
    assert api.patch(hand_url(session), {"dealer": 1, "revision": revision}, format="json").status_code == 409
    assert api.get(hand_url(session)).json()["events"] == [KONG]


def test_a_viewer_reads_the_hand_and_is_refused_every_write(session, member_factory):
    viewer = client_for(member_factory("viewer", Role.VIEWER))
    assert viewer.get(hand_url(session)).status_code == 200
    assert post_event(viewer, session, KONG, 0).status_code == 403
    assert viewer.post(hand_url(session, "undo"), {"revision": 0}, format="json").status_code == 403
    assert viewer.post(hand_url(session, "redo"), {"revision": 0}, format="json").status_code == 403
    assert viewer.patch(hand_url(session), {"dealer": 1, "revision": 0}, format="json").status_code == 403
    assert viewer.get(hand_url(session)).json()["revision"] == 0


def test_the_schema_documents_the_hand(api):
    schema = api.get(reverse("schema"), {"format": "json"}).json()
    paths = schema["paths"]
    hand = paths["/api/v1/sessions/{session_id}/hand/"]
    assert {"get", "patch"} <= set(hand)
    events = paths["/api/v1/sessions/{session_id}/hand/events/"]["post"]
    assert {"200", "201", "400", "409"} <= set(events["responses"])
    assert "/api/v1/sessions/{session_id}/hand/undo/" in paths
    assert "/api/v1/sessions/{session_id}/hand/redo/" in paths


def event_url(session: Any, index: int) -> str:
    return reverse("ledger:session-hand-event", kwargs={"session_id": session.pk, "index": index})


def test_undo_right_after_a_finished_hand_reopens_it_and_redo_records_it_again(api, session):
    for revision, event in enumerate(EVENING):
        post_event(api, session, event, revision)
    round_id = Round.objects.get(session=session).pk
    totals = reverse("ledger:session-totals", kwargs={"session_id": session.pk})
    recorded = api.get(totals).json()
    reopened = api.post(hand_url(session, "undo"), {"revision": 3}, format="json")
    assert reopened.status_code == 200 and reopened.json()["reopened_round"] == round_id
    hand = reopened.json()["hand"]
    assert (hand["number"], hand["events"], hand["can_redo"]) == (1, list(EVENING[:2]), True)
    assert Round.objects.get(pk=round_id).voided and api.get(totals).json() != recorded
    redone = api.post(hand_url(session, "redo"), {"revision": hand["revision"]}, format="json")
    assert redone.status_code == 201 and redone.json()["round"]["id"] == round_id
    assert redone.json()["round"]["version"] == 3 and redone.json()["hand"]["number"] == 2
    assert api.get(totals).json() == recorded


def test_a_retried_reopening_undo_answers_as_the_first_did(api, session):
    for revision, event in enumerate(EVENING):
        post_event(api, session, event, revision)
    key = {"Idempotency-Key": "take-it-back-1"}
    first = api.post(hand_url(session, "undo"), {"revision": 3}, format="json", headers=key)
    again = api.post(hand_url(session, "undo"), {"revision": 3}, format="json", headers=key)
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert "reopened_round" in again.json()


def test_put_replaces_an_event_in_place_and_keeps_the_later_ones(api, session):
    post_event(api, session, KONG, 0)
    post_event(api, session, TWO_ON_ONE_DISCARD, 1)
    three_fan = {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 3}, {"player": 3, "fan": 1}]}
    response = api.put(
        event_url(session, 1), {"event": three_fan, "revision": 2, "note": "3番"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["events"] == [KONG, three_fan] and response.json()["notes"] == [None, "3番"]
    expected = settle_round(dealer=0, events=[KONG, three_fan], rules=session.rules)
    assert response.json()["preview"]["net"] == list(expected.net)


def test_put_that_breaks_a_later_event_is_400_and_changes_nothing(api, session):
    post_event(api, session, KONG, 0)
    post_event(api, session, SELF_DRAW, 1)  # 小李 self-draws
    before = api.get(hand_url(session)).json()
    wins_first = {"type": "win", "from": None, "winners": [{"player": 1, "fan": 1}]}  # then wins again
    response = api.put(event_url(session, 0), {"event": wins_first, "revision": 2}, format="json")
    assert response.status_code == 400 and response.json()["field"].startswith("events[1]")
    assert api.get(hand_url(session)).json() == before


def test_delete_removes_one_event_and_keeps_the_later_ones(api, session):
    post_event(api, session, KONG, 0)
    post_event(api, session, SELF_DRAW, 1)
    response = api.delete(event_url(session, 0), {"revision": 2}, format="json")
    assert response.status_code == 200 and response.json()["events"] == [SELF_DRAW]
    missing = api.delete(event_url(session, 5), {"revision": 3}, format="json")
    assert missing.status_code == 409 and missing.json()["code"] == "no_such_event"


def _finish_with(api: Any, session: Any, headers: dict[str, str]) -> Any:
    for revision, event in enumerate(EVENING[:2]):
        post_event(api, session, event, revision)
    return post_event(api, session, SELF_DRAW, 2, headers=headers)


@pytest.mark.parametrize(
    "shape",
    [
        pytest.param("rounds-key", id="a-key-post-rounds-used"),
        pytest.param("server-shape", id="a-key-shaped-like-the-servers-old-one"),
        pytest.param("server-key", id="the-servers-own-key-itself"),
    ],
)
def test_a_finishing_tap_never_500s_on_a_key_clash(api, session, owner, shape):
    """Issue 15 point 10: a key another round of the session has is a 422 naming it; the server's own
    keys (Chinese characters: no HTTP header carries them) cannot be taken by a client."""
    if shape == "rounds-key":
        body = {"dealer": 0, "events": [KONG]}
        api.post(
            reverse("ledger:round-list", kwargs={"session_id": session.pk}),
            body,
            format="json",
            headers={"Idempotency-Key": "tap-1"},
        )
        response = _finish_with(api, session, {"Idempotency-Key": "tap-1"})
        assert response.status_code == 422 and response.json()["field"] == "Idempotency-Key"
        assert Round.objects.filter(session=session).count() == 1  # nothing half-written
        return
    if shape == "server-shape":
        # Before, a round keyed "hand-r2" (the server's key of the revision the finishing tap is made
        # at) made the finishing tap of a hand sent without a key a 500 on every try.
        services.round_record(
            actor=owner, session=session, body={"dealer": 0, "events": [KONG]}, idempotency_key="hand-r2"
        )
        response = _finish_with(api, session, {})
        assert response.status_code == 201
        return
    # The server's key can only reach a round through a crafted group file (services, not HTTP).
    services.round_record(
        actor=owner,
        session=session,
        body={"dealer": 0, "events": [KONG]},
        idempotency_key=f"{services.HAND_KEY_PREFIX}2",
    )
    response = _finish_with(api, session, {})
    assert response.status_code == 201 and response.json()["round"]["position"] == 2


def test_a_hand_taken_back_and_finished_anew_moves_with_its_group(api, session, owner):
    """The export lists its round as recorded, voided, corrected; the import replays that, not a 409."""
    for revision, event in enumerate(EVENING):
        post_event(api, session, event, revision)
    hand = api.post(hand_url(session, "undo"), {"revision": 3}, format="json").json()["hand"]
    assert (
        api.post(hand_url(session, "redo"), {"revision": hand["revision"]}, format="json").status_code == 201
    )
    file = export(owner, session.group)
    assert [v["kind"] for v in file["sessions"][0]["rounds"][0]["versions"]] == [
        "recorded",
        "voided",
        "corrected",
    ]
    mover = make_user("mover")
    moved = import_file(mover, file)
    assert moved.status_code == 201, moved.content
    assert story(export(mover, Group.objects.get(pk=moved.json()["id"]))) == story(file)
    assert "every hash chain holds" in verify("--group", str(moved.json()["id"]))


def test_a_fine_taken_back_and_followed_by_a_hand_is_counted_as_a_hand(api, session):
    """RULES.md 4.8: an adjustment round is no hand; once its hand is reopened and played, it is one."""
    fine = {"type": "adjust", "from": 3, "to": "each", "amount": 2, "reason": "诈胡"}
    finished = post_event(api, session, fine, 0)
    assert finished.status_code == 201 and Round.objects.get(session=session).adjustment
    hand = api.post(
        hand_url(session, "undo"), {"revision": finished.json()["hand"]["revision"]}, format="json"
    )
    assert hand.status_code == 200, hand.content
    revision = hand.json()["hand"]["revision"]
    for offset, event in enumerate(EVENING):
        answer = post_event(api, session, event, revision + offset)
        assert answer.status_code in (200, 201), answer.content
    assert not Round.objects.get(session=session).adjustment
