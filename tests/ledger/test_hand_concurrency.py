"""Sixteen phones tapping the same hand at once: one event wins a revision, the rest see the current hand;
the finishing event tapped sixteen times records one round. On SQLite (IMMEDIATE transactions) and
PostgreSQL (the session row locked) alike."""

import json
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from ledger.models import HandInProgress, Round
from tests.ledger.conftest import client_for
from tests.ledger.test_concurrency import THREADS, run_together, table  # noqa: F401 (the fixture)
from tests.ledger.test_hand import EVENING, SELF_DRAW

TILES = ("1m", "2m", "3m", "4m")


def post_event(user: Any, session_id: int, event: Any, revision: int) -> tuple[int, Any]:
    try:
        response = client_for(user).post(
            reverse("ledger:session-hand-events", kwargs={"session_id": session_id}),
            {"event": event, "revision": revision},
            format="json",
        )
        return response.status_code, response.json()
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_sixteen_different_events_at_one_revision_one_is_kept_the_rest_see_it(table):  # noqa: F811
    owner, session = table
    kongs = [
        {"type": "kong", "player": n % 4, "kind": "concealed", "tile": TILES[n // 4]} for n in range(THREADS)
    ]
    answers = run_together([lambda kong=kong: post_event(owner, session.pk, kong, 0) for kong in kongs])
    assert sorted(status for status, _ in answers) == [200] + [409] * (THREADS - 1)
    kept = HandInProgress.objects.get(session=session)
    assert len(kept.events) == 1 and kept.revision == 1
    assert all(body["hand"]["events"] == kept.events for status, body in answers if status == 409)


@pytest.mark.django_db(transaction=True)
def test_the_finishing_event_tapped_sixteen_times_at_once_records_one_round(table):  # noqa: F811
    owner, session = table
    for revision, event in enumerate(EVENING[:2]):
        assert post_event(owner, session.pk, event, revision)[0] == 200
    answers = run_together([lambda: post_event(owner, session.pk, SELF_DRAW, 2)] * THREADS)
    assert {status for status, _ in answers} == {201}
    assert len({json.dumps(body, sort_keys=True) for _, body in answers}) == 1
    assert Round.objects.filter(session=session).count() == 1
