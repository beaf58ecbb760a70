"""A member's session page follows the table live (issue 9): its poll is one query and renders nothing
while nothing changed, brings the seats, header, this hand and the end card once another phone wrote,
and never takes a short cut past the log-in, the membership or the account."""

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session as Login
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ledger import selectors, services
from ledger.models import Membership, Role
from tests.ledger.conftest import SELF_DRAW_B, make_table, make_user

pytestmark = pytest.mark.django_db

SOUTH_KONG = {"ev_type": "kong", "kong_player": "1", "kong_kind": "concealed"}
LIVE = re.compile(r'<div id="entry-live"[^>]*>')


class Member:
    """A member's phone with the session page open, polling as its page says (``#entry-live``)."""

    def __init__(self, user: Any, session: Any, client: Client | None = None):
        if client is None:
            client = Client()
            client.force_login(user)
        self.client = client
        self.session = session
        self.page_url = reverse("session-page", args=[session.pk])
        self.follow(self.client.get(self.page_url))

    def follow(self, response: Any) -> None:
        """The poll's address and pass, read from a page or an answer as htmx reads the swapped element."""
        live = LIVE.search(response.content.decode())
        assert live is not None, "the answer carries the poll"
        self.live = live.group(0)
        url = re.search(r'hx-get="([^"]+)"', self.live)
        self.url = html.unescape(url.group(1)) if url else None
        live_pass = re.search(r'"X-Live-Pass": "([^"]+)"', self.live)
        self.live_pass = live_pass.group(1) if live_pass else ""

    def poll(self, *, live_pass: str | None = None) -> Any:
        assert self.url is not None, "this page does not poll"
        headers = {"HX-Request": "true", "X-Live-Pass": self.live_pass if live_pass is None else live_pass}
        response = self.client.get(self.url, headers=headers)
        if response.status_code == 200:
            self.follow(response)
        return response

    def record(self, **fields: Any) -> Any:
        seen = selectors.session_hand_revision(self.session)
        response = self.client.post(
            self.page_url,
            {"action": "record", "revision": str(seen), **fields},
            headers={"HX-Request": "true"},
        )
        self.follow(response)
        return response


def polled_queries(member: Member, **kwargs: Any) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = member.poll(**kwargs)
    return response, [query["sql"] for query in queries]


@pytest.fixture
def table() -> dict[str, Any]:
    owner = make_user("owner")
    group, session = make_table(owner)
    keeper = make_user("keeper")
    invitation = services.member_invite(actor=owner, group=group, username="keeper", role=Role.SCOREKEEPER)
    services.invitation_accept(actor=keeper, invitation=invitation)
    return {"owner": owner, "keeper": keeper, "group": group, "session": session}


def test_an_idle_poll_is_one_query_end_to_end_and_renders_nothing(table):
    member = Member(table["owner"], table["session"])
    response, queries = polled_queries(member)  # the whole request: session and auth middleware included
    assert response.status_code == 204 and response.content == b""
    assert len(queries) == 1, queries
    assert not response.templates


def test_another_phones_event_comes_with_the_seats_and_the_new_revision(table):
    watcher = Member(table["owner"], table["session"])
    Member(table["keeper"], table["session"]).record(**SOUTH_KONG)
    response = watcher.poll()
    assert response.status_code == 200
    body = response.content.decode()
    revision = selectors.session_hand_revision(table["session"])
    assert response["X-Live-Revision"] == str(revision)
    assert 'id="entry-seats"' in body and 'id="entry-head"' in body and 'id="entry-history"' in body
    assert "+6" in body, "小李's concealed kong, in the seats"
    assert f'data-revision="{revision}"' in watcher.live and 'hx-swap-oob="true"' in watcher.live
    assert len(body) <= 15_000
    again, queries = polled_queries(watcher)
    assert again.status_code == 204 and len(queries) == 1


def test_a_phones_own_tap_moves_its_poll_on_so_it_renders_nothing_again(table):
    member = Member(table["owner"], table["session"])
    member.record(**SOUTH_KONG)
    assert f'data-revision="{selectors.session_hand_revision(table["session"])}"' in member.live
    assert member.poll().status_code == 204


def test_a_hand_finished_on_another_phone_shows_its_end_card(table):
    watcher = Member(table["owner"], table["session"])
    services.round_record(actor=table["keeper"], session=table["session"], body=SELF_DRAW_B)
    body = watcher.poll().content.decode()
    assert "第 1 手结束" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))
    assert "第 2 手" in body and "+15" in body
    reloaded = Member(table["owner"], table["session"])  # a page that already shows hand 2
    Member(table["keeper"], table["session"]).record(**SOUTH_KONG)
    assert "endcard" not in reloaded.poll().content.decode(), "no end card of hand 1 to show it"


