"""The live board's poll: one indexed query and no template while nothing changed, the parts that moved
once something did (a few KB whatever the session's length), and the words saying why once the link
stops working."""

import gzip
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ledger import selectors, services
from ledger.models import Round, Session, SessionInvite
from tests.ledger.conftest import DIRECT_KONG, SELF_DRAW_B, make_table


@pytest.fixture
def link(owner: Any, session: Any) -> Any:
    return services.invite_create(actor=owner, session=session, role="viewer")


def poll(client: Any, link: Any, revision: object, ledger: str = "") -> Any:
    return client.get(
        f"/join/{link.token}/live/", {"revision": revision, "ledger": ledger}, HTTP_HX_REQUEST="true"
    )


def visible_text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_an_idle_poll_is_one_query_and_no_content(client, link, session):
    revision = selectors.session_hand_revision(session)
    with CaptureQueriesContext(connection) as queries:
        response = poll(client, link, revision)
    assert response.status_code == 204
    assert response.content == b""
    assert len(queries) == 1, [query["sql"] for query in queries]
    assert not response.templates


def test_a_new_event_answers_with_the_parts_it_moved_and_the_next_poll(client, link, owner, session):
    before = selectors.session_hand_revision(session)
    services.hand_event_add(actor=owner, session=session, event=DIRECT_KONG["events"][0], revision=before)
    after = selectors.session_hand_revision(session)
    assert after > before
    response = poll(client, link, before)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live-poll"')  # the next poll, not the board
    assert f"revision={after}" in html
    oob = re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', html)
    assert oob == ["live-head", "live-seats", "live-hand"]  # a kong moves no hand played
    assert "live-board" not in html
    assert poll(client, link, after).status_code == 204


