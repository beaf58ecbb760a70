"""换人 / 换座 on the pages (ledger/pages/seats.py): reached from the session page's header by owners and
scorekeepers, a substitute by name (a new name becomes a player) or a swap of two seats, from the hand about
to be played; refused in words once the hand has begun; the table then shows the new seating, each seat
with its player's own points."""

import pytest
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Player, Role
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user, member_join
from tests.ledger.pages.helpers import ENGLISH, logged_in, visible_text


@pytest.fixture
def table(owner):
    group, session = make_table(owner)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)  # [-5, +15, -5, -5]
    return group, session


def seats_url(session):
    return reverse("session-seats-page", args=[session.pk])


def test_the_table_links_to_the_seats_page_for_writers_only(owner, table):
    group, session = table
    page = logged_in(owner).get(reverse("session-page", args=[session.pk])).content.decode()
    assert seats_url(session) in page
    viewer = make_user("guest")
    member_join(actor=owner, group=group, username="guest", role=Role.VIEWER)
    guest = logged_in(viewer)
    assert seats_url(session) not in guest.get(reverse("session-page", args=[session.pk])).content.decode()
    refused = visible_text(guest.get(seats_url(session)))
    assert "你在本组的角色无权执行此操作。" in refused and "换上" not in refused


def test_a_substitute_by_a_new_name_takes_the_seat_and_starts_at_zero(owner, table):
    _, session = table
    client = logged_in(owner)
    page = visible_text(client.get(seats_url(session)))
    assert "从第 2 手起生效" in page and "第 4 座：老张 下，换上" in page
    response = client.post(seats_url(session), {"seat": "3", "name": "小刘", "revision": "1"})
    assert response.status_code == 303 and response["Location"] == reverse("session-page", args=[session.pk])
    table_page = client.get(response["Location"])
    assert "从这一手起，牌桌上是 小王, 小李, 阿美, 小刘。" in visible_text(table_page)
    assert selectors.seat_points(session) == (-5, 15, -5, 0)  # 老张's -5 stays his
    assert Player.objects.filter(group=session.group, name="小刘").exists()


def test_a_swap_and_its_english_words(owner, table):
    _, session = table
    client = logged_in(owner)
    page = visible_text(client.get(seats_url(session), **ENGLISH))
    assert "From hand 2 on." in page and "Seat 1: 小王 leaves, in comes" in page and "Swap seats" in page
    response = client.post(seats_url(session), {"seat": "0", "swap": "1", "revision": "1"}, **ENGLISH)
    assert response.status_code == 303
    assert [seat.player.name for seat in selectors.session_seats(session)] == ["小李", "小王", "阿美", "老张"]
    assert selectors.seat_points(session) == (15, -5, -5, -5)


def test_mid_hand_the_page_says_why_and_a_posted_change_is_refused_in_words(owner, table):
    _, session = table
    services.hand_event_add(
        actor=owner,
        session=session,
        event={"type": "kong", "player": 1, "kind": "concealed", "tile": "2m"},
        revision=1,
    )
    client = logged_in(owner)
    page = visible_text(client.get(seats_url(session)))
    assert "这一手已经开始：换人、换座只能在两手之间。" in page and "换上" not in page
    english = visible_text(client.get(seats_url(session), **ENGLISH))
    assert "This hand has begun: seats change between hands." in english
    refused = client.post(seats_url(session), {"seat": "3", "name": "小刘", "revision": "2"})
    assert refused.status_code == 409
    assert "这一手已经开始" in visible_text(refused)
    assert [seat.player.name for seat in selectors.session_seats(session)][3] == "老张"


@pytest.mark.parametrize(
    ("posted", "words"),
    [
        ({"seat": "3", "name": "阿美"}, "已经坐在第 3 座"),
        ({"seat": "3", "name": ""}, "name"),
        ({"seat": "2", "swap": "2"}, "座位不能和自己互换。"),
        ({"seat": "3", "name": "小刘", "revision": "0"}, "这一手刚被别人改过"),
    ],
    ids=["already-seated", "blank", "swap-itself", "stale"],
)
def test_a_refused_change_says_why_on_the_page(owner, table, posted, words):
    _, session = table
    response = logged_in(owner).post(seats_url(session), {"revision": "1", **posted})
    assert response.status_code in (400, 409)
    assert words in visible_text(response)
    assert [seat.player.name for seat in selectors.session_seats(session)] == ["小王", "小李", "阿美", "老张"]


def test_the_history_names_each_hand_as_the_table_sat_for_it(owner, table):
    _, session = table
    client = logged_in(owner)
    client.post(seats_url(session), {"seat": "3", "name": "小刘", "revision": "1"})
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    hands = client.get(reverse("session-history", args=[session.pk])).context["hands"]
    assert {hand.round.position: [name for name, _net in hand.shown.nets] for hand in hands} == {
        2: ["小王", "小李", "阿美", "小刘"],
        1: ["小王", "小李", "阿美", "老张"],
    }


def test_settle_up_and_the_picture_count_who_left_and_who_came_in(owner, table):
    _, session = table
    client = logged_in(owner)
    client.post(seats_url(session), {"seat": "1", "name": "小刘", "revision": "1"})
    win = {"dealer": 0, "events": [{"type": "win", "from": None, "winners": [{"player": 1, "fan": 4}]}]}
    services.round_record(actor=owner, session=session, body=win)  # 小刘 at seat 1: [-9, +27, -9, -9]
    summary = client.get(reverse("session-settle", args=[session.pk])).context["summary"].splitlines()
    # the seats now, then who left: 小李 left seat 1 after hand 1, keeping his +15
    assert summary[3:8] == ["小王 \u221214", "小刘 +27", "阿美 \u221214", "老张 \u221214", "小李 +15"]
    card = client.get(reverse("session-card", args=[session.pk]))
    assert card.status_code == 200 and card["Content-Type"] == "image/png"