def test_without_a_pass_the_poll_answers_the_same_the_long_way(table):
    member = Member(table["owner"], table["session"])
    response, queries = polled_queries(member, live_pass="")
    assert response.status_code == 204 and len(queries) > 1  # Django's log-in and membership checks
    Member(table["keeper"], table["session"]).record(**SOUTH_KONG)
    assert member.poll(live_pass="").status_code == 200


def test_a_pass_is_worth_nothing_beside_another_login(table):
    member = Member(table["owner"], table["session"])
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    refused = stranger.get(member.url, headers={"X-Live-Pass": member.live_pass})
    assert refused.status_code == 404, "the long way: not a member"
    other_login = Client()
    other_login.force_login(table["owner"])
    with CaptureQueriesContext(connection) as queries:
        answer = other_login.get(member.url, headers={"X-Live-Pass": member.live_pass})
    assert answer.status_code == 204 and len(queries) > 1, "a pass signed for another login is not used"


def test_logging_out_ends_the_pass_even_for_a_copy_of_the_cookie(table):
    member = Member(table["owner"], table["session"])
    cookie = member.client.cookies["sessionid"].value
    SessionStore(session_key=cookie).delete()  # what logging out does to the login
    copy = Client()
    copy.cookies["sessionid"] = cookie
    answer = copy.get(member.url, headers={"X-Live-Pass": member.live_pass})
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


def test_an_expired_login_is_answered_the_long_way(table):
    member = Member(table["owner"], table["session"])
    assert member.poll().status_code == 204
    login = Login.objects.get(session_key=member.client.cookies["sessionid"].value)
    login.expire_date = timezone.now() - timedelta(seconds=1)
    login.save()
    answer = member.poll()
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


def test_a_member_removed_or_an_account_disabled_is_answered_the_long_way(table):
    watcher = Member(table["keeper"], table["session"])
    table["keeper"].is_active = False
    table["keeper"].save()
    assert watcher.poll().status_code == 302  # Django logs a disabled account out
    table["keeper"].is_active = True
    table["keeper"].save()
    assert watcher.poll().status_code == 204
    membership = Membership.objects.get(user=table["keeper"], group=table["group"])
    services.member_remove(actor=table["owner"], membership=membership)
    assert watcher.poll().status_code == 404


def test_a_viewer_member_follows_read_only(table):
    viewer = make_user("viewer")
    invitation = services.member_invite(
        actor=table["owner"], group=table["group"], username="viewer", role=Role.VIEWER
    )
    services.invitation_accept(actor=viewer, invitation=invitation)
    watcher = Member(viewer, table["session"])
    assert watcher.url is not None, "a viewer's page polls too"
    services.round_record(actor=table["owner"], session=table["session"], body=SELF_DRAW_B)
    body = watcher.poll().content.decode()
    assert 'id="entry-seats"' in body and "endcard" in body
    assert 'id="entry-revision"' not in body, "no form, so no revision box to swap"
    assert 'value="next"' not in body, "nothing for a viewer to tap on the end card"


def test_a_closed_session_stops_the_polling(table):
    watcher = Member(table["owner"], table["session"])
    services.session_close(actor=table["keeper"], session=table["session"])
    assert watcher.poll().status_code == 200
    assert watcher.url is None and "data-live" not in watcher.live, "the poll's element comes back inert"
    assert Member(table["owner"], table["session"]).url is None, "a closed session's page does not poll"


def test_issue_18_3_a_members_page_learns_that_the_session_closed_and_drops_its_controls():
    """The close moves the hand's revision on; the next poll answers HX-Refresh, and the page it reloads
    to has no entry and no hand in progress (its 暗杠 dropped with it), only the table."""
    owner = make_user("owner")
    _group, session = make_table(owner)
    member = Member(owner, session)
    member.record(**SOUTH_KONG)
    assert "entry-form" in member.client.get(member.page_url).content.decode()
    services.session_close(actor=owner, session=session)
    answer = member.poll()
    assert answer.status_code == 200 and answer["HX-Refresh"] == "true"
    page = member.client.get(member.page_url).content.decode()
    assert 'id="entry-form"' not in page and "本手已记" not in page and "暗杠" not in page
    assert 'id="entry-live"' in page and "hx-get" not in LIVE.search(page).group(0)  # and it stops polling
