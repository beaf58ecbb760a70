"""services.evening_keep: an evening from /round/ kept as a session, all or nothing."""

import pytest

from calculator.engine import EngineError
from ledger import services
from ledger.models import HandInProgress, Player, Round, Session
from tests.ledger.conftest import NAMES, SELF_DRAW_B, make_user

pytestmark = pytest.mark.django_db

KONG = {"type": "kong", "player": 2, "kind": "concealed", "tile": "2m"}


@pytest.fixture
def host_group():
    host = make_user("host")
    return host, services.group_create(actor=host, name="周五麻将")


def keep(host, group, rounds, events=(KONG,)):
    return services.evening_keep(
        actor=host,
        group=group,
        name="周五",
        player_names=NAMES,
        rules={"preset": "chengdu"},
        rounds=rounds,
        hand=services.HandSoFar(
            dealer=1, void_suits=[None] * 4, events=events, notes=["阿美 暗杠"] * len(events)
        ),
    )


def test_an_evening_becomes_a_session_with_its_rounds_and_the_hand_in_progress(host_group):
    host, group = host_group
    session = keep(host, group, [SELF_DRAW_B])
    assert [seat.player.name for seat in session.seats.order_by("seat")] == list(NAMES)
    assert Round.objects.filter(session=session).count() == 1
    hand = HandInProgress.objects.get(session=session)
    assert (hand.dealer, hand.events, hand.notes) == (1, [KONG], ["阿美 暗杠"])


def test_a_refused_part_of_the_evening_stores_nothing_of_it(host_group):
    host, group = host_group
    refused_round = {"dealer": 0, "events": [{"type": "win", "from": None, "winners": [{"player": 1}]}]}
    with pytest.raises(EngineError):
        keep(host, group, [SELF_DRAW_B, refused_round])
    assert not Session.objects.filter(group=group).exists()
    assert not Player.objects.filter(group=group).exists(), "no new player is left behind"
