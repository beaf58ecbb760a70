"""The live board's poll: one indexed query and no template while nothing changed, the board once
something did, and the words saying why once the link stops working."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ledger import selectors, services
from ledger.models import SessionInvite
from tests.ledger.conftest import DIRECT_KONG, SELF_DRAW_B


@pytest.fixture
def link(owner: Any, session: Any) -> Any:
    return services.invite_create(actor=owner, session=session, role="viewer")


def poll(client: Any, link: Any, revision: object) -> Any:
    return client.get(f"/join/{link.token}/live/", {"revision": revision}, HTTP_HX_REQUEST="true")


def test_an_idle_poll_is_one_query_and_no_content(client, link, session):
    revision = selectors.session_hand_revision(session)
    with CaptureQueriesContext(connection) as queries:
        response = poll(client, link, revision)
    assert response.status_code == 204
    assert response.content == b""
    assert len(queries) == 1, [query["sql"] for query in queries]
    assert not response.templates


def test_a_new_event_answers_with_the_board_and_its_new_revision(client, link, owner, session):
    before = selectors.session_hand_revision(session)
    services.hand_event_add(actor=owner, session=session, event=DIRECT_KONG["events"][0], revision=before)
    after = selectors.session_hand_revision(session)
    assert after > before
    response = poll(client, link, before)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="live-board"')  # the fragment, not the page
    assert f"revision={after}" in html
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
    assert "你在用观看链接看这一场：只有记分员能记分。" in page


def test_a_round_recorded_elsewhere_moves_the_board_too(client, link, owner, session):
    before = selectors.session_hand_revision(session)
    services.round_record(actor=owner, session=session, body=SELF_DRAW_B)
    response = poll(client, link, before)
    assert response.status_code == 200 and "+15" in response.content.decode()


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