def test_the_board_says_in_a_players_words_what_this_hand_holds_and_who_may_record(
    client, link, owner, session
):
    before = selectors.session_hand_revision(session)
    services.hand_event_add(actor=owner, session=session, event=DIRECT_KONG["events"][0], revision=before)
    concealed = {"type": "kong", "player": 1, "kind": "concealed", "tile": "1s"}
    services.hand_event_add(actor=owner, session=session, event=concealed, revision=before + 1)
    page = client.get(f"/join/{link.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "本手已记 2 笔" in page and "件事" not in page  # entries of a score sheet, not "two matters"
    assert "你在用观众链接看这一场：只有记分员能记分。" in page


def test_a_round_recorded_elsewhere_moves_the_board_too(client, link, owner, session):
    before = selectors.session_hand_revision(session)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    response = poll(client, link, before)
    assert response.status_code == 200 and "+15" in response.content.decode()
    assert 'id="live-played" hx-swap-oob="true"' in response.content.decode()  # the phone's ledger tag was ""


def test_the_hands_played_come_again_only_when_the_ledger_moved(client, link, owner, session):
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    page = client.get(f"/join/{link.token}/").content.decode()
    tag = re.search(r"ledger=(\w*)", page)[1]
    assert tag == Session.objects.get(pk=session.pk).ledger_digest[:16]
    before = selectors.session_hand_revision(session)
    services.hand_event_add(actor=owner, session=session, event=DIRECT_KONG["events"][0], revision=before)
    unmoved = poll(client, link, before, ledger=tag).content.decode()
    assert "live-played" not in unmoved and "+13" in unmoved  # the seats: 15 from the hand, 2 to the kong
    round_ = session.rounds.get()
    services.round_void(actor=owner, round_=round_)
    voided = poll(client, link, before, ledger=tag).content.decode()
    assert 'id="live-played" hx-swap-oob="true"' in voided and "handtable__voided" in voided


def test_the_board_shows_what_happened_in_the_hand_and_who_has_won(client, link, owner, session):
    """Before, a viewer read only 本手已记 2 笔, and no 胡 beside a winner; members saw both."""
    revision = selectors.session_hand_revision(session)
    concealed = {"type": "kong", "player": 1, "kind": "concealed", "tile": "1s"}
    services.hand_event_add(actor=owner, session=session, event=concealed, revision=revision)
    won = {"type": "win", "from": 0, "winners": [{"player": 2, "fan": 1}]}
    services.hand_event_add(actor=owner, session=session, event=won, revision=revision + 1)
    for html in (
        client.get(f"/join/{link.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode(),
        poll(client, link, revision).content.decode(),
    ):
        hand = html.split('id="live-hand"')[1].split("</section>")[0]
        assert "小李：暗杠" in visible_text_of(hand) or "暗杠" in hand
        seats = html.split('id="live-seats"')[1].split("</ol>")[0]
        winners = re.findall(
            r'<li class="seat seat--won">\s*<span class="seat__name"><span>([^<]+)</span>', seats
        )
        assert len(winners) == 1 and seats.count("tag--won") == 1


def seed_rounds(session, count):
    """``count`` hands at the end of the session in bulk (their rows, not their entries): only the length
    of the session matters here."""
    start = selectors.session_last_position(session) + 1
    Round.objects.bulk_create(
        Round(session=session, position=position, dealer=0, events=[], request_fingerprint="seed")
        for position in range(start, start + count)
    )


def test_an_event_sends_a_watching_phone_the_same_few_kb_whatever_the_sessions_length(
    client, link, owner, session
):
    """Before, every event re-sent the whole board: 57 ms at 200 hands, 2.2 s and 73 KB at 10,000."""
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    tag = Session.objects.get(pk=session.pk).ledger_digest[:16]
    sizes, queries = [], []
    for more in (20, 400):
        seed_rounds(session, more)
        before = selectors.session_hand_revision(session)
        event = {"type": "kong", "player": 1, "kind": "concealed", "tile": "1s"}
        services.hand_event_add(actor=owner, session=session, event=event, revision=before)
        with CaptureQueriesContext(connection) as captured:
            kong = poll(client, link, before, ledger=tag).content
        played = poll(client, link, before, ledger="").content  # as after a hand recorded
        services.hand_undo(actor=owner, session=session, revision=before + 1)
        queries.append(len(captured))
        sizes.append((len(kong), len(gzip.compress(kong)), len(gzip.compress(played))))
    assert queries[0] == queries[1]
    (kong_small, _, played_small), (kong_large, kong_gzip, played_gzip) = sizes
    assert kong_large <= 5 * 1024 and kong_gzip <= 2 * 1024  # the bytes themselves, not only compressed
    assert played_gzip <= 5 * 1024
    assert kong_large <= kong_small + 16 and played_gzip <= played_small * 1.05  # a digit more, no more


def test_a_revoked_link_stops_the_board(client, link, owner, session):
    revision = selectors.session_hand_revision(session)
    services.invite_revoke(actor=owner, invite=link)
    response = poll(client, link, revision)
    assert response.status_code == 200  # htmx swaps only 2xx: the board gives way to the reason
    html = response.content.decode()
    assert "invite-gone" in html and "hx-get" not in html


def test_a_scorekeeper_link_has_no_board_to_poll(client, owner, session):
    keeper_link = services.invite_create(actor=owner, session=session, role="scorekeeper")
    response = poll(client, keeper_link, selectors.session_hand_revision(session))
    assert response.status_code == 200 and "live-board" not in response.content.decode()


def test_an_expired_link_stops_the_board(client, link, session):
    revision = selectors.session_hand_revision(session)
    assert poll(client, link, revision).status_code == 204
    SessionInvite.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = poll(client, link, revision)
    assert response.status_code == 200 and "invite-gone" in response.content.decode()


def test_under_xueliu_the_board_shows_each_win_on_the_winners_seat_and_keeps_it_live(client, owner):
    """血流成河 (issue 17): 小李 wins twice in one hand; the viewer's board says 胡×2 on his seat, as members
    see it, and does not grey his seat out (he plays on), on the page and in the poll's parts."""
    _group, flowing = make_table(owner, rules={"preset": "chengdu", "mode": "xueliu"})
    viewer = services.invite_create(actor=owner, session=flowing, role="viewer")
    revision = selectors.session_hand_revision(flowing)
    won = {"type": "win", "from": None, "winners": [{"player": 1, "fan": 1}]}
    for step in range(2):
        services.hand_event_add(actor=owner, session=flowing, event=won, revision=revision + step)
    for html in (
        client.get(f"/join/{viewer.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode(),
        poll(client, viewer, revision).content.decode(),
    ):
        seats = html.split('id="live-seats"')[1].split("</ol>")[0]
        assert seats.count("tag--won") == 1 and "胡×2" in seats
        assert "seat--won" not in seats
