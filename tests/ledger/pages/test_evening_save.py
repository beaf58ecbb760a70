"""Saving /round/'s evening into a group (issue 8 flow 8)."""

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import HandInProgress, Round, Session
from tests.ledger.conftest import make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def play(client, *taps):
    from web.entry.evening import EveningStore

    for tap in taps:
        revision = EveningStore(client.session).load().revision
        client.post("/round/", {"revision": str(revision), **tap}, **HTMX)


@pytest.fixture
def player():
    user = make_user("host")
    group = services.group_create(actor=user, name="周五麻将")
    client = Client()
    client.force_login(user)
    return client, group


def test_a_logged_in_player_saves_the_evening_as_a_session(player):
    client, group = player
    play(
        client,
        {
            "action": "setup",
            "name_0": "小王",
            "name_1": "小李",
            "name_2": "阿美",
            "name_3": "老张",
            "dealer": "0",
        },
        {"action": "record", "ev_type": "win", "winner_1": "on", "winner_2": "on", "win_how": "discard:0"},
        {"action": "record", "ev_type": "win", "winner_3": "on", "win_how": "self_draw"},
        {"action": "next"},
        {"action": "record", "ev_type": "kong", "kong_player": "2", "kong_kind": "concealed"},
    )
    assert reverse("evening-save") in client.get("/round/").content.decode()
    response = client.post(reverse("evening-save"), {"group": group.pk, "name": "周五"})
    session = Session.objects.get(group=group)
    assert response.status_code == 302 and response["Location"] == reverse("session-page", args=[session.pk])
    assert [seat.player.name for seat in session.seats.order_by("seat")] == ["小王", "小李", "阿美", "老张"]
    assert Round.objects.filter(session=session).count() == 1
    hand = HandInProgress.objects.get(session=session)
    assert hand.events == [{"type": "kong", "player": 2, "kind": "concealed"}], (
        "the hand in progress continues"
    )
    assert hand.dealer == 1
    # The browser's evening is forgotten; a second tap goes to the session, saving nothing twice.
    again = client.post(reverse("evening-save"), {"group": group.pk, "name": "周五"})
    assert again["Location"] == reverse("session-page", args=[session.pk])
    assert Session.objects.filter(group=group).count() == 1


def test_saving_needs_an_account_and_a_group_one_may_write_to(player):
    _client, group = player
    assert Client().get(reverse("evening-save"))["Location"].startswith(reverse("login"))
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    page = stranger.get(reverse("evening-save"))
    assert page.status_code == 200 and "周五麻将" not in page.content.decode()
    refused = stranger.post(reverse("evening-save"), {"group": group.pk, "name": "x"})
    assert refused.status_code == 400
    assert not Session.objects.exists()
